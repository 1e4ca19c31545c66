// The SQL both engines run for the statistics of a set of links (docs/statistics.md: Tags and
// domains): the rows of one stats plan grouped over the set in the database, so that every count,
// breakdown and UTM list is exact over the set (a value small on every link but large over them
// all is listed) and the number of queries does not grow with the set. Only the test of a column
// against the set differs between the dialects (SetDialect); the rest is written here once, with
// `?` parameters in order. A single link keeps its own statements (src/db/<engine>/stats.ts).

import { MAX_BREAKDOWN_ENTRIES, type NameCount, type StatsPlan, type StatsRows } from "../../stats/link-stats.ts";
import { hourOf } from "../../visits/rollup.ts";
import { OTHER } from "../../visits/other.ts";

/** How an engine tests a column against a set of integers bound as one parameter. */
export type SetDialect = { inSet(column: string): string; setParam(values: readonly number[]): string };

/** SQLite: the set as a JSON array, walked by json_each; each value probes the rollup's key. */
export const SQLITE_SET: SetDialect = { inSet: (c) => `${c} IN (SELECT value FROM json_each(?))`, setParam: (v) => JSON.stringify(v) };
/** PostgreSQL: the set as an array literal, `= ANY` over it probes the key too. */
export const POSTGRES_SET: SetDialect = { inSet: (c) => `${c} = ANY(CAST(? AS bigint[]))`, setParam: (v) => `{${v.join(",")}}` };

export type SetQuery = { sql: string; params: (string | number)[] };

/** The queries of a plan over the set; `hourly` null when the plan has no hours. */
export function statsSetQueries(d: SetDialect, seqs: readonly number[], plan: StatsPlan): {
  daily: SetQuery; hourly: SetQuery | null; dimensions: SetQuery; utm: SetQuery; totals: SetQuery;
} {
  const set = d.setParam(seqs);
  const { minus, from, to } = plan;
  const linkIn = d.inSet("link_seq");
  return {
    // From the previous period's first day: both periods' days in one read (link-stats.ts StatsPlan).
    daily: {
      sql: `SELECT day, SUM(total - bots * ?) AS count, SUM(bots) AS bots, SUM(uniques - unique_bots * ?) AS uniques,
              SUM(imported) AS imported, SUM(total) AS total
            FROM daily_rollup WHERE ${linkIn} AND day BETWEEN ? AND ? GROUP BY day ORDER BY day`,
      params: [minus, minus, set, plan.previous.from, to],
    },
    hourly: plan.hours === null ? null : {
      sql: `SELECT hour, SUM(total - bots * ?) AS count, SUM(uniques - unique_bots * ?) AS uniques
            FROM hourly_rollup WHERE ${linkIn} AND hour BETWEEN ? AND ? GROUP BY hour`,
      params: [minus, minus, set, hourOf(plan.hours.start), hourOf(plan.hours.end)],
    },
    // Every dimension in one query: each one's largest values, ties by name (byte order in both). The
    // dimensions named make each link's rows a range of the key (link_seq, dimension, day, name).
    // Previews are agents' fetches, all bots: the bot filter, which is about clicks, leaves them (link-stats.ts StatsRows).
    dimensions: {
      sql: `SELECT dimension, name, count FROM (
              SELECT dimension, name, SUM(total - bots * m) AS count,
                     row_number() OVER (PARTITION BY dimension ORDER BY SUM(total - bots * m) DESC, name) AS place
              FROM (SELECT dimension, name, total, bots, CASE WHEN dimension = 'preview' THEN 0 ELSE CAST(? AS integer) END AS m
                    FROM dimension_rollup
                    WHERE ${linkIn} AND dimension IN (${BREAKDOWNS.map((b) => `'${b}'`).join(", ")}) AND day BETWEEN ? AND ? AND name <> ?) AS d
              GROUP BY dimension, name HAVING SUM(total - bots * m) > 0) AS ranked
            WHERE place <= ? ORDER BY dimension, place`,
      params: [minus, set, from, to, OTHER, MAX_BREAKDOWN_ENTRIES],
    },
    // The folded OTHER rows (other.ts) are not listed: assembleStats adds what the list leaves out.
    utm: {
      sql: `SELECT source, medium, campaign, SUM(total - bots * ?) AS count FROM utm_rollup
            WHERE ${linkIn} AND day BETWEEN ? AND ? AND source <> ?
            GROUP BY source, medium, campaign HAVING SUM(total - bots * ?) > 0
            ORDER BY count DESC, source, medium, campaign LIMIT ?`,
      params: [minus, set, from, to, OTHER, minus, MAX_BREAKDOWN_ENTRIES],
    },
    totals: {
      sql: `SELECT (SELECT COALESCE(SUM(total - bots * ?), 0) FROM utm_rollup WHERE ${linkIn} AND day BETWEEN ? AND ?) AS utm,
                   (SELECT COALESCE(SUM(total), 0) FROM dimension_rollup WHERE ${linkIn} AND dimension = 'preview' AND day BETWEEN ? AND ?) AS preview`,
      params: [minus, set, from, to, set, from, to],
    },
  };
}

