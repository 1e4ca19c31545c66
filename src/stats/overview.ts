// The dashboard's overview in one request: how many links a key may see, their clicks today and
// in the last 7 and 30 days (and per day for a small chart), and the top 5 of the last 30 days.
// Engines read it from daily rollups by day (an index), so it costs the number of link-days, not
// of visits (OverviewSource, in src/db/<engine>/overview.ts). It may be counted over one domain's
// links only (docs/web-ui.md: Overview).

import { addDays, dayOf } from "../util/day.ts";
import { then, type MaybePromise } from "../util/maybe.ts";
import type { Overview } from "../api/types.ts";
import type { OwnerFilter } from "../links/list.ts";
import type { Link } from "../links/link.ts";

export const OVERVIEW_DAYS = 30;
export const OVERVIEW_TOP = 5;

export type { Overview } from "../api/types.ts";

/** `domain`: a stored domain (links.domain: '' for the default) to count only its links; null: every domain. */
export type OverviewReader = (owner: OwnerFilter, now: number, domain?: string | null) => MaybePromise<Overview>;
/** Clicks per UTC day of the last `days` (oldest first, today last) for each of the given links, by id. */
export type DailyCounts = (links: readonly Pick<Link, "seq" | "id">[], now: number, days: number) => MaybePromise<Map<string, number[]>>;

/** A daily_rollup row as the sparklines read it: the link by its seq. */
export type DailyRollupRow = { link_seq: number; day: string; total: number };

/** What the overview reads, from the UTC day `first` on, of the links the owner filter lets through. */
export type OverviewRows = {
  links: number;
  perDay: { day: string; clicks: number }[];
  /** the `top` links with the most clicks, most first, ties by id */
  top: { id: string; domain: string; url: string; clicks: number }[];
};

/** The port each engine implements; `domain` as OverviewReader's. */
export type OverviewSource = {
  read(owner: OwnerFilter, first: string, top: number, domain: string | null): MaybePromise<OverviewRows>;
  /** The daily_rollup rows of these links (by seq) from `first` on. */
  daily(seqs: readonly number[], first: string): MaybePromise<DailyRollupRow[]>;
};

export function createOverview(source: OverviewSource): { overview: OverviewReader; dailyCounts: DailyCounts } {
  return {
    overview(owner, now, domain = null) {
      const first = overviewStart(now);
      return then(source.read(owner, first, OVERVIEW_TOP, domain), (rows) => assembleOverview(first, rows));
    },
    dailyCounts(links, now, days) {
      const first = addDays(dayOf(now), -(days - 1));
      return then(source.daily(links.map((l) => l.seq), first), (rows) => dailySeries(links, first, days, rows));
    },
  };
}

/** The first UTC day the overview counts. */
export function overviewStart(now: number): string {
  return addDays(dayOf(now), -(OVERVIEW_DAYS - 1));
}

/** The overview from what an engine read since `first`. */
export function assembleOverview(first: string, rows: OverviewRows): Overview {
  const byDay = new Map(rows.perDay.map((r) => [r.day, r.clicks]));
  const daily = Array.from({ length: OVERVIEW_DAYS }, (_, i) => byDay.get(addDays(first, i)) ?? 0);
  const sum = (days: number) => daily.slice(-days).reduce((a, b) => a + b, 0);
  return {
    links: rows.links,
    clicksToday: sum(1),
    clicks7d: sum(7),
    clicks30d: sum(30),
    daily,
    top: rows.top.map((r) => ({ id: r.id, domain: r.domain, originalUrl: r.url, clicks: r.clicks })),
  };
}

/** Each link's clicks per day from `first` on (zero-filled), from its daily_rollup rows; by id, as the list shows them. */
export function dailySeries(links: readonly Pick<Link, "seq" | "id">[], first: string, days: number, rows: DailyRollupRow[]): Map<string, number[]> {
  const bySeq = new Map(links.map((l) => [l.seq, new Array<number>(days).fill(0)]));
  for (const r of rows) {
    const index = Math.round((Date.parse(`${r.day}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000);
    const counts = bySeq.get(r.link_seq);
    if (counts && index >= 0 && index < days) counts[index] = r.total;
  }
  return new Map(links.map((l) => [l.id, bySeq.get(l.seq)!]));
}
