// The source's history as our own: a visit parsed exactly as a click recorded here is (browser,
// system, device and bot by our own detection on its User-Agent, the referring host, UTM from the
// URL the click was sent to: the link's destination with the visited URL's query added, as
// src/http/redirect.ts sends it), and counts (Kutt, Bitly) as rollup rows without inventing a
// single visit. Both are written by the recorder's own recipe (src/visits/batch-recipe.ts).

import { createClientClassifier } from "../visits/ua.ts";
import { referrerHost, utmParameters, type Utm } from "../visits/visitor.ts";
import { compileDestination, withClickQuery, type Destination } from "../links/destination.ts";
import { UNKNOWN, type Visit } from "../visits/visit.ts";
import type { DailyRow, DimensionRow } from "../visits/rollup.ts";
import type { SourceCounts, SourceVisit } from "./source.ts";
import type { CountRows, ImportedLink } from "./target.ts";

/**
 * Turns a source's visits into ours, for the links imported (visits of others are left out and
 * counted); `linkOf`: our link (id and seq) a key names, `urlOf`: its destination.
 */
export function visitConverter() {
  const classify = createClientClassifier();
  const destinations = new Map<string, Destination | null>();
  const utmOf = (url: string | undefined, visitedUrl: string | null): Utm | null => {
    if (url === undefined) return visitedUrl === null ? null : utmParameters(visitedUrl);
    let d = destinations.get(url);
    if (d === undefined) destinations.set(url, (d = compiled(url)));
    if (d === null) return visitedUrl === null ? null : utmParameters(visitedUrl);
    return utmParameters(visitedLocation(d, visitedUrl));
  };
  return (visits: readonly SourceVisit[], linkOf: (key: string) => ImportedLink | undefined, urlOf: (key: string) => string | undefined): { visits: Visit[]; unmatched: number } => {
    const out: Visit[] = [];
    let unmatched = 0;
    for (const v of visits) {
      const link = linkOf(v.key);
      if (link === undefined) {
        unmatched++;
        continue;
      }
      const client = classify(v.userAgent);
      const utm = utmOf(urlOf(v.key), v.visitedUrl);
      out.push({
        linkSeq: link.seq, linkId: link.id, ts: v.ts, browser: client.browser, os: client.os, device: client.device, country: countryOf(v.country), referrer: referrerHost(v.referrer),
        utmSource: utm?.source ?? null, utmMedium: utm?.medium ?? null, utmCampaign: utm?.campaign ?? null, isBot: client.isBot,
        // No visitor key: an imported visit is nobody's first (docs/importing.md: Moving from another shortener).
        visitor: null,
      });
    }
    return { visits: out, unmatched };
  };
}

/** A destination as the redirect compiles it; null for one it could not (then the visited URL alone is read). */
function compiled(url: string): Destination | null {
  try {
    return compileDestination(url);
  } catch {
    return null;
  }
}

/** Where the click went: the link's destination, with the visited URL's query added (links/destination.ts). */
function visitedLocation(d: Destination, visitedUrl: string | null): string {
  const q = visitedUrl === null ? -1 : visitedUrl.indexOf("?");
  if (q === -1) return d.location;
  const hash = visitedUrl!.indexOf("#", q);
  const query = visitedUrl!.slice(q + 1, hash === -1 ? undefined : hash);
  return query === "" ? d.location : withClickQuery(d, query);
}

/** An ISO 3166-1 alpha-2 code, upper-case; "", "XX" (Cloudflare's unknown) and anything else are Unknown. */
export function countryOf(code: string | null): string {
  const upper = (code ?? "").trim().toUpperCase();
  return /^[A-Z]{2}$/.test(upper) && upper !== "XX" ? upper : UNKNOWN;
}

const DIMENSIONS = ["browser", "os", "device", "country", "referrer"] as const;

/**
 * A source's counts as rows of our rollups: clicks per day as they are, and each dimension's names
 * on the newest day with clicks (the sources keep them for a whole period, not per day), filled up
 * with Unknown to the period's clicks so that every breakdown of it adds up. No bots: neither
 * source tells them apart, so all count as people, and no unique visitors.
 */
export function countRows(counts: readonly SourceCounts[], linkOf: (key: string) => ImportedLink | undefined): CountRows {
  const out: CountRows = { daily: [], dimensions: [], totals: new Map() };
  for (const c of counts) {
    const linkSeq = linkOf(c.key)?.seq;
    const days = c.days.filter((d) => d.total > 0);
    if (linkSeq === undefined || days.length === 0) continue;
    // A source can name a day twice (Kutt: its older clicks on the creation day, inside the last 30):
    // one row a day, or PostgreSQL's upsert would meet the same row twice.
    const byDay = new Map<string, number>();
    for (const d of days) byDay.set(d.day, (byDay.get(d.day) ?? 0) + d.total);
    let total = 0;
    let newest = days[0]!.day;
    for (const [day, n] of byDay) {
      out.daily.push({ linkSeq, day, total: n, bots: 0, uniques: 0, uniqueBots: 0 } satisfies DailyRow);
      total += n;
      if (day > newest) newest = day;
    }
    const lastTs = Date.parse(`${newest}T00:00:00Z`);
    const prior = out.totals.get(linkSeq);
    out.totals.set(linkSeq, { total: (prior?.total ?? 0) + total, humans: (prior?.humans ?? 0) + total, lastTs: Math.max(prior?.lastTs ?? 0, lastTs) });
    for (const dimension of DIMENSIONS) {
      // Past the limit of values a day, foldOther (the writer's) folds the rest into Other, as for clicks.
      const rows = new Map<string, number>();
      for (const d of c.dimensions) if (d.dimension === dimension && d.total > 0) rows.set(d.name, (rows.get(d.name) ?? 0) + d.total);
      const counted = [...rows.values()].reduce((a, b) => a + b, 0);
      if (counted < c.dimensionsTotal) rows.set(UNKNOWN, (rows.get(UNKNOWN) ?? 0) + c.dimensionsTotal - counted);
      for (const [name, n] of rows) out.dimensions.push({ linkSeq, dimension, day: newest, name, total: n, bots: 0 } satisfies DimensionRow);
    }
  }
  return out;
}
