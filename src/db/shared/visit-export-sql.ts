// The SQL both engines run for a chunk of an export of visits (src/stats/visit-export.ts): the
// scope's batches from the cursor's on, in id order (the primary key gives it: no sort, each chunk
// starts where the last ended), with their link's alias and stored domain. Batches that cannot hold
// a visit of the range (or only bots, when they are left out) are skipped from their columns.

import type { ExportChunkQuery } from "../../stats/visit-export.ts";
import type { VisitScope } from "../../stats/visit-pages.ts";
import { scopeCondition } from "./visit-page-sql.ts";

/** A chunk of links' visits (visits to no link: orphan-visit-sql.ts). */
export function exportBatchesQuery(q: Omit<ExportChunkQuery, "scope"> & { scope: { links: VisitScope } }, limit: number): { sql: string; params: (string | number)[] } {
  const scope = scopeCondition(q.scope.links);
  const params: (string | number)[] = [q.after.batch, q.toTs, q.fromTs, q.excludeBots ? 1 : 0, ...scope.params, limit];
  const sql = `SELECT b.id, b.imported, b.visits, l.id AS alias, l.domain
    FROM visit_batches AS b JOIN links AS l ON l.seq = b.link_seq
    WHERE b.id >= ? AND b.first_ts < ? AND b.last_ts >= ? AND b.humans >= ? AND ${scope.sql}
    ORDER BY b.id LIMIT ?`;
  return { sql, params };
}
