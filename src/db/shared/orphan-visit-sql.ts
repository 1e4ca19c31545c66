// The reads of visits to no link both engines run (src/stats/orphan-visits.ts); SQLite's adapter
// numbers the parameters its own way.

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
