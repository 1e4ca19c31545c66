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

/** `gone`: visits of links deleted before they could be written (not counted anywhere, by design). */
export type BatchOutcome = { gone: number };

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
  const batchSize = options.batchSize ?? 10_000;
  const maxQueued = options.maxQueued ?? 200_000;
  const pending: Pending = { visits: [], writing: null, inFlight: 0 };
  const tally = createTally(options);
  const tick = createTick(options.flushIntervalMs ?? 100, () => void flush());
  const refused = (batch: Visit[], err: unknown): number => {
    // Keep the batch for the next tick (disk full, locked file, database away): nothing
    // acknowledged is dropped while the queue has room.
    pending.visits = batch.concat(pending.visits);
    tally.refused(err);
    tick.arm(); // tried again on the next tick
    options.onFlushed?.();
    return 0;
  };
  const flush = batchFlusher(store, pending, tally, refused);
  return {
    record(visit) {
      if (pending.visits.length + pending.inFlight >= maxQueued) {
        tally.dropped++;
        return;
      }
      pending.visits.push(visit);
      if (pending.visits.length >= batchSize && tally.lastError === null && pending.writing === null) void flush();
      else tick.arm();
    },
    flush,
    close() {
      tick.stop();
      const left = flush();
      if (left instanceof Promise) return left.then(() => undefined);
    },
    stats: () => tally.stats(pending.visits.length + pending.inFlight),
  };
}

/** What waits: the visits queued, and the batch being written by an engine that answers later (one at a time, in order). */
type Pending = { visits: Visit[]; writing: Promise<number> | null; inFlight: number };

/** Takes what is queued as one batch and writes it; a refused batch goes back to the queue (`refused`). */
function batchFlusher(store: BatchStore, pending: Pending, tally: Tally, refused: (batch: Visit[], err: unknown) => number): () => MaybePromise<number> {
  const flush = (): MaybePromise<number> => {
    if (pending.writing !== null) return pending.writing.then(() => flush());
    if (pending.visits.length === 0) return 0;
    const batch = pending.visits;
    pending.visits = [];
    const started = performance.now();
    let outcome: MaybePromise<BatchOutcome>;
    try {
      outcome = store.write(batch);
    } catch (err) {
      return refused(batch, err);
    }
    if (!(outcome instanceof Promise)) return tally.written(batch, outcome, started);
    pending.inFlight = batch.length;
    pending.writing = outcome.then(
      (o) => tally.written(batch, o, started),
      (err: unknown) => refused(batch, err),
    ).finally(() => {
      pending.writing = null;
      pending.inFlight = 0;
    });
    return pending.writing;
  };
  return flush;
}

type Tally = ReturnType<typeof createTally>;

/** The writer's figures (stats()), and what follows a batch written or refused. */
function createTally(options: QueueOptions) {
  let written = 0;
  let discarded = 0;
  const batchWrite = newHistogram();
  const tally = {
    dropped: 0,
    lastError: null as string | null,
    /** A batch committed: counts it and tells; answers how many of its visits were written. */
    written(batch: Visit[], outcome: BatchOutcome, started: number): number {
      observe(batchWrite, (performance.now() - started) / 1000);
      written += batch.length - outcome.gone;
      discarded += outcome.gone;
      tally.lastError = null;
      options.onWritten?.(batch);
      options.onFlushed?.();
      return batch.length - outcome.gone;
    },
    /** A batch refused: its error is told once, not again while the same error repeats. */
    refused(err: unknown): void {
      const message = err instanceof Error ? err.message : String(err);
      if (message !== tally.lastError) options.onError?.(err);
      tally.lastError = message;
    },
    stats: (queued: number): WriterStats => ({ queued, written, dropped: tally.dropped, discarded, lastError: tally.lastError, batchWrite }),
  };
  return tally;
}

/** The tick runs only while visits wait: an idle writer sets no timer at all. */
function createTick(intervalMs: number, run: () => void): { arm(): void; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  return {
    arm() {
      if (timer === null && !stopped) {
        timer = setTimeout(() => {
          timer = null;
          run();
        }, intervalMs);
      }
    },
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
