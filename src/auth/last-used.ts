// "Last used" times of keys and sessions: written at most once per interval, best effort. A write
// per request would be a write (and on SQLite the write lock) per request, and a request must never
// wait for, or fail on, its "last used" time: a busy or full database skips it, and a later use
// writes it.

import type { MaybePromise } from "../util/maybe.ts";

/** The write: true when it was written; false (or a rejection) when the database could not take it. */
export type LastUsedWrite<K> = (key: K, now: number) => MaybePromise<boolean>;

/** Starts the write without waiting for it; calls `failed` when it was not written. */
export function writeBestEffort<K>(write: LastUsedWrite<K>, key: K, now: number, failed: () => void): void {
  const written = write(key, now);
  if (written instanceof Promise) written.then((ok) => ok || failed(), failed);
  else if (!written) failed();
}

/** A touch that writes each key's time at most once per `intervalMs` (as this process saw its uses). */
export function throttledTouch<K>(intervalMs: number, write: LastUsedWrite<K>): (key: K, now: number) => void {
  const touched = new Map<K, number>();
  return (key, now) => {
    if (now - (touched.get(key) ?? -Infinity) < intervalMs) return;
    touched.set(key, now);
    writeBestEffort(write, key, now, () => touched.delete(key));
  };
}
