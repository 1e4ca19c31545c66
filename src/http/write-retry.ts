// Writes from the thread that answers clicks. Its connection does not wait for SQLite's write lock
// at all, so that the event loop never stalls behind the recorder (a wait of 50 ms here once let an
// import of 10,000 rows hold clicks for up to 939 ms); a write that finds the lock taken asks the
// recorder to hurry and tries again between short sleeps, while clicks go on being answered.

import { describeStorageFailure, isLockBusy, isStorageFailure } from "../db/errors.ts";
import type { Logger } from "../log.ts";
import { apiError } from "./responses.ts";

/** How long the click thread's connection itself waits for the write lock (set in main.ts): not at all. */
export const CLICK_THREAD_BUSY_TIMEOUT_MS = 0;
// How long a write keeps retrying before it gives up; what the connection's own busy timeout was
// before (a backup or a slow disk can hold the lock that long).
const WRITE_LOCK_PATIENCE_MS = 5_000;
const RETRY_AFTER_MS = 10;

/** Runs attempt, again while the write lock is busy (for up to 5 s); rethrows anything else. */
export async function retryWhileBusy<T>(attempt: () => T | Promise<T>, hurry: () => void): Promise<T> {
  const giveUpAt = Date.now() + WRITE_LOCK_PATIENCE_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!isLockBusy(err) || Date.now() >= giveUpAt) throw err;
      // Most likely the recorder holds it at idle priority: raise it, then wait without blocking.
      hurry();
      await Bun.sleep(RETRY_AFTER_MS);
    }
  }
}

/**
 * The answer when the database refuses a write (disk full, read-only, lock held too long): a 503
 * for the client and a log line for the operator. Anything else is a bug and is rethrown.
 */
export function storageUnavailable(err: unknown, log: Logger, what: string): Response {
  if (!isStorageFailure(err)) throw err;
  log.error(`${what} failed: storage unavailable`, { cause: describeStorageFailure(err) });
  return apiError(503, "storage_unavailable", "the database cannot store changes right now; try again later");
}
