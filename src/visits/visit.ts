// One click, as recorded: parsed and classified at record time, with nothing that identifies a person.

export type Visit = {
  linkId: string;
  /** ms since the Unix epoch */
  ts: number;
  browser: string;
  os: string;
  device: string;
  /** ISO 3166-1 alpha-2, or "Unknown" */
  country: string;
  /** referring host, "Direct" when there was none */
  referrer: string;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  isBot: boolean;
  /**
   * The salted visitor hash of src/visits/visitor-id.ts, only ever written to the day's
   * visitors_seen set (deleted with its salt), never with the visit; null when unknown (then the
   * visit counts as a new visitor).
   */
  visitor: string | null;
};

export const UNKNOWN = "Unknown";
export const DIRECT = "Direct";
