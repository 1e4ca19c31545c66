// The click path's side of the visit writer: collects visits in memory and hands them to the
// writer thread (writer-worker.ts) in batches. Same guarantees as the in-thread writer: bounded
// queue with counted drops, everything handed over and written on close.

import type { Visit } from "./visit.ts";
import type { FromWorker, ToWorker } from "./writer-worker.ts";
import type { WriterStats } from "./writer.ts";

export type BackgroundWriter = {
  record(visit: Visit): void;
  stats(): WriterStats;
  /** Hands over what is left, waits until the writer thread has written it and closed its connection. */
  close(): Promise<WriterStats>;
};

export type BackgroundWriterOptions = {
  /** How often collected visits go to the writer thread, which writes them at the same pace. */
  flushIntervalMs?: number;
  /** Visits held while the disk refuses writes (per side); past this, new visits are counted as dropped. */
  maxQueued?: number;
  onError?: (message: string) => void;
};

// Posting one batch per tick costs far less than one message per click; as one JSON string it
// costs a third of what cloning the objects does (measured 0.38 vs 1.1 µs a visit).
const HANDOVER_MS = 20;

export function startBackgroundWriter(dbPath: string, options: BackgroundWriterOptions = {}): BackgroundWriter {
  const flushIntervalMs = options.flushIntervalMs ?? 100;
  const maxQueued = options.maxQueued ?? 200_000;
  // An entry point of the compiled binary (scripts/build.ts) as well as a file beside this one in source runs.
  const worker = new Worker(new URL("./writer-worker.ts", import.meta.url).href);
  let pending: Visit[] = [];
  let dropped = 0;
  let handedOver = 0;
  let received = 0;
  let remote: WriterStats = { queued: 0, written: 0, dropped: 0, lastError: null };
  let onClosed: ((stats: WriterStats) => void) | null = null;

  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const msg = event.data;
    if ("closed" in msg) {
      remote = msg.closed;
      onClosed?.(msg.closed);
      return;
    }
    remote = msg.stats;
    received = msg.received;
    if (msg.error) options.onError?.(msg.error);
  };
  worker.postMessage({ dbPath, flushIntervalMs, maxQueued } satisfies ToWorker);

  const handOver = () => {
    if (pending.length === 0) return;
    worker.postMessage({ visits: JSON.stringify(pending) } satisfies ToWorker);
    handedOver += pending.length;
    pending = [];
  };
  const timer = setInterval(handOver, HANDOVER_MS);

  return {
    record(visit) {
      // The writer thread's own backlog counts too: a disk that refuses writes must not grow memory.
      if (pending.length + handedOver - received + remote.queued >= maxQueued) {
        dropped++;
        return;
      }
      pending.push(visit);
    },
    stats: () => ({
      // Handed over but not yet acknowledged by the writer thread counts as queued too.
      queued: pending.length + handedOver - received + remote.queued,
      written: remote.written,
      dropped: dropped + remote.dropped,
      lastError: remote.lastError,
    }),
    close() {
      clearInterval(timer);
      handOver();
      return new Promise<WriterStats>((resolve) => {
        onClosed = (stats) => {
          worker.terminate();
          resolve({ ...stats, dropped: stats.dropped + dropped });
        };
        worker.postMessage({ close: true } satisfies ToWorker);
      });
    },
  };
}
