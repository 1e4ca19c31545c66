// The recorder thread's entry point (a Worker started by src/visits/recorder.ts): like main.ts for
// the click thread, it wires an engine (src/db/open-recorder.ts) to the domain's recording pipeline
// (src/visits/recording.ts), and the pipeline to the messages of src/visits/recorder-protocol.ts.
// In: init, {clicks: JSON}, {reloadGeo}, {close}. Out: {ready}|{failed} once, {stats} as they change, {closed}.

import { createLogger } from "./log.ts";
import { createRecordingPipeline, type RecordingPipeline } from "./visits/recording.ts";
import type { FromRecorder, RecorderInit, ToRecorder } from "./visits/recorder-protocol.ts";
import { openRecorderStorage } from "./db/open-recorder.ts";
import { currentThreadId, nameThisThread } from "./util/thread-policy.ts";
import { recorderThreadPriority, type RecorderThreadPriority } from "./visits/recorder-priority.ts";
import { createEventWants } from "./events/wants.ts";
import { liveBatch } from "./events/live.ts";

declare const self: Worker;
const post = (msg: FromRecorder) => self.postMessage(msg);

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
  const key = `${stats.written}/${stats.dropped}/${stats.discarded}/${stats.queued}/${stats.lastError}/${received}`;
  if (key === reported && !error) return;
  reported = key;
  post({ stats, received, error });
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

async function init(opts: RecorderInit): Promise<void> {
  const log = createLogger(opts.logFormat);
  reportEveryMs = opts.flushIntervalMs;
  let storage;
  try {
    storage = await openRecorderStorage(opts.database, opts.databasePassword, log, wants);
  } catch (err) {
    post({ failed: `the recorder cannot open the database: ${err instanceof Error ? err.message : String(err)}` });
    return;
  }
  try {
    pipeline = await createRecordingPipeline({
      storage,
      trustProxy: opts.trustProxy,
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
    post({ failed: err instanceof Error ? err.message : String(err) });
    return;
  }
  const threadId = currentThreadId();
  nameThisThread("recorder");
  priority = recorderThreadPriority(opts.priorityFlag, threadId);
  priority.settle();
  // The thread id lets the click thread raise this thread when it falls behind (recorder-priority.ts).
  post({ ready: { geoSource: pipeline.geoSource, geoBuildDate: pipeline.geoBuildDate, threadId } });
}

self.onmessage = (event: MessageEvent<ToRecorder>) => {
  const msg = event.data;
  if ("init" in msg) void init(msg.init);
  else if ("clicks" in msg) {
    pipeline.receive(msg.clicks);
    priority.settle();
  } else if ("reloadGeo" in msg) void pipeline.reloadGeo();
  else if ("wants" in msg) wants.set(msg.wants);
  else if ("watch" in msg) {
    watched = new Set(msg.watch.ids);
    watchingAll = msg.watch.all;
  } else void close();
};

async function close(): Promise<void> {
  const stats = await pipeline.close();
  if (reportTimer !== null) clearTimeout(reportTimer);
  report();
  post({ closed: stats });
}
