// PostgreSQL's side of visits to no link (src/visits/orphans.ts, src/stats/orphan-visits.ts): the
// writes inside a batch's transaction, the reads on the pool, the delete's slices.

import type { TransactionSQL } from "bun";
import type { OrphanDailyRow, OrphanWrites } from "../../visits/orphans.ts";
import { orphanPage, orphanSummary, removeOrphans, type OrphanDeleteSlices, type OrphanDailyRead, type OrphanPlaceRow, type OrphanVisitSource } from "../../stats/orphan-visits.ts";
import { ORPHAN_DAILY_SQL, ORPHAN_PLACES_SQL } from "../shared/orphan-visit-sql.ts";
import { num, type Pg } from "./connect.ts";

/**
 * Held from reading a day's stored paths to the batch's commit: two instances would otherwise each
 * see room for new paths and together pass the day's limit (src/visits/orphans.ts). Taken before
 * the batch locks links' rows (the orphan step runs first in batch-recipe.ts, and nothing else
 * takes it while holding them), so the lock order is the same everywhere. Any constant: "shon".
 */
export const ORPHAN_PATHS_LOCK = 0x73686f6e;

/** (day, type, path, is_bot), the key's order: the upserts of any two batches lock rows in one order. */
export function orphanDailyKeyOrder(a: OrphanDailyRow, b: OrphanDailyRow): number {
  const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return text(a.day, b.day) || text(a.type, b.type) || text(a.path, b.path) || Number(a.isBot) - Number(b.isBot);
}

export function postgresOrphanWrites(tx: TransactionSQL, sql: Pg): OrphanWrites {
  return {
    async orphanPaths(days) {
      await tx`SELECT pg_advisory_xact_lock(${ORPHAN_PATHS_LOCK})`;
      const rows: { day: string; path: string }[] = await tx`SELECT DISTINCT day, path FROM orphan_daily WHERE day = ANY(${sql.array(days, "TEXT")}::text[])`;
      const out = new Map<string, Set<string>>();
      for (const r of rows) (out.get(r.day) ?? out.set(r.day, new Set()).get(r.day)!).add(r.path);
      return out;
    },
    async addOrphans(rows, daily) {
      if (rows.length > 0) {
        // unnest keeps the arrays' order: rows are numbered in the order given (orphanBatchRows).
        await tx`INSERT INTO orphan_batches (type, first_ts, last_ts, n, humans, visits)
          SELECT * FROM unnest(${sql.array(rows.map((r) => r.type), "TEXT")}::text[], ${sql.array(rows.map((r) => r.firstTs), "INT8")}::int8[], ${sql.array(rows.map((r) => r.lastTs), "INT8")}::int8[],
            ${sql.array(rows.map((r) => r.n), "INT4")}::int4[], ${sql.array(rows.map((r) => r.humans), "INT4")}::int4[], ${sql.array(rows.map((r) => r.visits), "TEXT")}::text[])`;
      }
      // In one total order of the key: two transactions adding to the same rows (a batch, the
      // delete's slices) lock them in the same order, and wait for each other rather than deadlock.
      const sorted = [...daily].sort(orphanDailyKeyOrder);
      if (sorted.length === 0) return;
      await tx`INSERT INTO orphan_daily (day, type, path, is_bot, visits)
        SELECT * FROM unnest(${sql.array(sorted.map((d) => d.day), "TEXT")}::text[], ${sql.array(sorted.map((d) => d.type), "TEXT")}::text[],
          ${sql.array(sorted.map((d) => d.path), "TEXT")}::text[], ${sql.array(sorted.map((d) => (d.isBot ? 1 : 0)), "INT4")}::int4[], ${sql.array(sorted.map((d) => d.visits), "INT8")}::int8[])
        ON CONFLICT (day, type, path, is_bot) DO UPDATE SET visits = orphan_daily.visits + excluded.visits`;
    },
  };
}

export function postgresOrphanVisits(sql: Pg): OrphanVisitSource {
  return {
    async summary(range) {
      const rows = (await sql.unsafe(ORPHAN_DAILY_SQL, [range.fromDay, range.toDay])) as OrphanDailyRead[];
      return orphanSummary(range, rows);
    },
    page: (q) =>
      sql.begin("isolation level repeatable read read only", async (tx) => {
        const places = (await tx.unsafe(ORPHAN_PLACES_SQL, [q.fromTs, q.toTs, q.type ?? ""])) as OrphanPlaceRow[];
        return orphanPage(q, places, (ids) => tx`SELECT id, visits FROM orphan_batches WHERE id = ANY(${sql.array(ids, "INT8")}::int8[])` as Promise<{ id: string; visits: string }[]>);
      }),
    remove: (sizes) => removeOrphans(postgresOrphanDeleteSlices(sql), sizes),
  };
}

/** The delete's slices (removeOrphans), each its own transaction. */
function postgresOrphanDeleteSlices(sql: Pg): OrphanDeleteSlices {
  return {
    async lastRow() {
      const [row] = await sql`SELECT COALESCE(MAX(id), 0) AS id FROM orphan_batches`;
      return num((row as { id: unknown }).id);
    },
    async deleteRows(upTo, limit) {
      const [row] = await sql`WITH gone AS (DELETE FROM orphan_batches WHERE id IN (SELECT id FROM orphan_batches WHERE id <= ${upTo} ORDER BY id LIMIT ${limit}) RETURNING n)
        SELECT COUNT(*) AS rows, COALESCE(SUM(n), 0) AS visits FROM gone`;
      const r = row as { rows: unknown; visits: unknown };
      return { rows: num(r.rows), visits: num(r.visits) };
    },
    // Under the batches' lock (ORPHAN_PATHS_LOCK): a batch reads the day's paths and adds to them
    // with no slice in between, and the two never lock daily rows in crossed orders.
    deleteDaily: (limit) =>
      sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${ORPHAN_PATHS_LOCK})`;
        const [row] = await tx`WITH gone AS (DELETE FROM orphan_daily WHERE (day, type, path, is_bot) IN (SELECT day, type, path, is_bot FROM orphan_daily LIMIT ${limit}) RETURNING 1)
          SELECT COUNT(*) AS n FROM gone`;
        return num((row as { n: unknown }).n);
      }),
  };
}
