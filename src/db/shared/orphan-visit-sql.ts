// The reads of visits to no link both engines run (src/stats/orphan-visits.ts); SQLite's adapter
// numbers the parameters its own way.

import type { ExportChunkQuery } from "../../stats/visit-export.ts";

/** A range of days' counts ($1, $2: the first and last day, inclusive). */
export const ORPHAN_DAILY_SQL = `SELECT day, type, path, is_bot, visits FROM orphan_daily WHERE day >= $1 AND day <= $2`;

/**
 * The raw rows that meet [$1, $2) (ms), newest first: a row wholly inside comes without its visits
 * (its stored counts count it), one that straddles with them (a parse counts it); every row with
 * them when $3 is 1 (a page of one type: the stored counts are of every type).
 */
export const ORPHAN_PLACES_SQL = `
  SELECT id, first_ts, last_ts, n, humans, CASE WHEN $3 = 0 AND first_ts >= $1 AND last_ts < $2 THEN NULL ELSE visits END AS visits
  FROM orphan_batches WHERE last_ts >= $1 AND first_ts < $2 ORDER BY last_ts DESC, id DESC`;

/**
 * A chunk of an export of them (src/stats/orphan-export.ts): the raw rows from the cursor's on, in id
 * order (the primary key's: each chunk starts where the last ended), skipping from their columns
 * the rows that cannot hold a visit of the range, or only bots when they are left out.
 * $1 the cursor's row, $2 toTs, $3 fromTs, $4 1 when bots are left out, $5 the limit.
 */
export const ORPHAN_EXPORT_SQL = `SELECT id, visits FROM orphan_batches
  WHERE id >= $1 AND first_ts < $2 AND last_ts >= $3 AND humans >= $4 ORDER BY id LIMIT $5`;

export function orphanExportParams(q: ExportChunkQuery, limit: number): number[] {
  return [q.after.batch, q.toTs, q.fromTs, q.excludeBots ? 1 : 0, limit];
}
