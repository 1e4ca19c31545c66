// The recorder thread's entry point (started by client.ts through ../start.ts): like main.ts for
// the click thread, it wires an engine (src/db/open-recorder.ts) to the domain's recording pipeline
// (src/visits/recording.ts), and the pipeline to the messages of protocol.ts.
// In: init, {clicks: JSON}, {reloadGeo}, {wants}, {watch}, close. Out: ready|failed once, {stats} as they change, {live}, closed.

import { createLogger } from "../../log.ts";
import { createRecordingPipeline, type RecordingPipeline } from "../../visits/recording.ts";
import type { FromRecorder, RecorderInit, RecorderReady, ToRecorder } from "./protocol.ts";
import type { WriterStats } from "../../visits/visit-queue.ts";
import { openRecorderStorage } from "../../db/open-recorder.ts";
import { currentThreadId, nameThisThread } from "../policy.ts";
import { recorderThreadPriority, type RecorderThreadPriority } from "./priority.ts";
import { createEventWants } from "../../events/wants.ts";
import { liveBatch } from "../../events/live.ts";
import { serveThread } from "../serve.ts";

let pipeline: RecordingPipeline;
let priority: RecorderThreadPriority;
let reported = "";
// What webhooks want written with each batch, and which links live views watch (from the click thread).
const wants = createEventWants();
let watched = new Set<string>();
let watchingAll = false;

const report = (error?: string) => {
  const stats = pipeline.stats();
  const received = pipeline.received();
  const notCounted = pipeline.notCounted();
  const key = `${stats.written}/${stats.dropped}/${stats.discarded}/${stats.queued}/${stats.lastError}/${received}/${notCounted}`;
  if (key === reported && !error) return;
  reported = key;
  post({ stats, received, notCounted, error });
};
// The click thread learns the figures at most once per flush interval, and only after they
// changed: an idle recorder sends nothing and sets no timer.
let reportTimer: ReturnType<typeof setTimeout> | null = null;
let reportEveryMs = 100;
const reportSoon = () => {
  reportTimer ??= setTimeout(() => {
    reportTimer = null;
    report();
  }, reportEveryMs);
};

async function start(opts: RecorderInit): Promise<RecorderReady> {
  const log = createLogger(opts.logFormat);
  reportEveryMs = opts.flushIntervalMs;
  let storage;
  try {
    storage = await openRecorderStorage(opts.database, opts.databasePassword, log, wants);
  } catch (err) {
    throw new Error(`the recorder cannot open the database: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    pipeline = await createRecordingPipeline({
      storage,
      trustProxy: opts.trustProxy,
      noCountFrom: opts.noCountFrom,
      geoipDb: opts.geoipDb,
      log,
      flushIntervalMs: opts.flushIntervalMs,
      maxQueued: opts.maxQueued,
      onChange: reportSoon,
      onError: (message) => report(message),
      // Nothing watched (the usual case): one size check a batch.
      onWritten: (batch) => {
        if (watched.size === 0 && !watchingAll) return;
        const live = liveBatch(batch, watched, watchingAll);
        if (live !== null) post({ live });
      },
    });
  } catch (err) {
    await storage.close();
    throw err;
  }
  const threadId = currentThreadId();
  nameThisThread("recorder");
  priority = recorderThreadPriority(opts.priorityFlag, threadId);
  priority.settle();
  return { geoSource: pipeline.geoSource, geoBuildDate: pipeline.geoBuildDate, threadId };
}

function message(msg: ToRecorder): void {
  if ("clicks" in msg) {
    pipeline.receive(msg.clicks);
    priority.settle();
  } else if ("reloadGeo" in msg) void pipeline.reloadGeo();
  else if ("wants" in msg) wants.set(msg.wants);
  else {
    watched = new Set(msg.watch.ids);
    watchingAll = msg.watch.all;
  }
}

/** Writes every queued visit (SIGTERM: docs/clicks.md), then says how many were written. */
async function close(): Promise<WriterStats> {
  const stats = await pipeline.close();
  if (reportTimer !== null) clearTimeout(reportTimer);
  report();
  return stats;
}

const post = serveThread<RecorderInit, RecorderReady, WriterStats, ToRecorder, FromRecorder>({ start, message, close });
