// An export of raw visits, streamed (docs/statistics.md: Exporting visits): a chunk of stored batches
// at a time, in one stable total order, the batch's id then the visit's place in it, so that a broken
// download goes on after the last row it received (`after`) with no gap and no duplicate. The
// engines read the chunks off the click thread (SQLite: the reader thread, which also writes them;
// PostgreSQL: the pool), and the stream asks for the next only when its reader wants more.

import type { StoredVisit } from "../visits/visit-batch.ts";
import { STORED_IS_BOT as IS_BOT, STORED_TS as TS } from "../visits/visit-batch.ts";
import type { VisitScope } from "./visit-pages.ts";
import { exportedVisit, exportHeader, exportLine, type VisitExportFormat } from "./visit-export-format.ts";
import type { OrphanType } from "../visits/orphans.ts";

/**
 * What is exported: the visits of links (one, a tag's, a domain's, or every link an owner sees), or
 * visits to no link (docs/statistics.md: Visits to no link), all or of one type. A member per kind
 * of visit: each engine reads the kind's own batches (src/stats/orphan-export.ts writes orphans').
 */
export type ExportScope = { links: VisitScope } | { orphans: { type: OrphanType | null } };

/** Where the export stands: after this visit (batch id, place in the batch); the start is {0, -1}. */
export type VisitCursor = { batch: number; position: number };
export const EXPORT_START: VisitCursor = { batch: 0, position: -1 };

/** Batches one chunk reads: at most 10,000 visits (200 a batch), a few MB of text. */
export const EXPORT_BATCHES_PER_CHUNK = 50;

/**
 * Batch ids a chunk of links' visits looks at, at most: a chunk walks the ids from the cursor, and a
 * small link among many batches would otherwise make one chunk walk every id to the end (one long
 * read on SQLite's reader thread). A window that held none of the scope's batches moves the
 * cursor past it (`pastWindow`).
 */
export const EXPORT_ID_WINDOW = 10_000;

/**
 * The next chunk: `domainNames` by stored domain key ("" the default); `header`: start with CSV's
 * header record; `batches` and `idWindow` (tests) change the chunk's size and its window of ids.
 */
export type ExportChunkQuery = {
  scope: ExportScope; fromTs: number; toTs: number; excludeBots: boolean; after: VisitCursor;
  format: VisitExportFormat; domainNames: Readonly<Record<string, string>>; header: boolean; batches?: number; idWindow?: number;
};

/** A chunk written: its text (UTF-8), its rows, where the next starts, and whether it was the last. */
export type ExportChunk = { bytes: Uint8Array<ArrayBuffer>; rows: number; next: VisitCursor; done: boolean };

/** A batch as the engines read it for an export, with its link's alias and stored domain. */
export type ExportedBatch = { id: number; imported: number; visits: string; alias: string; domain: string };

/** The port both engines fill: the next chunk of the scope, in order. */
export type VisitExportSource = { chunk(query: ExportChunkQuery): Promise<ExportChunk> };

const UTF8 = new TextEncoder();

/** A visitId as a cursor ("<batch>-<position>"), or null when it is not one. */
export function parseCursor(text: string): VisitCursor | null {
  const m = /^(\d{1,15})-(\d{1,6})$/.exec(text);
  return m ? { batch: Number(m[1]), position: Number(m[2]) } : null;
}

/** Whether a visit is in the query's range and filter. */
function wanted(v: StoredVisit, q: Pick<ExportChunkQuery, "fromTs" | "toTs" | "excludeBots">): boolean {
  return v[TS] >= q.fromTs && v[TS] < q.toTs && !(q.excludeBots && v[IS_BOT] === 1);
}

/**
 * Writes a chunk from its batches (read in id order, id ≥ the cursor's batch, at most `limit`): each
 * batch's visits in their stored order, those at or before the cursor left out.
 */
export function writeExportChunk(batches: readonly ExportedBatch[], q: ExportChunkQuery, limit: number): ExportChunk {
  return writeChunk(batches, q, limit, exportHeader(q.format), (b) => {
    const place = { batch: b.id, position: 0, link: b.alias, domain: q.domainNames[b.domain] ?? b.domain, imported: b.imported === 1 };
    return (v: StoredVisit, position) => {
      if (!wanted(v, q)) return null;
      place.position = position;
      return exportLine(exportedVisit(v, place), q.format);
    };
  });
}

/**
 * The cursor's walk any kind of batch shares (a JSON array of visits each): `lineOf` gives a batch's
 * writer of a visit at its place, null for one the query leaves out.
 */
export function writeChunk<B extends { id: number; visits: string }, V>(batches: readonly B[], q: ExportChunkQuery, limit: number, header: string, lineOf: (b: B) => (v: V, position: number) => string | null): ExportChunk {
  let text = q.header ? header : "";
  let rows = 0;
  let next = q.after;
  for (const b of batches) {
    const visits = JSON.parse(b.visits) as V[];
    const from = b.id === q.after.batch ? q.after.position + 1 : 0;
    const line = lineOf(b);
    for (let i = from; i < visits.length; i++) {
      const written = line(visits[i]!, i);
      if (written === null) continue;
      text += written;
      rows++;
    }
    next = { batch: b.id, position: Math.max(visits.length - 1, from - 1) };
  }
  return { bytes: UTF8.encode(text), rows, next, done: batches.length < limit };
}

/**
 * A chunk read within a window of ids (`end`: the first id past it) that came back short: the
 * window is walked, so the export goes on at `end` while batches with higher ids exist (`maxId`:
 * the highest stored, asked only then); a full chunk, or the last window, is answered as it is.
 */
export function pastWindow(chunk: ExportChunk, end: number, maxId: () => number | Promise<number>): ExportChunk | Promise<ExportChunk> {
  if (!chunk.done) return chunk;
  const goOn = (max: number): ExportChunk => (end <= max ? { ...chunk, next: { batch: end, position: -1 }, done: false } : chunk);
  const max = maxId();
  return typeof max === "number" ? goOn(max) : max.then(goOn);
}

/** How an export ended, for the audit line: read to its end, stopped by the reader (a client gone), or failed. */
export type ExportEnd = { rows: number; how: "done" | "cancelled" | "failed" };

/**
 * The export as a pull-based stream: a chunk is read only when the stream's reader asks for more
 * (a slow client holds the read back, none piles up in memory), and a cancel (the client went away)
 * reads nothing more.
 */
export function visitExportStream(source: VisitExportSource, q: Omit<ExportChunkQuery, "header">, ended: (end: ExportEnd) => void): ReadableStream<Uint8Array> {
  let after = q.after;
  let header = q.format === "csv" && q.after.batch === EXPORT_START.batch && q.after.position === EXPORT_START.position;
  let rows = 0;
  let over = false;
  const finish = (how: ExportEnd["how"]) => {
    if (over) return;
    over = true;
    ended({ rows, how });
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Chunks the filter leaves empty are read on until one has text or the end is reached.
        for (;;) {
          let chunk: ExportChunk;
          try {
            chunk = await source.chunk({ ...q, after, header });
          } catch (err) {
            finish("failed");
            throw err;
          }
          if (over) return;
          header = false;
          after = chunk.next;
          rows += chunk.rows;
          if (chunk.bytes.length > 0) controller.enqueue(chunk.bytes);
          if (chunk.done) {
            controller.close();
            finish("done");
            return;
          }
          if (chunk.bytes.length > 0) return;
        }
      },
      cancel() {
        finish("cancelled");
      },
    },
    { highWaterMark: 0 },
  );
}
