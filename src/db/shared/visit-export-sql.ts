// The SQL both engines run for a chunk of an export of visits (src/stats/visit-export.ts): the
// scope's batches from the cursor's on, in id order (a walk of the primary key gives it: no sort,
// each chunk starts where the last ended), with their link's alias and stored domain. Batches that cannot hold
// a visit of the range (or only bots, when they are left out) are skipped from their columns.

import { EXPORT_ID_WINDOW, type ExportChunkQuery } from "../../stats/visit-export.ts";
import type { VisitScope } from "../../stats/visit-pages.ts";
import { scopeCondition } from "./visit-page-sql.ts";

/** A chunk of links' visits (visits to no link: orphan-visit-sql.ts). */
export function exportBatchesQuery(q: Omit<ExportChunkQuery, "scope"> & { scope: { links: VisitScope } }, limit: number): { sql: string; params: (string | number)[]; windowEnd: number } {
  // `+b.link_seq`: no index on the link's column is used, on either engine. Through the index by
  // link and time every chunk read all the scope's batches again and sorted them by id, so that an
  // export cost batches² over its chunks; now a chunk walks the primary key from the cursor and
  // stops at its LIMIT, and the whole export walks the ids once. `IS TRUE` keeps PostgreSQL from
  // making the scope's subquery a join, whose rows it would sort again (hashed subplan: a filter
  // on the ordered walk). EXPLAIN on both engines: test/contract/visit-export-plan.test.ts.
  // A window of ids bounds what one chunk walks, whatever the scope's share of the batches (EXPORT_ID_WINDOW).
  const scope = scopeCondition(q.scope.links, "+b.link_seq");
  const windowEnd = q.after.batch + (q.idWindow ?? EXPORT_ID_WINDOW);
  const params: (string | number)[] = [q.after.batch, windowEnd, q.toTs, q.fromTs, q.excludeBots ? 1 : 0, ...scope.params, limit];
  const sql = `SELECT b.id, b.imported, b.visits, l.id AS alias, l.domain
    FROM visit_batches AS b JOIN links AS l ON l.seq = b.link_seq
    WHERE b.id >= ? AND b.id < ? AND b.first_ts < ? AND b.last_ts >= ? AND b.humans >= ? AND (${scope.sql}) IS TRUE
    ORDER BY b.id LIMIT ?`;
  return { sql, params, windowEnd };
}
