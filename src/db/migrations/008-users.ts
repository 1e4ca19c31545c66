// Step 8: people sign in (docs/sign-in.md: Signing in). A user comes from an OpenID provider
// (source: the issuer, subject: its sub) or a trusted proxy (source 'header' or 'tailscale',
// subject: the name it sends). A link belongs to the user who made it (by the browser, or by a key
// made for them); a session belongs to a user or to the key pasted in, never both.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  CREATE TABLE users (
    id           INTEGER PRIMARY KEY,
    source       TEXT NOT NULL,
    subject      TEXT NOT NULL,
    name         TEXT NOT NULL,           -- preferred_username, else email, else sub; or the header's name
    email        TEXT,
    admin        INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    disabled_at  INTEGER,                 -- set: refused everywhere, sessions gone
    UNIQUE (source, subject)
  );
  CREATE INDEX users_by_name ON users(name);
  ALTER TABLE api_keys ADD COLUMN user_id INTEGER;   -- users.id: the key acts as that user (their links)
  ALTER TABLE links ADD COLUMN owner_user_id INTEGER; -- users.id of the maker; NULL: a key's or public
  CREATE INDEX links_by_owner_user ON links(owner_user_id, created_at, seq) WHERE owner_user_id IS NOT NULL;

  CREATE TABLE sessions_v8 (
    token_hash   BLOB PRIMARY KEY,
    key_hash     BLOB,                    -- a session of a pasted key: revoking the key ends it
    user_id      INTEGER,                 -- a session of a signed-in user: disabling them ends it
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    CHECK ((key_hash IS NULL) <> (user_id IS NULL))
  ) WITHOUT ROWID;
  INSERT INTO sessions_v8 (token_hash, key_hash, created_at, last_used_at) SELECT token_hash, key_hash, created_at, last_used_at FROM sessions;
  DROP TABLE sessions;
  ALTER TABLE sessions_v8 RENAME TO sessions;
  CREATE INDEX sessions_by_user ON sessions(user_id) WHERE user_id IS NOT NULL;
  `;

// PostgreSQL: the same; its sessions table is altered in place (a NOT NULL dropped, a CHECK added)
// where SQLite rebuilds it.
export const postgres: PostgresDialect | null = `
  CREATE TABLE users (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source       text NOT NULL,
    subject      text NOT NULL,
    name         text NOT NULL,
    email        text,
    admin        smallint NOT NULL DEFAULT 0,
    created_at   bigint NOT NULL,
    last_seen_at bigint NOT NULL,
    disabled_at  bigint,
    UNIQUE (source, subject)
  );
  CREATE INDEX users_by_name ON users(name);
  ALTER TABLE api_keys ADD COLUMN user_id bigint;
  ALTER TABLE links ADD COLUMN owner_user_id bigint;
  CREATE INDEX links_by_owner_user ON links(owner_user_id, created_at, seq) WHERE owner_user_id IS NOT NULL;
  ALTER TABLE sessions ALTER COLUMN key_hash DROP NOT NULL;
  ALTER TABLE sessions ADD COLUMN user_id bigint;
  ALTER TABLE sessions ADD CONSTRAINT sessions_one_owner CHECK ((key_hash IS NULL) <> (user_id IS NULL));
  CREATE INDEX sessions_by_user ON sessions(user_id) WHERE user_id IS NOT NULL;
  `;
