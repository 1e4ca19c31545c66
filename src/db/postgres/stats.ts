// A link's statistics rows from PostgreSQL's rollups (the StatsSource of src/stats/link-stats.ts),
// and a set's (stats-set.ts: a tag's, a domain's).
// The reads share one snapshot (a read-only repeatable-read transaction), so that a batch of
// visits committed meanwhile is in every figure or in none.

import { statsSetRows } from "../shared/stats-set-sql.ts";
import { MAX_BREAKDOWN_ENTRIES, RECENT_VISITS, type StatsPlan, type StatsRows, type StatsSource } from "../../stats/link-stats.ts";
// Recent visits: batches read newest first, RECENT_BATCHES_PAGE at a time, until no older one can matter.
import { newestVisits, RECENT_BATCHES_PAGE } from "../../stats/recent.ts";
import { hourOf } from "../../visits/rollup.ts";
import type { StoredVisit } from "../../visits/visit-batch.ts";
import type { TransactionSQL } from "bun";
import { num, type Pg } from "./connect.ts";
import { OTHER } from "../../visits/other.ts";
import { postgresStatsOfSet } from "./stats-set.ts";

export function postgresStats(sql: Pg): StatsSource {
  const one = postgresLinkStats(sql);
  // One link keeps its own statements (by its key, no set to walk); a set is grouped in SQL (stats-set.ts).
  return (linkSeqs, plan) =>
    linkSeqs.length === 1 ? one(linkSeqs[0]!, plan) : sql.begin("isolation level repeatable read read only", (tx) => postgresStatsOfSet(tx, linkSeqs, plan));
}

function postgresLinkStats(sql: Pg): (linkSeq: number, plan: StatsPlan) => Promise<StatsRows> {
  return async (linkSeq, plan) => {
    const { minus, from, to } = plan;
    // The daily rows from the previous period's first day: both periods in one read (link-stats.ts StatsPlan).
    const [days, hours, dimensions, utm, utmTotal, previewTotal, recent] = await sql.begin("isolation level repeatable read read only", (sql) => Promise.all([
      sql`SELECT day, total - bots * ${minus} AS count, bots, uniques - unique_bots * ${minus} AS uniques, imported, total FROM daily_rollup
          WHERE link_seq = ${linkSeq} AND day BETWEEN ${plan.previous.from} AND ${to} ORDER BY day`,
      plan.hours === null
        ? []
        : sql`SELECT hour, total - bots * ${minus} AS count, uniques - unique_bots * ${minus} AS uniques FROM hourly_rollup
              WHERE link_seq = ${linkSeq} AND hour BETWEEN ${hourOf(plan.hours.start)} AND ${hourOf(plan.hours.end)}`,
      // Every dimension in one query: each one's largest values, ties by name (byte order, as SQLite).
      // Previews are agents' fetches, all bots: the bot filter, which is about clicks, leaves them (link-stats.ts StatsRows).
      sql`SELECT dimension, name, count FROM (
            SELECT dimension, name, SUM(total - bots * m) AS count,
                   row_number() OVER (PARTITION BY dimension ORDER BY SUM(total - bots * m) DESC, name) AS rank
            FROM (SELECT *, CASE WHEN dimension = 'preview' THEN 0 ELSE ${minus}::int END AS m FROM dimension_rollup
                  WHERE link_seq = ${linkSeq} AND day BETWEEN ${from} AND ${to} AND name <> ${OTHER}) AS d
            GROUP BY dimension, name HAVING SUM(total - bots * m) > 0) AS ranked
          WHERE rank <= ${MAX_BREAKDOWN_ENTRIES} ORDER BY dimension, rank`,
      sql`SELECT source, medium, campaign, SUM(total - bots * ${minus}) AS count FROM utm_rollup
          WHERE link_seq = ${linkSeq} AND day BETWEEN ${from} AND ${to} AND source <> ${OTHER}
          GROUP BY source, medium, campaign HAVING SUM(total - bots * ${minus}) > 0
          ORDER BY count DESC, source, medium, campaign LIMIT ${MAX_BREAKDOWN_ENTRIES}`,
      sql`SELECT COALESCE(SUM(total - bots * ${minus}), 0) AS n FROM utm_rollup WHERE link_seq = ${linkSeq} AND day BETWEEN ${from} AND ${to}`,
      sql`SELECT COALESCE(SUM(total), 0) AS n FROM dimension_rollup WHERE link_seq = ${linkSeq} AND dimension = 'preview' AND day BETWEEN ${from} AND ${to}`,
      recentVisits(sql, linkSeq, plan.recent.fromTs, plan.recent.toTs, plan.excludeBots),
    ]));
    // Mapped as a set's rows are (one rule for both reads: stats-set-sql.ts).
    return statsSetRows({ daily: days, hourly: hours, dimensions, utm, totals: { utm: utmTotal[0].n, preview: previewTotal[0].n } }, recent);
  };
}

async function recentVisits(sql: TransactionSQL, linkSeq: number, fromTs: number, toTs: number, excludeBots: boolean): Promise<StoredVisit[]> {
  const newest = newestVisits(fromTs, toTs, excludeBots, RECENT_VISITS);
  let before: { lastTs: number; id: number } | null = null;
  for (;;) {
    const batches: { id: string; last_ts: string; visits: string }[] = await sql`
      SELECT id, last_ts, visits FROM visit_batches
      WHERE link_seq = ${linkSeq} AND last_ts >= ${fromTs} AND first_ts < ${toTs} AND humans >= ${excludeBots ? 1 : 0}
        AND (${before === null} OR (last_ts, id) < (${before?.lastTs ?? 0}, ${before?.id ?? 0}))
      ORDER BY last_ts DESC, id DESC LIMIT ${RECENT_BATCHES_PAGE}`;
    for (const b of batches) if (!newest.add(num(b.last_ts), b.visits)) return newest.found();
    if (batches.length < RECENT_BATCHES_PAGE) return newest.found();
    const last = batches[batches.length - 1]!;
    before = { lastTs: num(last.last_ts), id: num(last.id) };
  }
}
