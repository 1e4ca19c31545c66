// The dashboard's overview in one request: how many links a key may see, their clicks today and
// in the last 7 and 30 days (and per day for a small chart), and the top 5 of the last 30 days.
// Read from daily rollups by day (an index), so it costs the number of link-days, not of visits.

import type { Database } from "bun:sqlite";
import { addDays, dayOf } from "../util/day.ts";
import type { MaybePromise, SyncFunction } from "../util/maybe.ts";

export const OVERVIEW_DAYS = 30;
export const OVERVIEW_TOP = 5;

export type Overview = {
  links: number;
  clicksToday: number;
  clicks7d: number;
  clicks30d: number;
  /** clicks per UTC day of the last 30, oldest first, today last */
  daily: number[];
  top: { id: string; originalUrl: string; clicks: number }[];
};

export type OverviewReader = (ownerKeyId: number | null, now: number) => MaybePromise<Overview>;
/** Clicks per UTC day of the last `days` (oldest first, today last) for each of the given links. */
export type DailyCounts = (ids: readonly string[], now: number, days: number) => MaybePromise<Map<string, number[]>>;

export function createOverviewReader(db: Database): SyncFunction<OverviewReader> {
  // owner ?2 NULL: every link; otherwise only that key's links.
  const OWNED = "(?2 IS NULL OR link_id IN (SELECT id FROM links WHERE owner_key_id = ?2))";
  const count = db.query<{ n: number }, [null, number | null]>("SELECT COUNT(*) AS n FROM links WHERE ?2 IS NULL OR owner_key_id = ?2");
  const perDay = db.query<{ day: string; clicks: number }, [string, number | null]>(
    `SELECT day, SUM(total) AS clicks FROM daily_rollup WHERE day >= ?1 AND ${OWNED} GROUP BY day`,
  );
  const top = db.query<{ id: string; url: string; clicks: number }, [string, number | null, number]>(
    `SELECT t.link_id AS id, l.url AS url, t.clicks AS clicks
     FROM (SELECT link_id, SUM(total) AS clicks FROM daily_rollup WHERE day >= ?1 AND ${OWNED} GROUP BY link_id) AS t
     JOIN links AS l ON l.id = t.link_id
     ORDER BY t.clicks DESC, t.link_id LIMIT ?3`,
  );
  return (ownerKeyId, now) => {
    const first = overviewStart(now);
    return assembleOverview(first, count.get(null, ownerKeyId)!.n, perDay.all(first, ownerKeyId), top.all(first, ownerKeyId, OVERVIEW_TOP));
  };
}

/** The first UTC day the overview counts. */
export function overviewStart(now: number): string {
  return addDays(dayOf(now), -(OVERVIEW_DAYS - 1));
}

/** The overview from what an engine read: links, clicks per day since `first`, the top links. */
export function assembleOverview(first: string, links: number, perDay: { day: string; clicks: number }[], top: { id: string; url: string; clicks: number }[]): Overview {
  const byDay = new Map(perDay.map((r) => [r.day, r.clicks]));
  const daily = Array.from({ length: OVERVIEW_DAYS }, (_, i) => byDay.get(addDays(first, i)) ?? 0);
  const sum = (days: number) => daily.slice(-days).reduce((a, b) => a + b, 0);
  return {
    links,
    clicksToday: sum(1),
    clicks7d: sum(7),
    clicks30d: sum(30),
    daily,
    top: top.map((r) => ({ id: r.id, originalUrl: r.url, clicks: r.clicks })),
  };
}

export function createDailyCounts(db: Database): SyncFunction<DailyCounts> {
  const rows = db.query<{ link_id: string; day: string; total: number }, [string, string]>(
    "SELECT link_id, day, total FROM daily_rollup WHERE link_id IN (SELECT value FROM json_each(?)) AND day >= ?",
  );
  return (ids, now, days) => {
    const first = addDays(dayOf(now), -(days - 1));
    return dailySeries(ids, first, days, rows.all(JSON.stringify(ids), first));
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
