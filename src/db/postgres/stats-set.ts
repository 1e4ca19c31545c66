// The statistics rows of a set of links from PostgreSQL's rollups (docs/statistics.md: Tags and
// domains): the shared set queries (src/db/shared/stats-set-sql.ts), grouped over the set in SQL,
// in the caller's one read-only snapshot (stats.ts).

import type { TransactionSQL } from "bun";
import { RECENT_VISITS, type StatsPlan, type StatsRows } from "../../stats/link-stats.ts";
import { newestVisitsOfSet, RECENT_BATCHES_PAGE } from "../../stats/recent.ts";
import type { StoredVisit } from "../../visits/visit-batch.ts";
import { batchPlacesQuery, batchVisitsQuery, POSTGRES_SET, statsSetQueries, statsSetRows, type SetQuery } from "../shared/stats-set-sql.ts";
import { num, numbered } from "./connect.ts";

type Row = Record<string, unknown>;

export async function postgresStatsOfSet(tx: TransactionSQL, seqs: readonly number[], plan: StatsPlan): Promise<StatsRows> {
  const all = async (q: SetQuery) => (await tx.unsafe(numbered(q.sql), q.params)) as Row[];
  const q = statsSetQueries(POSTGRES_SET, seqs, plan);
  const [daily, hourly, dimensions, utm, totals, recent] = await Promise.all([
    all(q.daily),
    q.hourly === null ? [] : all(q.hourly),
    all(q.dimensions),
    all(q.utm),
    all(q.totals),
    newestVisitsOfSet(
      async (before) => (await all(batchPlacesQuery(POSTGRES_SET, seqs, plan, before, RECENT_BATCHES_PAGE))).map((r) => ({ id: num(r.id), lastTs: num(r.last_ts) })),
      async (ids) => new Map((await all(batchVisitsQuery(POSTGRES_SET, ids))).map((r) => [num(r.id), r.visits as string])),
      { fromTs: plan.recent.fromTs, toTs: plan.recent.toTs, excludeBots: plan.excludeBots, limit: RECENT_VISITS },
    ) as Promise<StoredVisit[]>,
  ]);
  return statsSetRows({ daily, hourly, dimensions, utm, totals: totals[0]! }, recent);
}
