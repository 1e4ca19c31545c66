// Step 11: the instances of the service that run on this database and what they allow
// (src/instances/registry.ts), so that a command learns what the service will do: `shortener
// webhook add` refuses a receiver the service would never reach
// (docs/webhooks.md: Webhooks, "Where webhooks may post").

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  CREATE TABLE instances (
    name                  TEXT PRIMARY KEY,  -- host:port, the same again after a restart
    started_at            INTEGER NOT NULL,  -- ms
    seen_at               INTEGER NOT NULL,  -- renewed every minute while it runs
    stopped_at            INTEGER,           -- a clean stop; NULL while it runs (or after it was killed)
    webhook_allow_private INTEGER NOT NULL   -- 1: started with --webhook-allow-private
  ) WITHOUT ROWID;
  `;

// PostgreSQL: the same table. Several instances share a database: every one has its row.
export const postgres: PostgresDialect | null = `
  CREATE TABLE instances (
    name                  text PRIMARY KEY,
    started_at            bigint NOT NULL,
    seen_at               bigint NOT NULL,
    stopped_at            bigint,
    webhook_allow_private smallint NOT NULL
  );
  `;
