// The click thread's side of visit recording (src/visits/recorder.ts's ClickRecorder): collects raw
// clicks in memory and hands them to the recorder thread (entry.ts) in batches. Bounded, with
// counted drops; close() hands over and writes everything before it resolves.

import { createLogger } from "../../log.ts";
import { startThread, type WorkerThread } from "../start.ts";
import { createClickPacker, type Click } from "../../visits/click.ts";
import type { FromRecorder, RecorderInit, RecorderReady, ToRecorder } from "./protocol.ts";
import type { WriterStats } from "../../visits/visit-queue.ts";
import type { ClickRecorder } from "../../visits/recorder.ts";
import { createPriorityFlag, manageRecorderPriority } from "./priority.ts";
import { newHistogram } from "../../metrics/histogram.ts";
import { createCatchUp, orphanBound } from "../../visits/catch-up.ts";
import type { LiveBatch } from "../../events/live.ts";

export type { ClickRecorder, RecorderStats } from "../../visits/recorder.ts";

export type RecorderOptions = Omit<RecorderInit, "flushIntervalMs" | "maxQueued" | "priorityFlag" | "noCountFrom"> & {
  /** --no-count-from (none when absent) */
  noCountFrom?: string;
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
/**
 * How long a stop waits for the recorder to write every queued visit before it gives up on them
 * (docs/architecture.md: Threads): inside systemd's 20 s (TimeoutStopSec) with room for the rest
 * of the stop. A full queue (200,000 clicks) is written in a few seconds on SQLite.
 */
export const RECORDER_CLOSE_WITHIN_MS = 15_000;

type Recorder = WorkerThread<ToRecorder, WriterStats>;
/** What the recorder thread says, once it is ready: its own messages, and why it died. */
type Heard = { news: (msg: FromRecorder) => void; failed: (reason: string) => void };

/** Starts the recorder thread; rejects with the reason if it cannot start (e.g. an unusable --geoip-db). */
export async function startClickRecorder(options: RecorderOptions): Promise<ClickRecorder> {
  const init: RecorderInit = {
    database: options.database,
    databasePassword: options.databasePassword,
    geoipDb: options.geoipDb,
    trustProxy: options.trustProxy,
    noCountFrom: options.noCountFrom ?? "",
    logFormat: options.logFormat,
    flushIntervalMs: options.flushIntervalMs ?? 100,
    maxQueued: options.maxQueued ?? 200_000,
    priorityFlag: createPriorityFlag(),
  };
  // Set once the thread is ready: until then it sends nothing of its own.
  const heard: Heard = { news: () => {}, failed: () => {} };
  const { thread, ready } = await startThread<RecorderInit, RecorderReady, WriterStats, ToRecorder, FromRecorder>({
    name: "recorder",
    entry: "threads/recorder/entry.ts",
    init,
    closeWithinMs: RECORDER_CLOSE_WITHIN_MS,
    log: createLogger(init.logFormat),
    onMessage: (msg) => heard.news(msg),
    onFailed: (reason) => heard.failed(reason),
  });
  return clickRecorder(thread, ready, init, options, heard);
}

/** When each hand-over happened, and how many clicks had been handed over by its end. */
function handoverTimes() {
  const handovers: { end: number; at: number }[] = [];
  return {
    push: (end: number, at: number) => handovers.push({ end, at }),
    /** How long the oldest click not yet written (or dropped) by the recorder (`done` of them are) has waited. */
    oldestAgeMs(done: number, now: number): number {
      while (handovers.length > 0 && handovers[0]!.end <= done) handovers.shift();
      return handovers.length > 0 ? now - handovers[0]!.at : 0;
    },
  };
}

/** Characters handed over and not yet taken by the recorder, and where each hand-over ends. */
function transitChars() {
  let chars = 0;
  const parts: { end: number; size: number }[] = [];
  return {
    chars: () => chars,
    add(end: number, size: number) {
      parts.push({ end, size });
      chars += size;
    },
    /** The recorder has taken the first `received` clicks. */
    taken(received: number) {
      while (parts.length > 0 && parts[0]!.end <= received) chars -= parts.shift()!.size;
    },
  };
}

/** The ClickRecorder over a ready recorder thread; `heard` is pointed at what it says. */
function clickRecorder(thread: Recorder, ready: RecorderReady, init: RecorderInit, options: RecorderOptions, heard: Heard): ClickRecorder {
  const packer = createClickPacker();
  let dropped = 0;
  let orphansDropped = 0;
  let handedOver = 0;
  let received = 0;
  let notCounted = 0;
  const transit = transitChars();
  let remote: WriterStats = { queued: 0, written: 0, dropped: 0, discarded: 0, lastError: null, batchWrite: newHistogram() };
  const inFlight = () => packer.count + handedOver - received + remote.queued;
  const catchUp = createCatchUp(init.maxQueued, options.catchUpWaitMs);
  const handovers = handoverTimes();
  const handOver = () => {
    const taken = packer.take();
    if (taken === null) return;
    thread.post({ clicks: taken.message } satisfies ToRecorder);
    handedOver += taken.count;
    handovers.push(handedOver, Date.now());
    transit.add(handedOver, taken.size);
  };
  heard.news = (msg) => {
    if ("live" in msg) return options.onLive?.(msg.live);
    remote = msg.stats;
    received = msg.received;
    notCounted = msg.notCounted;
    transit.taken(received);
    if (msg.error) options.onError?.(msg.error);
  };
  // A dead recorder writes nothing more: /health says so, and no click waits for it (catch-up.ts).
  heard.failed = (reason) => (remote = { ...remote, lastError: reason });
  const priority = manageRecorderPriority(init.priorityFlag, ready.threadId);
  // The tick runs while clicks are on their way or waiting, and stops once none are (an idle instance does not wake).
  let timer: ReturnType<typeof setInterval> | null = null;
  const tick = () => {
    handOver();
    const now = Date.now();
    const backlog = inFlight();
    priority.observe(backlog, handovers.oldestAgeMs(remote.written + remote.dropped + remote.discarded, now));
    catchUp.check(backlog, remote.lastError !== null, now);
    if (backlog === 0 && !catchUp.waiting() && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
  const orphanLimit = orphanBound(init.maxQueued); // half of where clicks start waiting (catch-up.ts), worked out once
  /** Queues the click unless the `backlog` has reached `bound` or its characters 1/`transitShare` of theirs. */
  const fits = (click: Click, backlog: number, bound: number, transitShare: number): boolean => {
    if (backlog >= bound || (transit.chars() + packer.size) * transitShare >= MAX_TRANSIT_CHARS) return false;
    packer.add(click);
    if (packer.count >= HANDOVER_CLICKS) handOver();
    timer ??= setInterval(tick, HANDOVER_MS);
    return true;
  };
  return {
    record(click) {
      const backlog = inFlight();
      if (!fits(click, backlog, init.maxQueued, 1)) return void dropped++;
      return catchUp.admit(backlog, remote.lastError !== null);
    },
    // Never waits; dropped from orphanLimit or a quarter of the characters' bound, so a flood of 404s never delays a click; counted apart (docs/operations.md: Monitoring).
    recordOrphan(click) {
      if (!fits(click, inFlight(), orphanLimit, 4)) orphansDropped++;
    },
    stats: () => ({ ...remote, queued: inFlight(), dropped: dropped + remote.dropped, delayed: catchUp.delayed(), notCounted, orphansDropped }),
    ...threadMessages(thread, ready),
    hurry: () => priority.raise(),
    async close() {
      if (timer !== null) clearInterval(timer);
      catchUp.releaseAll();
      priority.raise(); // the last writes must not wait for idle CPU (systemd's stop timeout)
      handOver();
      const closed = await thread.close();
      if (closed !== null) remote = closed;
      // Given up on (a dead thread, or one past its bound): what it had not written is lost.
      const lost = closed === null ? inFlight() : 0;
      return { ...remote, dropped: remote.dropped + dropped + lost, delayed: catchUp.delayed(), notCounted, orphansDropped };
    },
    priority: () => priority.level,
  };
}

/** What the recorder only hears of, or said once when it was ready. */
function threadMessages(thread: Recorder, ready: RecorderReady): Pick<ClickRecorder, "reloadGeo" | "geoSource" | "geoBuildDate" | "setWants" | "watch"> {
  return {
    reloadGeo: () => thread.post({ reloadGeo: true } satisfies ToRecorder),
    geoSource: ready.geoSource,
    geoBuildDate: ready.geoBuildDate,
    setWants: (types) => thread.post({ wants: types } satisfies ToRecorder),
    watch: (ids, all) => thread.post({ watch: { ids, all } } satisfies ToRecorder),
  };
}
