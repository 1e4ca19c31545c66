// Ordered schema migrations keyed by PRAGMA user_version; each runs in its own transaction,
// so a crash mid-upgrade leaves the file at the previous version, never half-migrated.

import type { Database } from "bun:sqlite";

// Append only. Never edit a migration that has shipped: add a new one.
const MIGRATIONS: readonly string[] = [
  // 1: links, raw visits (no IP, no raw User-Agent), and the rollups that stats read.
  `
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
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Applies every migration newer than the file's user_version. Refuses a file from a newer release. */
export function migrate(db: Database): void {
  const current = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  if (current > MIGRATIONS.length) {
    throw new Error(`database schema version ${current} is newer than this release understands (${MIGRATIONS.length}); use a newer shortener`);
  }
  for (let version = current + 1; version <= MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.run(MIGRATIONS[version - 1]!);
      db.run(`PRAGMA user_version = ${version}`);
    }).immediate();
  }
}
