// The click path's side of visit recording: collects raw clicks in memory and hands them to the
// recorder thread (src/recorder-thread.ts) in batches. Bounded, with counted drops; close() hands
// over and writes everything before it resolves.

import { threadEntry } from "../util/thread-entry.ts";
import { createClickPacker, type Click } from "./click.ts";
import type { FromRecorder, RecorderInit, ToRecorder } from "./recorder-protocol.ts";
import type { WriterStats } from "./visit-queue.ts";
import { createPriorityFlag, manageRecorderPriority } from "./recorder-priority.ts";
import { newHistogram } from "../metrics/histogram.ts";
import { createCatchUp } from "./catch-up.ts";
import type { EventType } from "../events/types.ts";
import type { LiveBatch } from "../events/live.ts";

/** The writer's figures, and how many clicks waited for it to catch up (catch-up.ts). */
export type RecorderStats = WriterStats & { delayed: number };

export type ClickRecorder = {
  /** Queues the click; a promise when its answer should wait for the writer to catch up. */
  record(click: Click): Promise<void> | undefined;
  stats(): RecorderStats;
  /** SIGHUP: re-read the --geoip-db file. */
  reloadGeo(): void;
  /** The click thread waits for SQLite's write lock, which the recorder may hold: normal priority now. */
  hurry(): void;
  /** Hands over what is left and resolves once the recorder thread has written it and closed. */
  close(): Promise<RecorderStats>;
  geoSource: string;
  geoBuildDate: string;
  /** "low" while the recorder thread yields the CPU to the click thread (recorder-priority.ts) */
  priority(): "low" | "normal";
  /** The event types webhooks want: a batch writes those with its visits. */
  setWants(types: EventType[]): void;
  /** The links live views watch (`all`: every link): their visits come back through onLive once written. */
  watch(ids: string[], all: boolean): void;
};

export type RecorderOptions = Omit<RecorderInit, "flushIntervalMs" | "maxQueued" | "priorityFlag"> & {
  flushIntervalMs?: number;
  /** Clicks held while the disk refuses writes (both sides together); past this they are counted as dropped. */
  maxQueued?: number;
  /** The longest a click's answer waits for the writer to catch up (catch-up.ts). */
  catchUpWaitMs?: number;
  onError?: (message: string) => void;
  /** The visits of watched links, once written (the live view). */
  onLive?: (batch: LiveBatch) => void;
};

// A message per tick (or per HANDOVER_CLICKS), as one JSON string (click.ts): far cheaper than
// a message per click or a structured clone of objects (measured 0.38 vs 1.1 µs a visit). Short ticks
// keep each stringify pause of the click thread short and the clicks young for the garbage
// collector: 5 against 20 ms measured 30.6k vs 28.7k redirects/s, p99 3.88 vs 4.10 ms, RSS after
// the click rounds 85 vs 116 MiB (npm run bench -- --rounds 8 --seconds 3, same run). A burst
// is handed over at HANDOVER_CLICKS without waiting for the tick.
const HANDOVER_MS = 5;
const HANDOVER_CLICKS = 1000;
/**
 * Characters of clicks the recorder has not taken yet (User-Agents, Referers and destinations are
 * sent once each, forwarding headers with every click): past this, clicks are dropped like past the
 * count bound. Holds the clicks of seconds of a stalled recorder; a working one takes them each tick.
 */
export const MAX_TRANSIT_CHARS = 16 * 1024 * 1024;

