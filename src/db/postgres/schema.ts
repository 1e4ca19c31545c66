// The PostgreSQL schema: the same tables as SQLite's (src/db/sqlite/schema.ts) at its current version,
// with PostgreSQL's types, in ordered migrations of their own recorded in shortener_schema.
// Several instances may start at once: the first takes an advisory lock and migrates, the others
// wait for it and find nothing left to do.

import type { TransactionSQL } from "bun";
import type { Pg } from "./connect.ts";

// Append only. Never edit a migration that has shipped: add a new one.
const MIGRATIONS: readonly string[] = [
  // 1: everything SQLite's schema 5 holds. Times are ms since the Unix epoch (bigint); days and
  // hours are UTC text (YYYY-MM-DD, YYYY-MM-DDTHH) compared byte-wise (COLLATE "C"); flags are
  // smallint 0/1, so that the SQL the engines share (the link list's filters) reads the same.
  `
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
  `,

  // 2: SQLite's 7 (links that think).
  `
  ALTER TABLE links ADD COLUMN rules text;
  ALTER TABLE links ADD COLUMN variants text;
  ALTER TABLE links ADD COLUMN password_hash text;
  ALTER TABLE links ADD COLUMN redirect_type smallint NOT NULL DEFAULT 302;
  ALTER TABLE links ADD COLUMN valid_from bigint;
  ALTER TABLE links ADD COLUMN fallback_url text;
  ALTER TABLE links ADD COLUMN crawlable smallint NOT NULL DEFAULT 0;
  CREATE INDEX links_crawlable ON links(id) WHERE crawlable = 1;
  `,

  // 3: SQLite's 8 (people sign in).
  `
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
  `,

  // 4: SQLite's 9 (imports remembered, imported visits marked).
  `
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
  `,
  // 5: SQLite's 10 (events: the outbox, webhooks, deliveries), and live_watches: which links
  // some instance's live view is watching (the recorders announce those links' clicks by NOTIFY).
  `
  CREATE TABLE webhooks (
    id              bigserial PRIMARY KEY,
    url             text NOT NULL,
    events          text NOT NULL,
    link_id         text,
    tag             text,
    secret          text NOT NULL,
    enabled         smallint NOT NULL DEFAULT 1,
    disabled_reason text,
    created_at      bigint NOT NULL
  );
  CREATE TABLE events (
    seq     bigserial PRIMARY KEY,
    type    text NOT NULL,
    link_id text,
    tags    text,
    at      bigint NOT NULL,
    data    text NOT NULL
  );
  CREATE TABLE webhook_deliveries (
    id               bigserial PRIMARY KEY,
    webhook_id       bigint NOT NULL,
    message_id       text NOT NULL,
    type             text NOT NULL,
    created_at       bigint NOT NULL,
    body             text NOT NULL,
    clicks           bigint NOT NULL DEFAULT 0,
    joinable         smallint NOT NULL DEFAULT 0,
    state            text NOT NULL DEFAULT 'pending',
    attempts         bigint NOT NULL DEFAULT 0,
    first_attempt_at bigint,
    last_attempt_at  bigint,
    next_at          bigint NOT NULL,
    claimed_until    bigint NOT NULL DEFAULT 0,
    response_code    bigint,
    error            text
  );
  CREATE INDEX deliveries_queue ON webhook_deliveries(webhook_id, id) WHERE state = 'pending';
  CREATE INDEX deliveries_by_webhook ON webhook_deliveries(webhook_id, id);
  CREATE INDEX deliveries_by_age ON webhook_deliveries(created_at);
  CREATE TABLE event_marks (name text PRIMARY KEY, value bigint NOT NULL);
  INSERT INTO event_marks (name, value) VALUES ('events', 0), ('expiry', (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
  CREATE INDEX links_by_expiry ON links(expires_at) WHERE expires_at IS NOT NULL;
  CREATE TABLE live_watches (
    instance text NOT NULL,
    link_id  text NOT NULL,                  -- "*": every link (a dashboard's live counter)
    until    bigint NOT NULL,
    PRIMARY KEY (instance, link_id)
  );
  `,
  // 6: SQLite's 11 (the instances on this database and what they allow). Several instances share a
  // database: every one has its row.
  `
  CREATE TABLE instances (
    name                  text PRIMARY KEY,
    started_at            bigint NOT NULL,
    seen_at               bigint NOT NULL,
    stopped_at            bigint,
    webhook_allow_private smallint NOT NULL
  );
  `,
];

export const PG_SCHEMA_VERSION = MIGRATIONS.length;
// Any constant both sides agree on: the advisory lock that serializes migrations across instances.
const MIGRATION_LOCK = 0x73686f72; // "shor"

/** Brings the database's schema up to date; refuses one from a newer release. */
export async function migratePostgres(sql: Pg): Promise<{ searchIndex: boolean }> {
  return await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS shortener_schema (version integer NOT NULL)`;
    const rows = await tx`SELECT version FROM shortener_schema`;
    if (rows.length === 0) await tx`INSERT INTO shortener_schema (version) VALUES (0)`;
    const current: number = rows[0]?.version ?? 0;
    if (current > MIGRATIONS.length) {
      throw new Error(`database schema version ${current} is newer than this release understands (${MIGRATIONS.length}); use a newer shortener`);
    }
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      await tx.unsafe(MIGRATIONS[version - 1]!);
      await tx`UPDATE shortener_schema SET version = ${version}`;
    }
    return { searchIndex: await trigramIndex(tx) };
  });
}

/**
 * Substring search (the list's q) uses a trigram index when the pg_trgm extension can be had: it
 * ships with PostgreSQL and is trusted, so the database's owner may create it. Without it searches
 * scan the links, which stays fast enough for tens of thousands.
 */
async function trigramIndex(tx: TransactionSQL): Promise<boolean> {
  const present = await tx`SELECT 1 FROM pg_indexes WHERE tablename = 'links' AND indexname = 'links_search_trgm'`;
  if (present.length > 0) return true;
  try {
    // A savepoint: a refused CREATE EXTENSION must not undo the migrations before it.
    await tx.savepoint(async (sp) => {
      await sp`CREATE EXTENSION IF NOT EXISTS pg_trgm`;
      await sp`CREATE INDEX links_search_trgm ON links USING gin (id gin_trgm_ops, url gin_trgm_ops)`;
    });
    return true;
  } catch {
    return false;
  }
}
