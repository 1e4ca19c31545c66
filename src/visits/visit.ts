// One click, as recorded: parsed and classified at record time, with nothing that identifies a person.

import type { OrphanTarget } from "./orphans.ts";

export type Visit = {
  /** the link's seq: what every table of a link's data is keyed by (docs/architecture.md: A link's identity) */
  linkSeq: number;
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
  /** Which rule and variant of its link the click took (src/links/router.ts); null for a plain link. */
  route?: VisitRoute | null;
  /** A visit to no link (seq ORPHAN_SEQ): where it went (orphans.ts; docs/statistics.md: Visits to no link). */
  orphan?: OrphanTarget;
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

/**
 * The rule ("rule 2", or "default" when none matched) and variant URL ("" for none) a click took;
 * or, with `fallback` set, a visitor sent to the fallback URL of a link that no longer redirects
 * ("expired", "disabled"); or, with `preview`, a link-preview agent's fetch of the link's card.
 * Neither of the last two is a click: each is counted only apart (rollup.ts withoutApart).
 * `stored`: the end of the visit's stored JSON (visit-batch.ts).
 */
export type VisitRoute = { readonly rule: string; readonly variant: string; readonly fallback: string | null; readonly preview: boolean; readonly stored: string };

/** Whether a visit is not a click but counted apart: a fallback's visitor or a preview (docs/sharing.md: Previews in the statistics). */
export function countedApart(route: VisitRoute | null | undefined): boolean {
  return route != null && (route.fallback !== null || route.preview);
}

/** How a route crosses from the click thread to the recorder: one dictionary string (click.ts). */
export function routeText(rule: string, variant: string): string {
  return `${rule}\n${variant}`;
}
export function fallbackText(reason: string): string {
  return `\u0000fallback\n${reason}`;
}
/** A link-preview agent's fetch of a link's card (src/http/card-page.ts): not a click, counted apart as a preview. */
export const PREVIEW_ROUTE = "\u0000preview\n";
export function parseRoute(text: string): VisitRoute {
  const cut = text.indexOf("\n");
  const head = text.slice(0, cut);
  const tail = text.slice(cut + 1);
  if (head === "\u0000fallback") return { rule: "", variant: "", fallback: tail, preview: false, stored: "]" };
  if (head === "\u0000preview") return { rule: "", variant: "", fallback: null, preview: true, stored: "]" };
  return { rule: head, variant: tail, fallback: null, preview: false, stored: `,${JSON.stringify(head)},${JSON.stringify(tail)}]` };
}
