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
