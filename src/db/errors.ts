import type { Database } from "bun:sqlite";
import { isPgUnavailable, sqlState } from "./postgres/connect.ts";

// Database errors the service answers rather than crashes on: the disk's or the server's trouble,
// not the client's.

function codeOf(err: unknown): string {
  return (err as { code?: string } | null)?.code ?? "";
}

/**
 * Another connection holds the write lock (SQLite), or PostgreSQL gave up on a lock or a
 * serialization: worth another try shortly.
 */
export function isLockBusy(err: unknown): boolean {
  return /^SQLITE_(BUSY|LOCKED)/.test(codeOf(err)) || ["40001", "40P01", "55P03"].includes(sqlState(err));
}

/**
 * Disk full, read-only file, I/O error or a lock held too long, or a PostgreSQL server that cannot
 * be reached: temporary, hence 503 rather than 500.
 */
export function isStorageFailure(err: unknown): boolean {
  return /^SQLITE_(FULL|READONLY|IOERR|BUSY|LOCKED|CANTOPEN|CORRUPT|NOTADB)/.test(codeOf(err)) || isPgUnavailable(err);
}

/** "CODE: message", for the operator's log line. */
export function describeStorageFailure(err: unknown): string {
  const state = sqlState(err);
  return `${codeOf(err)}${state ? ` ${state}` : ""}: ${err instanceof Error ? err.message : String(err)}`;
}

/** A UNIQUE or PRIMARY KEY constraint refused the row: the value is taken. */
export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE";
}

/**
 * Runs a small write that is not worth waiting for (a "last used" time) without SQLite's busy
 * wait, so the thread that answers clicks never stalls on it; false when the lock was taken or
 * the disk refused the write (full, read-only): the request that caused it must still be answered,
 * and a later one writes it. Anything else is a bug and is thrown.
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
