// Statistics above the single link (docs/statistics.md: Tags and domains): the rows of each link
// read for one plan, summed into one set of rows, and assembled as a link's are. The rule is here
// once; the engines only read each link's rows (their StatsSource), so the figures are the rollups'
// own and the sum is exact: a tag's clicks are its links' clicks added up, and so are its unique
// visitors (a person who clicked two of its links is two visitors, one on each).

import type { Link } from "../links/link.ts";
import { STORED_TS } from "../visits/visit-batch.ts";
import { assembleStats, MAX_BREAKDOWN_ENTRIES, planStats, RECENT_VISITS, type LinkStats, type NameCount, type StatsFilter, type StatsRows, type StatsSource } from "./link-stats.ts";

/** Links read at once on PostgreSQL's pool; SQLite's reader answers one read at a time anyway. */
const READS_AT_ONCE = 4;

/**
 * The statistics of `links` summed, over one range for all: the range starts (without `from`) at
 * the oldest link's creation or DEFAULT_DAYS back, as a link's does at its own.
 */
export async function readSum(source: StatsSource, links: readonly Link[], filter: StatsFilter, now: number): Promise<LinkStats> {
  const createdAt = links.reduce((oldest, l) => Math.min(oldest, l.createdAt), now);
  const plan = planStats({ createdAt }, filter, now);
  const rows: StatsRows[] = [];
  for (let i = 0; i < links.length; i += READS_AT_ONCE) {
    rows.push(...(await Promise.all(links.slice(i, i + READS_AT_ONCE).map((l) => source(l.seq, plan)))));
  }
  return assembleStats(plan, sumRows(rows));
}

/** Several links' rows as one link's: every count added up by its day, hour, value or UTM combination. */
export function sumRows(all: readonly StatsRows[]): StatsRows {
  const listed = (pick: (r: StatsRows) => NameCount[]) => largest(sumBy(all.flatMap(pick), (n) => n.name, (a, b) => ({ name: a.name, count: a.count + b.count })));
  return {
    days: sumBy(all.flatMap((r) => r.days), (d) => d.day, (a, b) => ({
      day: a.day, count: a.count + b.count, bots: a.bots + b.bots, uniques: a.uniques + b.uniques, imported: a.imported + b.imported, total: a.total + b.total,
    })).sort((a, b) => (a.day < b.day ? -1 : 1)),
    hours: sumBy(all.flatMap((r) => r.hours), (h) => h.hour, (a, b) => ({ hour: a.hour, count: a.count + b.count, uniques: a.uniques + b.uniques })),
    browser: listed((r) => r.browser),
    os: listed((r) => r.os),
    device: listed((r) => r.device),
    country: listed((r) => r.country),
    referrer: listed((r) => r.referrer),
    rule: listed((r) => r.rule),
    variant: listed((r) => r.variant),
    fallback: listed((r) => r.fallback),
    preview: listed((r) => r.preview),
    previewTotal: all.reduce((n, r) => n + r.previewTotal, 0),
    utm: sumBy(all.flatMap((r) => r.utm), (u) => JSON.stringify([u.source, u.medium, u.campaign]), (a, b) => ({ ...a, count: a.count + b.count }))
      .sort((a, b) => b.count - a.count || byName(a.source + a.medium + a.campaign, b.source + b.medium + b.campaign))
      .slice(0, MAX_BREAKDOWN_ENTRIES),
    utmTotal: all.reduce((n, r) => n + r.utmTotal, 0),
    recent: all.flatMap((r) => r.recent).sort((a, b) => b[STORED_TS] - a[STORED_TS]).slice(0, RECENT_VISITS),
  };
}

/** The entries with equal keys merged by `add`, in the order their keys first came. */
function sumBy<T>(entries: readonly T[], key: (e: T) => string, add: (a: T, b: T) => T): T[] {
  const byKey = new Map<string, T>();
  for (const e of entries) {
    const k = key(e);
    const seen = byKey.get(k);
    byKey.set(k, seen === undefined ? { ...e } : add(seen, e));
  }
  return [...byKey.values()];
}

/** A breakdown as an engine lists it: largest first, ties by name (byte order), at most its length. */
function largest(list: NameCount[]): NameCount[] {
  return list.sort((a, b) => b.count - a.count || byName(a.name, b.name)).slice(0, MAX_BREAKDOWN_ENTRIES);
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
