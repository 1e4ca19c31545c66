// Step 16: share links (docs/statistics.md: Sharing statistics): secret read-only links to one
// link's statistics. Only the token's SHA-256 is kept (a token is found by its hash, never
// compared); a row belongs to its link by seq, so deleting the link deletes it
// (src/db/shared/tables.ts LINK_DATA_TABLES) and a new link under the same alias inherits none.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  CREATE TABLE link_shares (
    id           INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: a revoked share's id names nothing new
    link_seq     INTEGER NOT NULL,
    token_hash   BLOB NOT NULL UNIQUE,
    label        TEXT NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,               -- ms
    expires_at   INTEGER,                        -- ms; NULL: never
    last_used_at INTEGER                         -- ms, written at most once a minute
  );
  CREATE INDEX link_shares_by_link ON link_shares(link_seq, id);
`;

export const postgres: PostgresDialect | null = `
  CREATE TABLE link_shares (
    id           bigserial PRIMARY KEY,
    link_seq     bigint NOT NULL,
    token_hash   bytea NOT NULL UNIQUE,
    label        text NOT NULL DEFAULT '',
    created_at   bigint NOT NULL,
    expires_at   bigint,
    last_used_at bigint
  );
  CREATE INDEX link_shares_by_link ON link_shares(link_seq, id);
`;