/** Starts the recorder thread; rejects with the reason if it cannot start (e.g. an unusable --geoip-db). */
export function startClickRecorder(options: RecorderOptions): Promise<ClickRecorder> {
  const init: RecorderInit = {
    database: options.database,
    databasePassword: options.databasePassword,
    geoipDb: options.geoipDb,
    trustProxy: options.trustProxy,
    logFormat: options.logFormat,
    flushIntervalMs: options.flushIntervalMs ?? 100,
    maxQueued: options.maxQueued ?? 200_000,
    priorityFlag: createPriorityFlag(),
  };
  const worker = new Worker(threadEntry("recorder-thread.ts"));
  const packer = createClickPacker();
  let dropped = 0;
  let handedOver = 0;
  let received = 0;
  // Characters handed over and not yet taken by the recorder, and where each hand-over ends.
  let inTransit = 0;
  const transit: { end: number; size: number }[] = [];
  let remote: WriterStats = { queued: 0, written: 0, dropped: 0, discarded: 0, lastError: null, batchWrite: newHistogram() };
  let onClosed: ((stats: WriterStats) => void) | null = null;
  const inFlight = () => packer.count + handedOver - received + remote.queued;
  const catchUp = createCatchUp(init.maxQueued, options.catchUpWaitMs);
  // When each hand-over happened and how many clicks had been handed over by its end: tells how
  // long the oldest click not yet written (or dropped) by the recorder has waited.
  const handovers: { end: number; at: number }[] = [];
  const oldestUnwrittenAgeMs = (now: number): number => {
    const done = remote.written + remote.dropped + remote.discarded;
    while (handovers.length > 0 && handovers[0]!.end <= done) handovers.shift();
    return handovers.length > 0 ? now - handovers[0]!.at : 0;
  };

  const handOver = () => {
    const taken = packer.take();
    if (taken === null) return;
    worker.postMessage({ clicks: taken.message } satisfies ToRecorder);
    handedOver += taken.count;
    handovers.push({ end: handedOver, at: Date.now() });
    transit.push({ end: handedOver, size: taken.size });
    inTransit += taken.size;
  };
  const taken = (count: number) => {
    received = count;
    while (transit.length > 0 && transit[0]!.end <= received) inTransit -= transit.shift()!.size;
  };

  return new Promise((resolve, reject) => {
    // A thread that fails to load or throws is as fatal as a writer that cannot start.
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(`the recorder thread failed: ${event.message}`));
    };
    worker.onmessage = (event: MessageEvent<FromRecorder>) => {
      const msg = event.data;
      if ("failed" in msg) {
        worker.terminate();
        reject(new Error(msg.failed));
      } else if ("ready" in msg) {
        const priority = manageRecorderPriority(init.priorityFlag, msg.ready.threadId);
        // The tick runs while clicks are on their way (or wait for the writer), and stops once
        // none are: an idle instance does not wake up for it. The next click starts it again.
        let timer: ReturnType<typeof setInterval> | null = null;
        const tick = () => {
          handOver();
          const now = Date.now();
          const backlog = inFlight();
          priority.observe(backlog, oldestUnwrittenAgeMs(now));
          catchUp.check(backlog, remote.lastError !== null, now);
          if (backlog === 0 && !catchUp.waiting() && timer !== null) {
            clearInterval(timer);
            timer = null;
          }
        };
        resolve({
          record(click) {
            const backlog = inFlight();
            if (backlog >= init.maxQueued || inTransit + packer.size >= MAX_TRANSIT_CHARS) {
              dropped++;
              return undefined;
            }
            packer.add(click);
            if (packer.count >= HANDOVER_CLICKS) handOver();
            timer ??= setInterval(tick, HANDOVER_MS);
            return catchUp.admit(backlog, remote.lastError !== null);
          },
          stats: () => ({ ...remote, queued: inFlight(), dropped: dropped + remote.dropped, delayed: catchUp.delayed() }),
          reloadGeo: () => worker.postMessage({ reloadGeo: true } satisfies ToRecorder),
          hurry: () => priority.raise(),
          close() {
            if (timer !== null) clearInterval(timer);
            catchUp.releaseAll();
            priority.raise(); // the last writes must not wait for idle CPU (systemd's stop timeout)
            handOver();
            return new Promise<RecorderStats>((done) => {
              onClosed = (stats) => {
                worker.terminate();
                done({ ...stats, dropped: stats.dropped + dropped, delayed: catchUp.delayed() });
              };
              worker.postMessage({ close: true } satisfies ToRecorder);
            });
          },
          geoSource: msg.ready.geoSource,
          geoBuildDate: msg.ready.geoBuildDate,
          priority: () => priority.level,
          setWants: (types) => worker.postMessage({ wants: types } satisfies ToRecorder),
          watch: (ids, all) => worker.postMessage({ watch: { ids, all } } satisfies ToRecorder),
        });
      } else if ("live" in msg) {
        options.onLive?.(msg.live);
      } else if ("closed" in msg) {
        remote = msg.closed;
        onClosed?.(msg.closed);
      } else {
        remote = msg.stats;
        taken(msg.received);
        if (msg.error) options.onError?.(msg.error);
      }
    };
    worker.postMessage({ init } satisfies ToRecorder);
  });
}
