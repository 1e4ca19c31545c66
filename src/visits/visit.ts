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
  /**
   * The same fields (browser … isBot, but the country) as one object that every visit with these
   * values shares, when the recorder made the visit (profiles.ts): a batch is then summed and stored
   * once per profile, not once per visit. Visits made elsewhere (seeding, tests) are given one when
   * written.
   */
  profile?: VisitProfile;
};

/** What a visit says beside its link, time, country and visitor. */
export type VisitProfile = Readonly<Pick<Visit, "browser" | "os" | "device" | "referrer" | "utmSource" | "utmMedium" | "utmCampaign" | "isBot">> & {
  /** The stored form around the country (visit-batch.ts): `"Chrome","Windows","desktop",` and `,"t.co",null,null,null,0]`. */
  readonly storedHead: string;
  readonly storedTail: string;
};

export const UNKNOWN = "Unknown";
export const DIRECT = "Direct";
