// The background visit writer: clicks are queued in memory and written in one transaction per
// batch, raw visits (one visit_batches row per link) and rollups together, so a redirect never
// waits for the disk.

import type { Database } from "bun:sqlite";
import type { Visit } from "./visit.ts";
import { summarize } from "./rollup.ts";
import { batchRows } from "./visit-batch.ts";

export type WriterOptions = {
  /** How often queued visits are written; also the most a crash can lose. */
  flushIntervalMs?: number;
  /** A batch this large is written at once instead of waiting for the timer. */
  batchSize?: number;
  /** Visits kept while the disk refuses writes; past this, new visits are counted as dropped. */
  maxQueued?: number;
  onError?: (err: unknown) => void;
};

export type WriterStats = { queued: number; written: number; dropped: number; lastError: string | null };

export type VisitWriter = {
  record(visit: Visit): void;
  /** Writes everything queued now; returns how many were written. */
  flush(): number;
  /** Stops the timer and writes what is left. */
  close(): void;
  stats(): WriterStats;
};

export function createVisitWriter(db: Database, options: WriterOptions = {}): VisitWriter {
  const flushIntervalMs = options.flushIntervalMs ?? 100;
  const batchSize = options.batchSize ?? 2000;
  const maxQueued = options.maxQueued ?? 200_000;

  const insertBatch = db.query(`INSERT INTO visit_batches (link_id, first_ts, last_ts, humans, visits) VALUES (?, ?, ?, ?, ?)`);
  const addDaily = db.query(
    `INSERT INTO daily_rollup (link_id, day, total, bots) VALUES (?, ?, ?, ?)
     ON CONFLICT (link_id, day) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots`,
  );
  const addDimension = db.query(
    `INSERT INTO dimension_rollup (link_id, dimension, day, name, total, bots) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_id, dimension, day, name) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots`,
  );
  const addUtm = db.query(
    `INSERT INTO utm_rollup (link_id, day, source, medium, campaign, total, bots) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_id, day, source, medium, campaign) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots`,
  );

  let queue: Visit[] = [];
  let written = 0;
  let dropped = 0;
  let lastError: string | null = null;

  const writeBatch = db.transaction((batch: Visit[]) => {
    for (const r of batchRows(batch)) insertBatch.run(r.linkId, r.firstTs, r.lastTs, r.humans, r.visits);
    const { daily, dimensions, utm } = summarize(batch);
    for (const r of daily) addDaily.run(r.linkId, r.day, r.total, r.bots);
    for (const r of dimensions) addDimension.run(r.linkId, r.dimension, r.day, r.name, r.total, r.bots);
    for (const r of utm) addUtm.run(r.linkId, r.day, r.source, r.medium, r.campaign, r.total, r.bots);
  });

  const flush = (): number => {
    if (queue.length === 0) return 0;
    const batch = queue;
    queue = [];
    try {
      writeBatch.immediate(batch);
    } catch (err) {
      // Keep the batch for the next tick (disk full, locked file): nothing acknowledged is dropped
      // while the queue has room.
      queue = batch.concat(queue);
      const message = err instanceof Error ? err.message : String(err);
      if (message !== lastError) options.onError?.(err);
      lastError = message;
      return 0;
    }
    written += batch.length;
    lastError = null;
    return batch.length;
  };

  const timer = setInterval(flush, flushIntervalMs);

  return {
    record(visit) {
      if (queue.length >= maxQueued) {
        dropped++;
        return;
      }
      queue.push(visit);
      if (queue.length >= batchSize && lastError === null) flush();
    },
    flush,
    close() {
      clearInterval(timer);
      flush();
    },
    stats: () => ({ queued: queue.length, written, dropped, lastError }),
  };
}
