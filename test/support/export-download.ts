// Reading an export of visits the way a client does (src/stats/visit-export.ts): the stream to its
// end, or cancelled once `stopAfter` bytes came (a broken download); and its JSON lines as objects.

import { visitExportStream, type ExportChunkQuery } from "../../src/stats/visit-export.ts";
import type { OpenedEngine } from "./engines.ts";

/** The whole export as text, and how it ended (the audit line's word). */
export async function download(db: OpenedEngine, q: Omit<ExportChunkQuery, "header">, stopAfter = Infinity): Promise<{ text: string; how: string }> {
  let how = "";
  const reader = visitExportStream(db.storage.visitExport, q, (end) => (how = end.how)).getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.length;
    if (size >= stopAfter) {
      await reader.cancel();
      break;
    }
  }
  return { text: Buffer.concat(parts).toString("utf8"), how };
}

/** JSON lines as objects, blank lines left out. */
export const lines = (text: string) => text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
