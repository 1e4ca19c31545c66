import type { Database } from "bun:sqlite";

// SQLite errors the service answers rather than crashes on: the disk's trouble, not the client's.

function codeOf(err: unknown): string {
  return (err as { code?: string } | null)?.code ?? "";
}

/** Another connection holds the write lock: worth another try shortly. */
export function isLockBusy(err: unknown): boolean {
  return /^SQLITE_(BUSY|LOCKED)/.test(codeOf(err));
}

/** Disk full, read-only file, I/O error or a lock held too long: temporary, hence 503 rather than 500. */
export function isStorageFailure(err: unknown): boolean {
  return /^SQLITE_(FULL|READONLY|IOERR|BUSY|LOCKED|CANTOPEN|CORRUPT|NOTADB)/.test(codeOf(err));
}

/** "CODE: message", for the operator's log line. */
export function describeStorageFailure(err: unknown): string {
  return `${codeOf(err)}: ${err instanceof Error ? err.message : String(err)}`;
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
