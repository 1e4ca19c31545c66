// Step 17: visits to no link (docs/statistics.md: Visits to no link; src/visits/orphans.ts). Raw
// ones in batches as visit_batches keeps a link's (a JSON array of tuples a row, of one type, with
// its type, count and humans so that a page, of every type or of one, is planned without a parse), and a day's counts per type, path and bots
// or not, a day's paths past the limit summed under Other. Of no link: no link_seq, so not in
// LINK_DATA_TABLES.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  CREATE TABLE orphan_batches (
    id       INTEGER PRIMARY KEY,
    type     TEXT NOT NULL,             -- base_url, invalid_short_url, regular_404: every visit of the row's
    first_ts INTEGER NOT NULL,          -- ms since the Unix epoch, of the row's first and last visit
    last_ts  INTEGER NOT NULL,
    n        INTEGER NOT NULL,          -- visits in the row
    humans   INTEGER NOT NULL,          -- of them, not bots
    visits   TEXT NOT NULL              -- JSON: [[ts, type, path, browser, os, device, country, referrer, is_bot], ...]
  );
  CREATE INDEX orphan_batches_by_time ON orphan_batches(last_ts);
  CREATE INDEX orphan_batches_by_type ON orphan_batches(type, last_ts);
  CREATE TABLE orphan_daily (
    day    TEXT NOT NULL,               -- YYYY-MM-DD, UTC
    type   TEXT NOT NULL,               -- base_url, invalid_short_url, regular_404
    path   TEXT NOT NULL,
    is_bot INTEGER NOT NULL,
    visits INTEGER NOT NULL,
    PRIMARY KEY (day, type, path, is_bot)
  ) WITHOUT ROWID;
`;

export const postgres: PostgresDialect | null = `
  CREATE TABLE orphan_batches (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    type     text COLLATE "C" NOT NULL,
    first_ts bigint NOT NULL,
    last_ts  bigint NOT NULL,
    n        integer NOT NULL,
    humans   integer NOT NULL,
    visits   text NOT NULL              -- JSON, as in SQLite (src/visits/orphans.ts)
  );
  CREATE INDEX orphan_batches_by_time ON orphan_batches(last_ts);
  CREATE INDEX orphan_batches_by_type ON orphan_batches(type, last_ts);
  CREATE TABLE orphan_daily (
    day    text COLLATE "C" NOT NULL,
    type   text COLLATE "C" NOT NULL,
    path   text COLLATE "C" NOT NULL,
    is_bot integer NOT NULL,
    visits bigint NOT NULL,
    PRIMARY KEY (day, type, path, is_bot)
  );
`;
