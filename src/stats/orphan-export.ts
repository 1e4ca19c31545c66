// An export of visits to no link (docs/statistics.md: Visits to no link): the same stream, order,
// cursor and writing as a link's visits (visit-export.ts), over the raw orphan batches in id order,
// each visit at its place in its batch, with the orphans' own columns (visit-export-format.ts).

import type { StoredOrphan } from "../visits/orphans.ts";
import { exportedOrphan, exportHeader, orphanExportLine } from "./visit-export-format.ts";
import { writeChunk, type ExportChunk, type ExportChunkQuery } from "./visit-export.ts";

/** A raw orphan batch as the engines read it for an export. */
export type ExportedOrphanBatch = { id: number; visits: string };

const TS = 0;
const TYPE = 1;
const IS_BOT = 8;

/** Writes a chunk of orphan visits from its batches (id order, id ≥ the cursor's batch, at most `limit`). */
export function writeOrphanExportChunk(batches: readonly ExportedOrphanBatch[], q: ExportChunkQuery, limit: number): ExportChunk {
  const type = "orphans" in q.scope ? q.scope.orphans.type : null;
  return writeChunk(batches, q, limit, exportHeader(q.format, "orphans"), (b) => (v: StoredOrphan, position) => {
    if (v[TS] < q.fromTs || v[TS] >= q.toTs || (q.excludeBots && v[IS_BOT] === 1) || (type !== null && v[TYPE] !== type)) return null;
    return orphanExportLine(exportedOrphan(v, { batch: b.id, position }), q.format);
  });
}
