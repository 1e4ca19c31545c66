// Connections to PostgreSQL through Bun's built-in client (Bun.SQL): a pool per thread, numbers
// read back as numbers, and the errors that mean "the database is away" rather than "a bug".

import { SQL } from "bun";

export type Pg = SQL;

export type PgOptions = {
  /** connections in this pool (the click thread's pool serves clicks that miss the cache, the API and the UI) */
  max: number;
  /** the password when the URL has none (the systemd credential db-password) */
  password: string | null;
};

/** A pool for the URL; connections open on first use, so an unreachable server shows on the first query. */
export function connectPostgres(url: string, options: PgOptions): Pg {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.slice(1));
  return new SQL({
    url,
    ...(options.password !== null && parsed.password === "" ? { password: options.password } : {}),
    // Named explicitly: Bun lets $PGDATABASE override the URL's database otherwise.
    ...(database !== "" ? { database } : {}),
    max: options.max,
    // A server that does not answer within 5 s is reported (503, a log line) rather than waited for.
    connectionTimeout: 5,
    idleTimeout: 60,
    // A lock held elsewhere (a migration, an operator's LOCK TABLE) is waited for 5 s at most,
    // like SQLite's write lock: then the client gets a 503 and the recorder tries again.
    connection: { application_name: "shortener", lock_timeout: "5s", statement_timeout: "60s" },
  });
}

/** int8 and numeric arrive as strings (they may exceed 2^53); ours are counts and ms timestamps. */
export function num(value: unknown): number {
  return typeof value === "number" ? value : Number(value);
}

export function numOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : num(value);
}

/** `?` placeholders (the SQL both engines share) as PostgreSQL's $1, $2, … in order. */
export function numbered(sql: string): string {
  let n = 0;
  // "?" is the next parameter; "?3" is the third, as SQLite numbers them.
  return sql.replace(/\?(\d*)/g, (_, index: string) => `$${index === "" ? ++n : index}`);
}

/** The server's SQLSTATE of an error, or "" (Bun's own errors, such as a refused connection, have none). */
export function sqlState(err: unknown): string {
  const errno = (err as { errno?: unknown } | null)?.errno;
  return typeof errno === "string" ? errno : "";
}

export function isPgUniqueViolation(err: unknown): boolean {
  return sqlState(err) === "23505";
}

/**
 * The database cannot be reached or refuses for a while: a connection that failed or closed, a
 * server shutting down, out of connections or disk. A client gets 503; nothing queued is lost.
 */
export function isPgUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && /^ERR_POSTGRES_(CONNECTION_|\w*TIMEOUT|TLS|\w*AUTH|SOCKET)/.test(code)) return true;
  const state = sqlState(err);
  // 08: connection exceptions; 53: insufficient resources (disk full, too many connections);
  // 57P01-03: the server is shutting down or not yet accepting; 55P03: a lock not had within
  // lock_timeout; 57014: a statement past statement_timeout; 40001/40P01: serialization or deadlock.
  return /^(08|53)/.test(state) || /^57P0[123]$/.test(state) || ["55P03", "57014", "40001", "40P01", "25006"].includes(state);
}
