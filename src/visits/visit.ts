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
   * The salted visitor key of src/visits/visitor-id.ts, only ever kept in the day's and hour's
   * visitors_seen sets (deleted with the salt), never with the visit; null when unknown (then the
   * visit counts as a new visitor).
   */
  visitor: number | null;
};

export const UNKNOWN = "Unknown";
export const DIRECT = "Direct";
