// The click thread's connection does not wait for SQLite's write lock at all, so that the event loop
// never stalls behind the recorder (a wait of 50 ms once let an import of 10,000 rows hold clicks for
// up to 939 ms). A write that finds the lock taken asks the recorder to hurry and tries again
// between short sleeps while clicks go on being answered. This is SQLite's business alone: the
// adapters' writes retry here, and no operation or surface knows of it.

import { isLockBusy } from "../errors.ts";

/** How long the click thread's connection itself waits for the write lock (set when it opens): not at all. */
export const CLICK_THREAD_BUSY_TIMEOUT_MS = 0;
// How long a write keeps retrying before it gives up; what the connection's own busy timeout was
// before (a backup or a slow disk can hold the lock that long).
const WRITE_LOCK_PATIENCE_MS = 5_000;
const RETRY_AFTER_MS = 10;

/** Runs attempt, again while the write lock is busy (for up to 5 s); rethrows anything else. */
async function retryWhileBusy<T>(attempt: () => T | Promise<T>, hurry: () => void): Promise<T> {
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
 * The port with its named writes retried while the lock is busy. Every other method is the
 * port's own: reads, and writes that must not wait (a limited link's click, a "last used" touch)
 * answer at once as before.
 */
export function retryingWrites<T extends object>(port: T, writes: readonly (keyof T)[], hurry: () => void): T {
  const wrapped = { ...port } as Record<PropertyKey, unknown>;
  for (const name of writes) {
    const write = port[name];
    if (typeof write !== "function") throw new Error(`retryingWrites: ${String(name)} is not a method`);
    wrapped[name] = (...args: unknown[]) => retryWhileBusy(() => (write as (...a: unknown[]) => unknown).apply(port, args), hurry);
  }
  return wrapped as T;
}
