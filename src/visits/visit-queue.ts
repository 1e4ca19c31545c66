// The background writer's queue: clicks wait in memory and are written a batch at a time (on a
// timer, or at once when a batch is full), one transaction per batch, so a redirect never waits for
// the database. A batch the database refuses stays queued and is written again later; while the
// queue is full, new visits are counted as dropped. How a batch is written is the engine's
// (BatchStore): SQLite's at once, PostgreSQL's through a promise.

import type { Visit } from "./visit.ts";
import { newHistogram, observe, type HistogramCounts } from "../metrics/histogram.ts";
import type { MaybePromise } from "../util/maybe.ts";

export type QueueOptions = {
  /** How often queued visits are written; also the most a crash can lose. */
  flushIntervalMs?: number;
  /** A batch this large is written at once instead of waiting for the timer. */
  batchSize?: number;
  /** Visits kept while the database refuses writes; past this, new visits are counted as dropped. */
  maxQueued?: number;
  onError?: (err: unknown) => void;
  /** After each batch written or refused: the figures of stats() changed. */
  onFlushed?: () => void;
  /** After a batch is committed, with its visits (the live view's). */
  onWritten?: (batch: readonly Visit[]) => void;
};

/**
 * `gone`: visits of links deleted before they could be written (not counted anywhere, by design).
 * `committed`: runs once the transaction is committed (what must not happen for a batch that fails).
 */
export type BatchOutcome = { gone: number; committed?: () => void };

/** Writes one batch of visits (totals, raw visits, unique visitors, rollups) in one transaction. */
export type BatchStore = { write(batch: Visit[]): MaybePromise<BatchOutcome> };

/**
 * `discarded`: visits of links deleted before they could be written. `batchWrite`: how long
 * writing each batch took (a histogram, for /metrics).
 */
export type WriterStats = { queued: number; written: number; dropped: number; discarded: number; lastError: string | null; batchWrite: HistogramCounts };

export type VisitWriter = {
  record(visit: Visit): void;
  /** Writes everything queued now; returns how many were written. */
  flush(): MaybePromise<number>;
  /** Stops the timer and writes what is left. */
  close(): MaybePromise<void>;
  stats(): WriterStats;
};

export function createVisitQueue(store: BatchStore, options: QueueOptions = {}): VisitWriter {
  const flushIntervalMs = options.flushIntervalMs ?? 100;
  const batchSize = options.batchSize ?? 10_000;
  const maxQueued = options.maxQueued ?? 200_000;

  let queue: Visit[] = [];
  // The batch being written by an engine that answers later: one at a time, in order.
  let writing: Promise<number> | null = null;
  let inFlight = 0;
  let written = 0;
  let dropped = 0;
  let discarded = 0;
  let lastError: string | null = null;
  const batchWrite = newHistogram();

  const done = (batch: Visit[], outcome: BatchOutcome, started: number): number => {
    outcome.committed?.();
    observe(batchWrite, (performance.now() - started) / 1000);
    written += batch.length - outcome.gone;
    discarded += outcome.gone;
    lastError = null;
    options.onWritten?.(batch);
    options.onFlushed?.();
    return batch.length - outcome.gone;
  };
  const failed = (batch: Visit[], err: unknown): number => {
    // Keep the batch for the next tick (disk full, locked file, database away): nothing
    // acknowledged is dropped while the queue has room.
    queue = batch.concat(queue);
    const message = err instanceof Error ? err.message : String(err);
    if (message !== lastError) options.onError?.(err);
    lastError = message;
    arm(); // tried again on the next tick
    options.onFlushed?.();
    return 0;
  };

  const flush = (): MaybePromise<number> => {
    if (writing !== null) return writing.then(() => flush());
    if (queue.length === 0) return 0;
    const batch = queue;
    queue = [];
    const started = performance.now();
    let outcome: MaybePromise<BatchOutcome>;
    try {
      outcome = store.write(batch);
    } catch (err) {
      return failed(batch, err);
    }
    if (!(outcome instanceof Promise)) return done(batch, outcome, started);
    inFlight = batch.length;
    writing = outcome.then(
      (o) => done(batch, o, started),
      (err: unknown) => failed(batch, err),
    ).finally(() => {
      writing = null;
      inFlight = 0;
    });
    return writing;
  };

  // The tick runs only while visits wait: an idle writer sets no timer at all.
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  const arm = () => {
    if (timer === null && !closed) {
      timer = setTimeout(() => {
        timer = null;
        void flush();
      }, flushIntervalMs);
    }
  };

  return {
    record(visit) {
      if (queue.length + inFlight >= maxQueued) {
        dropped++;
        return;
      }
      queue.push(visit);
      if (queue.length >= batchSize && lastError === null && writing === null) void flush();
      else arm();
    },
    flush,
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      const left = flush();
      if (left instanceof Promise) return left.then(() => undefined);
    },
    stats: () => ({ queued: queue.length + inFlight, written, dropped, discarded, lastError, batchWrite }),
  };
}
