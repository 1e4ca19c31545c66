// Step 5: unique visitors without storing anyone, and an hourly view. A visitor is a hash of a
// daily salt, the link, the client address and the User-Agent (src/visits/visitor-id.ts); the salt
// and the keys seen are kept only while their day lasts (and an hour after), then deleted. What
// stays is counts.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  ALTER TABLE daily_rollup ADD COLUMN uniques INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE daily_rollup ADD COLUMN unique_bots INTEGER NOT NULL DEFAULT 0;

  -- Per link and UTC hour: what visitsByHour reads.
  CREATE TABLE hourly_rollup (
    link_id     TEXT NOT NULL,
    hour        TEXT NOT NULL,          -- YYYY-MM-DDTHH, UTC
    total       INTEGER NOT NULL,
    bots        INTEGER NOT NULL,
    uniques     INTEGER NOT NULL,
    unique_bots INTEGER NOT NULL,
    PRIMARY KEY (link_id, hour)
  ) WITHOUT ROWID;

  -- One random salt per UTC day; deleted an hour after its day is over (late clicks of a batch).
  CREATE TABLE visitor_salts (
    day  TEXT PRIMARY KEY,             -- YYYY-MM-DD
    salt BLOB NOT NULL
  ) WITHOUT ROWID;

  -- The salted visitor keys first seen per day and per hour, appended a batch at a time (the set
  -- itself lives in the recorder's memory; these rows rebuild it after a restart). Deleted an hour
  -- after their day or hour is over, with the day's salt at the latest.
  CREATE TABLE visitors_seen (
    bucket   TEXT NOT NULL,            -- YYYY-MM-DD or YYYY-MM-DDTHH, UTC
    visitors BLOB NOT NULL             -- 52-bit keys of SHA-256(salt, link, address, User-Agent), 8 bytes each
  );
  CREATE INDEX visitors_seen_by_bucket ON visitors_seen(bucket);
  `;

// PostgreSQL began here (its version 1): everything SQLite's steps 1 to 5 hold, in one step. Times
// are ms since the Unix epoch (bigint); days and hours are UTC text (YYYY-MM-DD, YYYY-MM-DDTHH)
// compared byte-wise (COLLATE "C"); flags are smallint 0/1, so that the SQL the engines share (the
// link list's filters) reads the same.
export const postgres: PostgresDialect | null = `
  CREATE TABLE api_keys (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name         text NOT NULL,
    scope        text NOT NULL CHECK (scope IN ('admin', 'create')),
    hash         bytea NOT NULL UNIQUE,     -- SHA-256 of the key; the key itself is never stored
    created_at   bigint NOT NULL,
    last_used_at bigint,
    revoked_at   bigint
  );
  CREATE UNIQUE INDEX api_keys_active_name ON api_keys(name) WHERE revoked_at IS NULL;

  CREATE TABLE links (
    seq             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- never reused: list cursors rely on it
    id              text COLLATE "C" NOT NULL UNIQUE,
    url             text NOT NULL,
    created_at      bigint NOT NULL,
    owner_key_id    bigint,             -- api_keys.id; NULL = public; 0 = the systemd credential
    expires_at      bigint,
    max_clicks      bigint,
    disabled        smallint NOT NULL DEFAULT 0,
    blocked         smallint NOT NULL DEFAULT 0,
    total_clicks    bigint NOT NULL DEFAULT 0,
    human_clicks    bigint NOT NULL DEFAULT 0,
    last_click_at   bigint NOT NULL DEFAULT 0,
    -- Clicks let through while the link had a click limit, counted by every instance at the
    -- moment it answers (the recorded total lags by a flush): max_clicks holds across instances.
    answered_clicks bigint NOT NULL DEFAULT 0
  );
  CREATE INDEX links_by_created ON links(created_at, seq);
  CREATE INDEX links_by_clicks ON links(total_clicks, seq);
  CREATE INDEX links_by_last_click ON links(last_click_at, seq);
  CREATE INDEX links_by_owner ON links(owner_key_id, created_at, seq);

  CREATE TABLE link_tags (
    link_seq bigint NOT NULL REFERENCES links(seq) ON DELETE CASCADE,
    tag      text COLLATE "C" NOT NULL,
    PRIMARY KEY (tag, link_seq)
  );
  CREATE INDEX link_tags_by_link ON link_tags(link_seq);

  -- Every change of a link that instances may hold in memory (edit, disable, delete, blocklist),
  -- appended in the changing transaction: what instances poll for when a NOTIFY was missed
  -- (link-changes.ts). Rows go after an hour.
  CREATE TABLE link_changes (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    link_id    text COLLATE "C" NOT NULL,   -- a link id, or '*' for every link
    changed_at bigint NOT NULL DEFAULT (extract(epoch FROM clock_timestamp()) * 1000)::bigint
  );
  CREATE INDEX link_changes_by_time ON link_changes(changed_at);

  CREATE TABLE retired_ids (
    id         text COLLATE "C" PRIMARY KEY,
    retired_at bigint NOT NULL
  );

  CREATE TABLE visit_batches (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    link_id  text COLLATE "C" NOT NULL,
    first_ts bigint NOT NULL,
    last_ts  bigint NOT NULL,
    humans   integer NOT NULL,
    visits   text NOT NULL               -- JSON, as in SQLite (src/visits/visit-batch.ts)
  );
  CREATE INDEX visit_batches_by_link_time ON visit_batches(link_id, last_ts);

  -- One row per visit, as SQLite's view of the same name: for ad-hoc SQL and saved queries.
  CREATE VIEW visits AS
    SELECT b.link_id, (v->>0)::bigint AS ts, v->>1 AS browser, v->>2 AS os, v->>3 AS device, v->>4 AS country,
           v->>5 AS referrer, v->>6 AS utm_source, v->>7 AS utm_medium, v->>8 AS utm_campaign, (v->>9)::integer AS is_bot
    FROM visit_batches AS b, jsonb_array_elements(b.visits::jsonb) AS v;

  CREATE TABLE daily_rollup (
    link_id     text COLLATE "C" NOT NULL,
    day         text COLLATE "C" NOT NULL,
    total       bigint NOT NULL,
    bots        bigint NOT NULL,
    uniques     bigint NOT NULL DEFAULT 0,
    unique_bots bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (link_id, day)
  );
  CREATE INDEX daily_rollup_by_day ON daily_rollup(day, link_id, total);

  CREATE TABLE hourly_rollup (
    link_id     text COLLATE "C" NOT NULL,
    hour        text COLLATE "C" NOT NULL,
    total       bigint NOT NULL,
    bots        bigint NOT NULL,
    uniques     bigint NOT NULL,
    unique_bots bigint NOT NULL,
    PRIMARY KEY (link_id, hour)
  );

  CREATE TABLE dimension_rollup (
    link_id   text COLLATE "C" NOT NULL,
    dimension text COLLATE "C" NOT NULL,
    day       text COLLATE "C" NOT NULL,
    name      text COLLATE "C" NOT NULL,
    total     bigint NOT NULL,
    bots      bigint NOT NULL,
    PRIMARY KEY (link_id, dimension, day, name)
  );

  CREATE TABLE utm_rollup (
    link_id  text COLLATE "C" NOT NULL,
    day      text COLLATE "C" NOT NULL,
    source   text COLLATE "C" NOT NULL,
    medium   text COLLATE "C" NOT NULL,
    campaign text COLLATE "C" NOT NULL,
    total    bigint NOT NULL,
    bots     bigint NOT NULL,
    PRIMARY KEY (link_id, day, source, medium, campaign)
  );

  CREATE TABLE sessions (
    token_hash   bytea PRIMARY KEY,
    key_hash     bytea NOT NULL,
    created_at   bigint NOT NULL,
    last_used_at bigint NOT NULL
  );

  CREATE TABLE visitor_salts (
    day  text COLLATE "C" PRIMARY KEY,
    salt bytea NOT NULL
  );

  -- Unlike SQLite's (a set in one recorder's memory), the visitors seen are shared by every
  -- instance: one row per visitor key and day or hour, and an insert that finds the row tells
  -- that the visitor was already counted there, by whichever instance.
  CREATE TABLE visitors_seen (
    bucket  text COLLATE "C" NOT NULL,  -- YYYY-MM-DD or YYYY-MM-DDTHH, UTC
    visitor bigint NOT NULL,            -- 52 bits of SHA-256(salt, link, address, User-Agent)
    PRIMARY KEY (bucket, visitor)
  );
  `;
