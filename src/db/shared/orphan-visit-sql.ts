// The reads of visits to no link both engines run (src/stats/orphan-visits.ts); SQLite's adapter
// numbers the parameters its own way.

import type { ExportChunkQuery } from "../../stats/visit-export.ts";

/** A range of days' counts ($1, $2: the first and last day, inclusive). */
export const ORPHAN_DAILY_SQL = `SELECT day, type, path, is_bot, visits FROM orphan_daily WHERE day >= $1 AND day <= $2`;

/**
 * The raw rows that meet [$1, $2) (ms), of every type ($3 '') or of type $3, in the page's order
 * (src/stats/orphan-visits.ts: newest last visit first, then the newer row): a row wholly inside
 * comes without its visits (its stored counts count it, a row being of one type), one that
 * straddles with them (a parse counts it).
 */
export const ORPHAN_PLACES_SQL = `
  SELECT id, first_ts, last_ts, n, humans, CASE WHEN first_ts >= $1 AND last_ts < $2 THEN NULL ELSE visits END AS visits
  FROM orphan_batches WHERE last_ts >= $1 AND first_ts < $2 AND ($3 = '' OR type = $3) ORDER BY last_ts DESC, id DESC`;

/**
 * A chunk of an export of them (src/stats/orphan-export.ts): the raw rows from the cursor's on, in id
 * order (the primary key's: each chunk starts where the last ended), skipping from their columns
 * the rows that cannot hold a visit of the range, only bots when they are left out, or another type.
 * $1 the cursor's row, $2 toTs, $3 fromTs, $4 1 when bots are left out, $5 the limit, $6 the type or ''.
 */
export const ORPHAN_EXPORT_SQL = `SELECT id, visits FROM orphan_batches
  WHERE id >= $1 AND first_ts < $2 AND last_ts >= $3 AND humans >= $4 AND ($6 = '' OR type = $6) ORDER BY id LIMIT $5`;

export function orphanExportParams(q: ExportChunkQuery, limit: number): (number | string)[] {
  const type = "orphans" in q.scope ? q.scope.orphans.type : null;
  return [q.after.batch, q.toTs, q.fromTs, q.excludeBots ? 1 : 0, limit, type ?? ""];
}