/** Where a page of the newest batches ends: its last batch's last_ts and id. */
export type BatchPlace = { lastTs: number; id: number };

/**
 * A page of the set's batches that can hold a visit of the range, newest last_ts first (ties by id),
 * after `before`: only their places, so that the sort never carries a batch's visits.
 */
export function batchPlacesQuery(d: SetDialect, seqs: readonly number[], plan: StatsPlan, before: BatchPlace, limit: number): SetQuery {
  return {
    sql: `SELECT id, last_ts FROM visit_batches
          WHERE ${d.inSet("link_seq")} AND last_ts >= ? AND first_ts < ? AND humans >= ? AND (last_ts < ? OR (last_ts = ? AND id < ?))
          ORDER BY last_ts DESC, id DESC LIMIT ?`,
    params: [d.setParam(seqs), plan.recent.fromTs, plan.recent.toTs, plan.excludeBots ? 1 : 0, before.lastTs, before.lastTs, before.id, limit],
  };
}

/** The visits of the batches of a page, by id. */
export function batchVisitsQuery(d: SetDialect, ids: readonly number[]): SetQuery {
  return { sql: `SELECT id, visits FROM visit_batches WHERE ${d.inSet("id")}`, params: [d.setParam(ids)] };
}

type Row = Record<string, unknown>;

/** The breakdowns StatsRows lists, each a dimension of dimension_rollup (rollup.ts). */
const BREAKDOWNS = ["browser", "os", "device", "country", "referrer", "rule", "variant", "fallback", "preview"] as const;

/** StatsRows from the answers to statsSetQueries (PostgreSQL answers sums as text: Number reads both). */
export function statsSetRows(a: { daily: Row[]; hourly: Row[]; dimensions: Row[]; utm: Row[]; totals: Row }, recent: StatsRows["recent"]): StatsRows {
  const breakdown: Record<string, NameCount[]> = Object.fromEntries(BREAKDOWNS.map((b) => [b, []]));
  for (const r of a.dimensions) breakdown[r.dimension as string]?.push({ name: r.name as string, count: Number(r.count) });
  return {
    days: a.daily.map((r) => ({ day: r.day as string, count: Number(r.count), bots: Number(r.bots), uniques: Number(r.uniques), imported: Number(r.imported), total: Number(r.total) })),
    hours: a.hourly.map((r) => ({ hour: r.hour as string, count: Number(r.count), uniques: Number(r.uniques) })),
    browser: breakdown.browser!,
    os: breakdown.os!,
    device: breakdown.device!,
    country: breakdown.country!,
    referrer: breakdown.referrer!,
    rule: breakdown.rule!,
    variant: breakdown.variant!,
    fallback: breakdown.fallback!,
    preview: breakdown.preview!,
    previewTotal: Number(a.totals.preview),
    utm: a.utm.map((r) => ({ source: r.source as string, medium: r.medium as string, campaign: r.campaign as string, count: Number(r.count) })),
    utmTotal: Number(a.totals.utm),
    recent,
  };
}
