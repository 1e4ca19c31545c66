// The background visit writer: clicks are queued in memory and written in one transaction per
// batch, raw visits (one visit_batches row per link) and rollups together, so a redirect never
// waits for the disk.

import type { Database } from "bun:sqlite";
import type { Visit } from "./visit.ts";
import { linkTotals, summarize } from "./rollup.ts";
import type { SeenMarks, SeenVisitors } from "./seen-visitors.ts";
import { newHistogram, observe, type HistogramCounts } from "../metrics/histogram.ts";
import { batchRows } from "./visit-batch.ts";

export type WriterOptions = {
  /** How often queued visits are written; also the most a crash can lose. */
  flushIntervalMs?: number;
  /** A batch this large is written at once instead of waiting for the timer. */
  batchSize?: number;
  /** Visits kept while the disk refuses writes; past this, new visits are counted as dropped. */
  maxQueued?: number;
  onError?: (err: unknown) => void;
  /** The visitors seen per day and hour (uniques); without it every visit counts as a new visitor. */
  seen?: SeenVisitors;
  now?: () => number;
};

/**
 * `discarded`: visits of links deleted before they could be written (not counted anywhere, by
 * design). `batchWrite`: how long writing each batch took (a histogram, for /metrics).
 */
export type WriterStats = { queued: number; written: number; dropped: number; discarded: number; lastError: string | null; batchWrite: HistogramCounts };

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
    `INSERT INTO daily_rollup (link_id, day, total, bots, uniques, unique_bots) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_id, day) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots,
       uniques = uniques + excluded.uniques, unique_bots = unique_bots + excluded.unique_bots`,
  );
  const addHourly = db.query(
    `INSERT INTO hourly_rollup (link_id, hour, total, bots, uniques, unique_bots) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_id, hour) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots,
       uniques = uniques + excluded.uniques, unique_bots = unique_bots + excluded.unique_bots`,
  );
  const addDimension = db.query(
    `INSERT INTO dimension_rollup (link_id, dimension, day, name, total, bots) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_id, dimension, day, name) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots`,
  );
  const addUtm = db.query(
    `INSERT INTO utm_rollup (link_id, day, source, medium, campaign, total, bots) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_id, day, source, medium, campaign) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots`,
  );
  // The totals shown in the link list; the update also tells whether the link still exists.
  const addTotals = db.query<void, [number, number, number, string]>(
    `UPDATE links SET total_clicks = total_clicks + ?, human_clicks = human_clicks + ?, last_click_at = MAX(last_click_at, ?) WHERE id = ?`,
  );

  const seen = options.seen ?? null;
  const now = options.now ?? Date.now;

  let queue: Visit[] = [];
  let written = 0;
  let dropped = 0;
  let discarded = 0;
  let lastError: string | null = null;
  const batchWrite = newHistogram();

  /** Writes a batch; returns how many of its visits belonged to links deleted meanwhile, and its new visitors. */
  const writeBatch = db.transaction((all: Visit[]): { gone: number; marks: SeenMarks | null } => {
    let deleted: Set<string> | null = null;
    for (const [linkId, t] of linkTotals(all)) {
      if (addTotals.run(t.total, t.humans, t.lastTs, linkId).changes === 0) (deleted ??= new Set()).add(linkId);
    }
    // A deleted link's visits and rollups are gone for good: clicks still queued for it are not
    // written back (DELETE runs in its own transaction, so this check sees it or not at all).
    const batch = deleted === null ? all : all.filter((v) => !deleted.has(v.linkId));
    for (const r of batchRows(batch)) insertBatch.run(r.linkId, r.firstTs, r.lastTs, r.humans, r.visits);
    const marks = seen === null ? null : seen.mark(batch, now());
    if (marks !== null) seen!.persist(marks.added);
    const { daily, hourly, dimensions, utm } = summarize(batch, marks?.flags ?? null);
    for (const r of daily) addDaily.run(r.linkId, r.day, r.total, r.bots, r.uniques, r.uniqueBots);
    for (const r of hourly) addHourly.run(r.linkId, r.hour, r.total, r.bots, r.uniques, r.uniqueBots);
    for (const r of dimensions) addDimension.run(r.linkId, r.dimension, r.day, r.name, r.total, r.bots);
    for (const r of utm) addUtm.run(r.linkId, r.day, r.source, r.medium, r.campaign, r.total, r.bots);
    return { gone: all.length - batch.length, marks };
  });

  const flush = (): number => {
    if (queue.length === 0) return 0;
    const batch = queue;
    queue = [];
    let gone: number;
    const started = performance.now();
    try {
      const done = writeBatch.immediate(batch);
      gone = done.gone;
      // Only now: a batch that failed is written again later and must find its visitors unseen.
      if (done.marks !== null) seen!.commit(done.marks.added);
    } catch (err) {
      // Keep the batch for the next tick (disk full, locked file): nothing acknowledged is dropped
      // while the queue has room.
      queue = batch.concat(queue);
      const message = err instanceof Error ? err.message : String(err);
      if (message !== lastError) options.onError?.(err);
      lastError = message;
      return 0;
    }
    observe(batchWrite, (performance.now() - started) / 1000);
    written += batch.length - gone;
    discarded += gone;
    lastError = null;
    return batch.length - gone;
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
    stats: () => ({ queued: queue.length, written, dropped, discarded, lastError, batchWrite }),
  };
}
