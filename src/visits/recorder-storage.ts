// What the recorder thread writes with, per engine: the visitor keys (daily salts), the visit
// writer, the hourly forgetting of salts and seen visitors, and any upkeep the engine needs.

import type { Logger } from "../log.ts";
import type { MaybePromise } from "../util/maybe.ts";
import type { QueueOptions, VisitWriter } from "./visit-queue.ts";

export type RecorderStorage = {
  /** The visitor key of a click, or null when its day's salt is gone (a click from long ago). */
  visitorId(ts: number, linkId: string, address: string, userAgent: string | null): number | null;
  /** Makes the salts of a hand-over's days ready for visitorId (PostgreSQL reads them first); `flat` as packClick made it. */
  prepare(flat: readonly (string | number | null)[]): MaybePromise<void>;
  writer: VisitWriter;
  /** Deletes salts and seen visitors an hour after their day or hour is over. */
  forget(now: number): MaybePromise<void>;
  close(): Promise<void>;
};

export type RecorderStorageOptions = QueueOptions & { log: Logger };
