// A chunk of an export of visits from SQLite (src/stats/visit-export.ts), read and written on the
// reader thread (src/threads/reader/entry.ts): the click thread only sends the bytes. A link's
// visits from visit_batches, visits to no link from orphan_batches (src/stats/orphan-export.ts).

import type { Database } from "bun:sqlite";
import { EXPORT_BATCHES_PER_CHUNK, pastWindow, writeExportChunk, type ExportChunk, type ExportChunkQuery, type ExportedBatch } from "../../stats/visit-export.ts";
import { writeOrphanExportChunk, type ExportedOrphanBatch } from "../../stats/orphan-export.ts";
import { exportBatchesQuery } from "../shared/visit-export-sql.ts";
import { ORPHAN_EXPORT_SQL, orphanExportParams } from "../shared/orphan-visit-sql.ts";

export function sqliteVisitExport(db: Database): (q: ExportChunkQuery) => ExportChunk {
  const maxId = db.query<{ max: number }, []>("SELECT COALESCE(MAX(id), 0) AS max FROM visit_batches");
  const orphanRows = db.query<ExportedOrphanBatch, (number | string)[]>(ORPHAN_EXPORT_SQL.replace(/\$(\d)/g, "?$1"));
  return (q) => {
    const limit = q.batches ?? EXPORT_BATCHES_PER_CHUNK;
    if ("orphans" in q.scope) return writeOrphanExportChunk(orphanRows.all(...orphanExportParams(q, limit)), q, limit);
    const { sql, params, windowEnd } = exportBatchesQuery({ ...q, scope: q.scope }, limit);
    const chunk = writeExportChunk(db.query<ExportedBatch, (string | number)[]>(sql).all(...params), q, limit);
    return pastWindow(chunk, windowEnd, () => maxId.get()!.max) as ExportChunk;
  };
}
