// Small writes that are not worth waiting for ("last used" times), from the thread that answers clicks.

import type { Database } from "bun:sqlite";
import { isStorageFailure } from "../errors.ts";

/**
 * Runs the write without SQLite's busy wait, so the thread that answers clicks never stalls on it;
 * false when the lock was taken or the disk refused the write (full, read-only): the request that
 * caused it must still be answered, and a later one writes it. Anything else is a bug and is thrown.
 */
export function writeIfFree(db: Database, write: () => void): boolean {
  const previous = (db.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout;
  db.run("PRAGMA busy_timeout = 0");
  try {
    write();
    return true;
  } catch (err) {
    if (isStorageFailure(err)) return false; // a busy lock is one too
    throw err;
  } finally {
    db.run(`PRAGMA busy_timeout = ${previous}`);
  }
}
