// The visit writer's own thread: its own SQLite connection and the batching writer, so that the
// INSERTs and rollup upserts (≈ 6 µs a visit) never run on the thread that answers clicks.
// Messages in: {visits: Visit[]} and {close: true}. Messages out: {stats} after each flush, {closed}.

import { openDatabase } from "../db/open.ts";
import { createVisitWriter, type WriterStats } from "./writer.ts";
import type { Visit } from "./visit.ts";

/** `visits`: a JSON array of Visit. */
export type ToWorker = { dbPath: string; flushIntervalMs: number; maxQueued: number } | { visits: string } | { close: true };
/** `received`: visits taken from the click thread so far, so that it can tell what is still in transit. */
export type FromWorker = { stats: WriterStats; received: number; error?: string } | { closed: WriterStats };

declare const self: Worker;

let writer: ReturnType<typeof createVisitWriter> | null = null;
let db: ReturnType<typeof openDatabase> | null = null;
let reported = "";
let received = 0;

const report = (error?: string) => {
  const stats = writer!.stats();
  const key = `${stats.written}/${stats.dropped}/${stats.queued}/${stats.lastError}`;
  if (key === reported && !error) return;
  reported = key;
  self.postMessage({ stats, received, error } satisfies FromWorker);
};

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if ("dbPath" in msg) {
    db = openDatabase(msg.dbPath);
    writer = createVisitWriter(db, {
      flushIntervalMs: msg.flushIntervalMs,
      maxQueued: msg.maxQueued,
      onError: (err) => report(err instanceof Error ? err.message : String(err)),
    });
    setInterval(() => report(), msg.flushIntervalMs);
  } else if ("visits" in msg) {
    const visits = JSON.parse(msg.visits) as Visit[];
    for (const visit of visits) writer!.record(visit);
    received += visits.length;
  } else {
    writer!.close();
    const stats = writer!.stats();
    db!.close();
    self.postMessage({ closed: stats } satisfies FromWorker);
  }
};
