// A chunk of an export of visits from PostgreSQL (src/stats/visit-export.ts), read on the pool by
// batch id; one statement, so its batches and their links are one snapshot. A link's visits from
// visit_batches, visits to no link from orphan_batches (src/stats/orphan-export.ts).

import { EXPORT_BATCHES_PER_CHUNK, pastWindow, writeExportChunk, type VisitExportSource } from "../../stats/visit-export.ts";
import { writeOrphanExportChunk } from "../../stats/orphan-export.ts";
import { exportBatchesQuery } from "../shared/visit-export-sql.ts";
import { ORPHAN_EXPORT_SQL, orphanExportParams } from "../shared/orphan-visit-sql.ts";
import { num, numbered, type Pg } from "./connect.ts";

/**
 * Batches a chunk reads here: the pool answers on the click thread, which writes the chunk's text,
 * so a chunk is kept to about 2,000 visits (a few ms of writing) to leave clicks' p99 alone
 * (SQLite's reader thread writes 50 batches at a time on its own thread).
 */
const PG_BATCHES_PER_CHUNK = Math.min(10, EXPORT_BATCHES_PER_CHUNK);

export function postgresVisitExport(sql: Pg): VisitExportSource {
  return {
    async chunk(q) {
      const limit = q.batches ?? PG_BATCHES_PER_CHUNK;
      if ("orphans" in q.scope) {
        const rows = (await sql.unsafe(ORPHAN_EXPORT_SQL, orphanExportParams(q, limit))) as { id: unknown; visits: string }[];
        return writeOrphanExportChunk(rows.map((r) => ({ id: num(r.id), visits: r.visits })), q, limit);
      }
      const { sql: text, params, windowEnd } = exportBatchesQuery({ ...q, scope: q.scope }, limit);
      const rows = (await sql.unsafe(numbered(text), params)) as { id: unknown; imported: unknown; visits: string; alias: string; domain: string }[];
      const chunk = writeExportChunk(rows.map((r) => ({ id: num(r.id), imported: num(r.imported), visits: r.visits, alias: r.alias, domain: r.domain })), q, limit);
      return pastWindow(chunk, windowEnd, async () => num(((await sql.unsafe("SELECT COALESCE(MAX(id), 0) AS max FROM visit_batches")) as { max: unknown }[])[0]!.max));
    },
  };
}
