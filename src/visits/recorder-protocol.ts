// The messages between the click thread (recorder.ts) and the recorder thread (src/recorder-thread.ts).

import type { LogFormat } from "../config.ts";
import type { PriorityFlag } from "./recorder-priority.ts";
import type { WriterStats } from "./visit-queue.ts";
import type { EventType } from "../events/types.ts";
import type { LiveBatch } from "../events/live.ts";

export type RecorderInit = {
  /** --db: a SQLite file or a postgres:// URL */
  database: string;
  /** PostgreSQL: the password when the URL has none (systemd credential db-password) */
  databasePassword: string | null;
  geoipDb: string | null;
  trustProxy: string;
  logFormat: LogFormat;
  flushIntervalMs: number;
  maxQueued: number;
  /** shared with the click thread: the priority it wants this thread at (recorder-priority.ts) */
  priorityFlag: PriorityFlag;
};
/** `clicks`: a JSON array made by packClick (click.ts). */
/** `wants`: the event types webhooks want (a batch writes those); `watch`: the links live views watch (`all`: every link). */
export type ToRecorder = { init: RecorderInit } | { clicks: string } | { reloadGeo: true } | { close: true } | { wants: EventType[] } | { watch: { ids: string[]; all: boolean } };
/** `received`: clicks taken so far, so that the click thread can tell what is still in transit. */
export type FromRecorder =
  | { ready: { geoSource: string; geoBuildDate: string; threadId: number | null } }
  | { failed: string }
  | { stats: WriterStats; received: number; error?: string }
  | { closed: WriterStats }
  /** the visits of watched links, once written */
  | { live: LiveBatch };
