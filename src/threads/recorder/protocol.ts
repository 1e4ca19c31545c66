// The messages between the click thread (client.ts) and the recorder thread (entry.ts), beside the
// lifecycle's (../lifecycle.ts): init is RecorderInit, ready is RecorderReady, closed the writer's figures.

import type { LogFormat } from "../../config.ts";
import type { PriorityFlag } from "./priority.ts";
import type { WriterStats } from "../../visits/visit-queue.ts";
import type { EventType } from "../../events/types.ts";
import type { LiveBatch } from "../../events/live.ts";

export type RecorderInit = {
  /** --db: a SQLite file or a postgres:// URL */
  database: string;
  /** PostgreSQL: the password when the URL has none (systemd credential db-password) */
  databasePassword: string | null;
  geoipDb: string | null;
  trustProxy: string;
  /** --no-count-from: clicks from these client addresses are not recorded (docs/statistics.md: Not counting some clicks) */
  noCountFrom: string;
  logFormat: LogFormat;
  flushIntervalMs: number;
  maxQueued: number;
  /** shared with the click thread: the priority it wants this thread at (priority.ts) */
  priorityFlag: PriorityFlag;
};
/** `threadId` lets the click thread raise the recorder when it falls behind (priority.ts). */
export type RecorderReady = { geoSource: string; geoBuildDate: string; threadId: number | null };
/** `clicks`: a JSON array made by packClick (src/visits/click.ts). */
/** `wants`: the event types webhooks want (a batch writes those); `watch`: the links live views watch (`all`: every link). */
export type ToRecorder = { clicks: string } | { reloadGeo: true } | { wants: EventType[] } | { watch: { ids: string[]; all: boolean } };
/** `received`: clicks taken so far, so that the click thread can tell what is still in transit; `notCounted`: of them, those from --no-count-from addresses. */
export type FromRecorder =
  | { stats: WriterStats; received: number; notCounted: number; error?: string }
  /** the visits of watched links, once written */
  | { live: LiveBatch };
