// Step 9: links and visits brought over from another shortener (docs/importing.md: Moving from
// another shortener). What an import wrote is remembered, so that running it again changes nothing
// and an interrupted one goes on where it stopped: the source's code of every link (import_links,
// gone with the link), and how far its visits are (import_cursors). Imported visits are marked, in
// the raw rows and in the daily counts, and never count as unique visitors.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  CREATE TABLE import_links (
    source  TEXT NOT NULL,               -- which import: kind and where, e.g. "yourls mysql://host/db yourls_"
    code    TEXT NOT NULL,               -- the link's key there (domain/code where the source has domains)
    link_id TEXT NOT NULL,               -- links.id here (the same code, or its new id after a rename)
    PRIMARY KEY (source, code)
  ) WITHOUT ROWID;
  CREATE INDEX import_links_by_link ON import_links(link_id);
  CREATE TABLE import_cursors (
    source TEXT NOT NULL,
    scope  TEXT NOT NULL,                -- "visits" (one for the source) or a link's own, as the source reads them
    cursor TEXT NOT NULL,                -- the source's: the last row read, the visits taken, the last day counted
    PRIMARY KEY (source, scope)
  ) WITHOUT ROWID;
  ALTER TABLE visit_batches ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;  -- 1: visits an import wrote
  ALTER TABLE daily_rollup ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;   -- of total, the clicks imported
  `;

// PostgreSQL: the same tables and columns.
export const postgres: PostgresDialect | null = `
  CREATE TABLE import_links (
    source  text COLLATE "C" NOT NULL,
    code    text COLLATE "C" NOT NULL,
    link_id text COLLATE "C" NOT NULL,
    PRIMARY KEY (source, code)
  );
  CREATE INDEX import_links_by_link ON import_links(link_id);
  -- COLLATE "C": cursors are looked up by a prefix of their scope (byte order, whatever the locale).
  CREATE TABLE import_cursors (
    source text COLLATE "C" NOT NULL,
    scope  text COLLATE "C" NOT NULL,
    cursor text NOT NULL,
    PRIMARY KEY (source, scope)
  );
  ALTER TABLE visit_batches ADD COLUMN imported smallint NOT NULL DEFAULT 0;
  ALTER TABLE daily_rollup ADD COLUMN imported bigint NOT NULL DEFAULT 0;
  `;
