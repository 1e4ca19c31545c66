// Step 4: the owner's dashboard. Sessions of a signed-in browser, by the hash of their cookie; and
// daily rollups by day, for the overview's clicks of the last days over every link.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  CREATE TABLE sessions (
    token_hash   BLOB PRIMARY KEY,      -- SHA-256 of the cookie's value; the value itself is never stored
    key_hash     BLOB NOT NULL,         -- SHA-256 of the key signed in with: a revoked key ends its sessions
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL       -- a session ends 30 days after its last use
  ) WITHOUT ROWID;
  CREATE INDEX daily_rollup_by_day ON daily_rollup(day, link_id, total);
  `;

// PostgreSQL has no step here: it began at step 5, which makes at once everything steps 1 to 5 make
// in SQLite.
export const postgres: PostgresDialect | null = null;
