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
