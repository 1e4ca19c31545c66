// A chunk of an export of visits from PostgreSQL (src/stats/visit-export.ts), read on the pool by
// batch id; one statement, so its batches and their links are one snapshot.

import { EXPORT_BATCHES_PER_CHUNK, writeExportChunk, type VisitExportSource } from "../../stats/visit-export.ts";
import { exportBatchesQuery } from "../shared/visit-export-sql.ts";
import { num, numbered, type Pg } from "./connect.ts";

export function postgresVisitExport(sql: Pg): VisitExportSource {
  return {
    async chunk(q) {
      const limit = q.batches ?? EXPORT_BATCHES_PER_CHUNK;
      const { sql: text, params } = exportBatchesQuery(q, limit);
      const rows = (await sql.unsafe(numbered(text), params)) as { id: unknown; imported: unknown; visits: string; alias: string; domain: string }[];
      return writeExportChunk(rows.map((r) => ({ id: num(r.id), imported: num(r.imported), visits: r.visits, alias: r.alias, domain: r.domain })), q, limit);
    },
  };
}
