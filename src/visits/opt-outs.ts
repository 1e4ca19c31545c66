// Clicks that are answered as always but never counted (docs/statistics.md: Not counting some clicks):
// from the addresses of --no-count-from, with the query parameter of --no-count-param, or (under
// --do-not-track skip) sending DNT: 1 or Sec-GPC: 1. Such a click leaves no visit, so no rollup,
// total, live event or webhook follows from it; it is counted only in
// shortener_clicks_not_counted_total, by the reason that kept it out.
//
// The parameter and the headers are the request's, decided on the click thread before the hand-over
// (nothing is packed for such a click); the address is the one the recorder thread works out by
// the trusted-proxy rule anyway (recording.ts), so the click thread pays nothing for that list.

import { parseTrustedProxies, type TrustedProxies } from "./client-ip.ts";

export const NOT_COUNTED_REASONS = ["address", "param", "dnt"] as const;
export type NotCountedReason = (typeof NOT_COUNTED_REASONS)[number];

/** What the flags say; checked by src/config/opt-outs.ts. */
export type OptOutSettings = Readonly<{
  /** --no-count-from: IPs/CIDRs (loopback, private too), comma-separated; "" = none */
  noCountFrom: string;
  /** --no-count-param: the query parameter that skips counting; null = none */
  noCountParam: string | null;
  /** --do-not-track: whether DNT: 1 and Sec-GPC: 1 keep a click out of the statistics */
  doNotTrack: "count" | "skip";
}>;

export const NO_OPT_OUTS: OptOutSettings = Object.freeze({ noCountFrom: "", noCountParam: null, doNotTrack: "count" });

/** The click thread's side: the parameter taken out of the click's query, and what the request says. */
export type ClickOptOuts = {
  /** The click's own query without the opt-out parameter (the same string when it has none). */
  query(query: string): string;
  /** Why this click is not counted, or null; a reason returned is counted for /metrics. */
  skips(query: string, click: { header(name: string): string | null }): NotCountedReason | null;
  /** Clicks kept out here so far, by reason (the address's are the recorder's). */
  counts(): { param: number; dnt: number };
};

export function createClickOptOuts(settings: OptOutSettings): ClickOptOuts {
  const param = settings.noCountParam;
  const dnt = settings.doNotTrack === "skip";
  const counted = { param: 0, dnt: 0 };
  return {
    // A click without a query, or an instance without the parameter, pays one comparison.
    query: (query) => (param === null || query === "" ? query : withoutParam(query, param)),
    skips(query, click) {
      if (param !== null && query !== "" && hasParam(query, param)) {
        counted.param++;
        return "param";
      }
      if (dnt && (click.header("dnt") === "1" || click.header("sec-gpc") === "1")) {
        counted.dnt++;
        return "dnt";
      }
      return null;
    },
    counts: () => ({ ...counted }),
  };
}

/** Whether the query (without "?") names the parameter, with a value or without one. */
export function hasParam(query: string, name: string): boolean {
  let at = query.indexOf(name);
  while (at !== -1) {
    const end = at + name.length;
    if ((at === 0 || query[at - 1] === "&") && (end === query.length || query[end] === "=" || query[end] === "&")) return true;
    at = query.indexOf(name, end);
  }
  return false;
}

/**
 * The query without every occurrence of the parameter; the other parameters are kept as they were
 * written (not decoded and encoded again), in their order.
 */
export function withoutParam(query: string, name: string): string {
  if (!hasParam(query, name)) return query;
  return query
    .split("&")
    .filter((part) => part !== name && !part.startsWith(`${name}=`))
    .join("&");
}

/** --no-count-from as the recorder matches it; null when it names nothing (no check at all). */
export function noCountAddresses(spec: string): TrustedProxies | null {
  const ranges = parseTrustedProxies(spec);
  return ranges.empty ? null : ranges;
}
