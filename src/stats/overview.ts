// The dashboard's overview in one request: how many links a key may see, their clicks today and
// in the last 7 and 30 days (and per day for a small chart), and the top 5 of the last 30 days.
// Engines read it from daily rollups by day (an index), so it costs the number of link-days, not
// of visits (OverviewSource, in src/db/<engine>/overview.ts).

import { addDays, dayOf } from "../util/day.ts";
import { then, type MaybePromise } from "../util/maybe.ts";
import type { Overview } from "../api/types.ts";
import type { OwnerFilter } from "../links/list.ts";

export const OVERVIEW_DAYS = 30;
export const OVERVIEW_TOP = 5;

export type { Overview } from "../api/types.ts";

export type OverviewReader = (owner: OwnerFilter, now: number) => MaybePromise<Overview>;
/** Clicks per UTC day of the last `days` (oldest first, today last) for each of the given links. */
export type DailyCounts = (ids: readonly string[], now: number, days: number) => MaybePromise<Map<string, number[]>>;

/** What the overview reads, from the UTC day `first` on, of the links the owner filter lets through. */
export type OverviewRows = {
  links: number;
  perDay: { day: string; clicks: number }[];
  /** the `top` links with the most clicks, most first, ties by id */
  top: { id: string; url: string; clicks: number }[];
};

/** The port each engine implements. */
export type OverviewSource = {
  read(owner: OwnerFilter, first: string, top: number): MaybePromise<OverviewRows>;
  /** The daily_rollup rows of these links from `first` on. */
  daily(ids: readonly string[], first: string): MaybePromise<{ link_id: string; day: string; total: number }[]>;
};

export function createOverview(source: OverviewSource): { overview: OverviewReader; dailyCounts: DailyCounts } {
  return {
    overview(owner, now) {
      const first = overviewStart(now);
      return then(source.read(owner, first, OVERVIEW_TOP), (rows) => assembleOverview(first, rows));
    },
    dailyCounts(ids, now, days) {
      const first = addDays(dayOf(now), -(days - 1));
      return then(source.daily(ids, first), (rows) => dailySeries(ids, first, days, rows));
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
    top: rows.top.map((r) => ({ id: r.id, originalUrl: r.url, clicks: r.clicks })),
  };
}

/** Each link's clicks per day from `first` on (zero-filled), from its daily_rollup rows. */
export function dailySeries(ids: readonly string[], first: string, days: number, rows: { link_id: string; day: string; total: number }[]): Map<string, number[]> {
  const out = new Map(ids.map((id) => [id, new Array<number>(days).fill(0)]));
  for (const r of rows) {
    const index = Math.round((Date.parse(`${r.day}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000);
    const counts = out.get(r.link_id);
    if (counts && index >= 0 && index < days) counts[index] = r.total;
  }
  return out;
}
