// The statistics rows of a set of links from SQLite's rollups (docs/statistics.md: Tags and domains):
// the shared set queries (src/db/shared/stats-set-sql.ts), grouped over the set in SQL, read by the
// caller's one read transaction (stats.ts), on the reader thread.

import type { Database } from "bun:sqlite";
import { RECENT_VISITS, type StatsPlan, type StatsRows } from "../../stats/link-stats.ts";
import { newestVisitsOfSet, RECENT_BATCHES_PAGE } from "../../stats/recent.ts";
import type { StoredVisit } from "../../visits/visit-batch.ts";
import { batchPlacesQuery, batchVisitsQuery, SQLITE_SET, statsSetQueries, statsSetRows, type SetQuery } from "../shared/stats-set-sql.ts";

type Row = Record<string, unknown>;

export function sqliteStatsOfSet(db: Database): (linkSeqs: readonly number[], plan: StatsPlan) => StatsRows {
  // db.query caches the statement by its text: each query is prepared once.
  const all = (q: SetQuery) => db.query<Row, (string | number)[]>(q.sql).all(...q.params);
  const recent = (seqs: readonly number[], plan: StatsPlan): StoredVisit[] =>
    newestVisitsOfSet(
      (before) => all(batchPlacesQuery(SQLITE_SET, seqs, plan, before, RECENT_BATCHES_PAGE)).map((r) => ({ id: r.id as number, lastTs: r.last_ts as number })),
      (ids) => new Map(all(batchVisitsQuery(SQLITE_SET, ids)).map((r) => [r.id as number, r.visits as string])),
      { fromTs: plan.recent.fromTs, toTs: plan.recent.toTs, excludeBots: plan.excludeBots, limit: RECENT_VISITS },
    ) as StoredVisit[];
  return (seqs, plan) => {
    const q = statsSetQueries(SQLITE_SET, seqs, plan);
    return statsSetRows(
      { daily: all(q.daily), hourly: q.hourly === null ? [] : all(q.hourly), dimensions: all(q.dimensions), utm: all(q.utm), totals: all(q.totals)[0]! },
      recent(seqs, plan),
    );
  };
}
