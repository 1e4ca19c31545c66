// A chunk of an export of visits from SQLite (src/stats/visit-export.ts), read and written on the
// reader thread (src/threads/reader/entry.ts): the click thread only sends the bytes.

import type { Database } from "bun:sqlite";
import { EXPORT_BATCHES_PER_CHUNK, writeExportChunk, type ExportChunk, type ExportChunkQuery, type ExportedBatch } from "../../stats/visit-export.ts";
import { exportBatchesQuery } from "../shared/visit-export-sql.ts";

export function sqliteVisitExport(db: Database): (q: ExportChunkQuery) => ExportChunk {
  return (q) => {
    const limit = q.batches ?? EXPORT_BATCHES_PER_CHUNK;
    const { sql, params } = exportBatchesQuery(q, limit);
    return writeExportChunk(db.query<ExportedBatch, (string | number)[]>(sql).all(...params), q, limit);
  };
}
