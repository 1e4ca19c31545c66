// The SQL both engines run for a page of raw visits (src/stats/visit-pages.ts): the places of a
// scope's batches in page order, newest last_ts first, with each one's counts; the stored visits
// only of the batches that straddle the time range (the others are counted from their columns).

import type { VisitPageQuery } from "../../stats/visit-pages.ts";
import { ownerCondition, type SqlCondition } from "./page-query.ts";
import type { OwnerFilter } from "../../links/list.ts";

/**
 * The scope as a condition on a batch `b` (`?` parameters); an export's too (visit-export-sql.ts),
 * which names the column `+b.link_seq` so that no index on it is used (its chunks walk the ids).
 */
export function scopeCondition(scope: VisitPageQuery["scope"], linkSeq = "b.link_seq"): SqlCondition {
  if ("linkSeq" in scope) return { sql: `${linkSeq} = ?`, params: [scope.linkSeq] };
  const owner = ownerCondition(scope.owner, "l");
  const where: string[] = owner ? [owner.sql] : [];
  const params: (string | number)[] = owner ? [...owner.params] : [];
  if (scope.domain !== null) {
    where.push("l.domain = ?");
    params.push(scope.domain);
  }
  if (scope.tag !== null) {
    where.push("l.seq IN (SELECT t.link_seq FROM link_tags AS t WHERE t.tag = ?)");
    params.push(scope.tag);
  }
  // Every link: no join at all (a batch's link exists: a delete takes its batches).
  if (where.length === 0) return { sql: "1 = 1", params: [] };
  return { sql: `${linkSeq} IN (SELECT l.seq FROM links AS l WHERE ${where.join(" AND ")})`, params };
}

/**
 * The places of the scope's batches that can hold a visit of the range, in page order, newest
 * last_ts first: read in ONE pass, streamed (a SQLite iterator, a PostgreSQL cursor), a chunk at a
 * time. Reading it in LIMITed chunks re-ran the scan and its sort once a chunk, and a scope wider
 * than one link (no index gives its order) cost batches²/chunk: 5 s a page at 80k batches.
 * Columns: id, link_seq, first_ts, last_ts, humans, and visits (only for a batch straddling the
 * range, else NULL: its size comes from batchSizes, read once per batch).
 */
export function placesQuery(q: VisitPageQuery): { sql: string; params: (string | number)[] } {
  const scope = scopeCondition(q.scope);
  const params: (string | number)[] = [q.fromTs, q.toTs, q.fromTs, q.toTs, q.excludeBots ? 1 : 0, ...scope.params];
  const sql = `SELECT b.id, b.link_seq, b.first_ts, b.last_ts, b.humans,
      CASE WHEN b.first_ts >= ? AND b.last_ts < ? THEN NULL ELSE b.visits END AS visits
    FROM visit_batches AS b
    WHERE b.last_ts >= ? AND b.first_ts < ? AND b.humans >= ? AND ${scope.sql}
    ORDER BY b.last_ts DESC, b.id DESC`;
  return { sql, params };
}

/** The clicks of an owner's links, from the links' stored totals (imported counts included). */
export function totalsQuery(owner: OwnerFilter): { sql: string; params: number[] } {
  const mine = ownerCondition(owner);
  const sql = "SELECT COALESCE(SUM(total_clicks), 0) AS total, COALESCE(SUM(human_clicks), 0) AS humans FROM links";
  return mine ? { sql: `${sql} WHERE ${mine.sql}`, params: mine.params as number[] } : { sql, params: [] };
}

/** How many places the scan hands the planner at a time (bounded memory: one chunk at a time). */
export const PLACES_CHUNK = 2_000;
