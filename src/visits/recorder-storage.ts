// What the recorder thread writes with, per engine (src/db/<engine>/recorder.ts): the daily
// salts, the batch writer, and the forgetting of the visitors seen once their day or hour is over.

import type { MaybePromise } from "../util/maybe.ts";
import type { BatchStore } from "./visit-queue.ts";
import type { SaltStore } from "./visitor-id.ts";

export type RecorderStorage = {
  salts: SaltStore;
  batches: BatchStore;
  /** Deletes the visitors seen in days and hours over for more than GRACE_MS (visitor-id.ts); returns how many rows went. */
  forgetSeen(now: number): MaybePromise<number>;
  /**
   * Makes sure what was deleted is gone from the disk's bytes too (SQLite: out of its write-ahead
   * log); false when that could not be done now. Absent where deleted rows leave no copy we control.
   */
  scrub?(): MaybePromise<boolean>;
  close(): Promise<void>;
};
