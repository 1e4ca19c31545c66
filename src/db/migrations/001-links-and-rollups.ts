// Step 1: links, raw visits (no IP, no raw User-Agent), and the rollups that stats read.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  CREATE TABLE links (
    id         TEXT PRIMARY KEY,      -- generated id or custom alias; case-sensitive (BINARY)
    url        TEXT NOT NULL,         -- exactly as submitted (trimmed)
    created_at INTEGER NOT NULL       -- ms since the Unix epoch
  );

  CREATE TABLE visits (
    link_id      TEXT NOT NULL,         -- links.id (no FOREIGN KEY: its check costs every insert, and links are never deleted)
    ts           INTEGER NOT NULL,    -- ms since the Unix epoch
    browser      TEXT NOT NULL,
    os           TEXT NOT NULL,
    device       TEXT NOT NULL,
    country      TEXT NOT NULL,       -- ISO 3166-1 alpha-2 or 'Unknown'
    referrer     TEXT NOT NULL,       -- referring host or 'Direct'
    utm_source   TEXT,
    utm_medium   TEXT,
    utm_campaign TEXT,
    is_bot       INTEGER NOT NULL
  );
  CREATE INDEX visits_by_link_time ON visits(link_id, ts);

  -- Per link and UTC day: what visitsByDate and the totals read.
  CREATE TABLE daily_rollup (
    link_id TEXT NOT NULL,
    day     TEXT NOT NULL,            -- YYYY-MM-DD, UTC
    total   INTEGER NOT NULL,
    bots    INTEGER NOT NULL,
    PRIMARY KEY (link_id, day)
  ) WITHOUT ROWID;

  -- Per link, dimension (browser, os, device, country, referrer), day and value.
  CREATE TABLE dimension_rollup (
    link_id   TEXT NOT NULL,
    dimension TEXT NOT NULL,
    day       TEXT NOT NULL,
    name      TEXT NOT NULL,
    total     INTEGER NOT NULL,
    bots      INTEGER NOT NULL,
    PRIMARY KEY (link_id, dimension, day, name)
  ) WITHOUT ROWID;

  -- Per link, day and (source, medium, campaign); '' stands for an absent parameter because
  -- NULLs are never equal in a primary key.
  CREATE TABLE utm_rollup (
    link_id  TEXT NOT NULL,
    day      TEXT NOT NULL,
    source   TEXT NOT NULL,
    medium   TEXT NOT NULL,
    campaign TEXT NOT NULL,
    total    INTEGER NOT NULL,
    bots     INTEGER NOT NULL,
    PRIMARY KEY (link_id, day, source, medium, campaign)
  ) WITHOUT ROWID;
  `;

// PostgreSQL has no step here: it began at step 5, which makes at once everything steps 1 to 5 make
// in SQLite.
export const postgres: PostgresDialect | null = null;
