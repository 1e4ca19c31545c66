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

  // 2: raw visits stored as one row per link and write batch (a JSON array of visits) instead of a
  // row each. Under load a batch holds hundreds of visits; one insert and one index entry for all of
  // them cost 1.1 instead of 3.0–3.3 µs a visit (measured on the recorder's batches). `visits` stays
  // as a view with the old columns, for ad-hoc SQL and for anyone's saved queries.
  `
  CREATE TABLE visit_batches (
    id       INTEGER PRIMARY KEY,
    link_id  TEXT NOT NULL,
    first_ts INTEGER NOT NULL,          -- ms since the Unix epoch, of the batch's first and last visit
    last_ts  INTEGER NOT NULL,
    humans   INTEGER NOT NULL,          -- visits that are not bots: lets "bots excluded" skip a batch
    visits   TEXT NOT NULL              -- JSON: [[ts, browser, os, device, country, referrer,
                                        --         utm_source, utm_medium, utm_campaign, is_bot], ...]
  );
  CREATE INDEX visit_batches_by_link_time ON visit_batches(link_id, last_ts);

  -- Existing rows in runs of 200 per link, oldest first (MAX_VISITS_PER_ROW in visit-batch.ts).
  INSERT INTO visit_batches (link_id, first_ts, last_ts, humans, visits)
    SELECT link_id, MIN(ts), MAX(ts), SUM(is_bot = 0),
           json_group_array(json_array(ts, browser, os, device, country, referrer, utm_source, utm_medium, utm_campaign, is_bot))
    FROM (SELECT *, (ROW_NUMBER() OVER (PARTITION BY link_id ORDER BY ts, rowid) - 1) / 200 AS run
          FROM visits ORDER BY link_id, ts, rowid)
    GROUP BY link_id, run
    ORDER BY link_id, run;
  DROP TABLE visits;

  CREATE VIEW visits AS
    SELECT b.link_id AS link_id,
           json_extract(v.value, '$[0]') AS ts, json_extract(v.value, '$[1]') AS browser,
           json_extract(v.value, '$[2]') AS os, json_extract(v.value, '$[3]') AS device,
           json_extract(v.value, '$[4]') AS country, json_extract(v.value, '$[5]') AS referrer,
           json_extract(v.value, '$[6]') AS utm_source, json_extract(v.value, '$[7]') AS utm_medium,
           json_extract(v.value, '$[8]') AS utm_campaign, json_extract(v.value, '$[9]') AS is_bot
    FROM visit_batches AS b, json_each(b.visits) AS v;
  `,

  // 3: owners manage their instance. Links get a stable row number (seq: the search index and list
  // cursors refer to it; VACUUM may renumber an implicit rowid), their limits and state, the key that
  // created them, and totals kept by the recorder in the same transaction as the rollups (so the
  // list can sort 100,000 links by clicks from an index). Deleted ids are retired for ever.
  `
  CREATE TABLE api_keys (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL,
    scope        TEXT NOT NULL CHECK (scope IN ('admin', 'create')),
    hash         BLOB NOT NULL UNIQUE,  -- SHA-256 of the key: the lookup; the key itself is never stored
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER
  );
  -- A name is unique among the keys in use; a revoked key's name can be given to a new key.
  CREATE UNIQUE INDEX api_keys_active_name ON api_keys(name) WHERE revoked_at IS NULL;

  CREATE TABLE links_v3 (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: the search index and cursors rely on it
    id            TEXT NOT NULL UNIQUE,   -- generated id or custom alias; case-sensitive (BINARY)
    url           TEXT NOT NULL,
    created_at    INTEGER NOT NULL,       -- ms since the Unix epoch
    owner_key_id  INTEGER,                -- api_keys.id of the creating key; NULL = public; 0 = the systemd credential
    expires_at    INTEGER,                -- ms; the link answers 410 from this instant on
    max_clicks    INTEGER,
    disabled      INTEGER NOT NULL DEFAULT 0,
    blocked       INTEGER NOT NULL DEFAULT 0, -- matches --blocklist (recomputed when the file is reloaded)
    total_clicks  INTEGER NOT NULL DEFAULT 0,
    human_clicks  INTEGER NOT NULL DEFAULT 0,
    last_click_at INTEGER NOT NULL DEFAULT 0  -- ms; 0 = never clicked
  );
  INSERT INTO links_v3 (id, url, created_at, total_clicks, human_clicks, last_click_at)
    SELECT l.id, l.url, l.created_at, COALESCE(d.total, 0), COALESCE(d.total - d.bots, 0), COALESCE(b.last_ts, 0)
    FROM links AS l
    LEFT JOIN (SELECT link_id, SUM(total) AS total, SUM(bots) AS bots FROM daily_rollup GROUP BY link_id) AS d ON d.link_id = l.id
    LEFT JOIN (SELECT link_id, MAX(last_ts) AS last_ts FROM visit_batches GROUP BY link_id) AS b ON b.link_id = l.id
    ORDER BY l.created_at, l.rowid;
  DROP TABLE links;
  ALTER TABLE links_v3 RENAME TO links;
  CREATE INDEX links_by_created ON links(created_at, seq);
  CREATE INDEX links_by_clicks ON links(total_clicks, seq);
  CREATE INDEX links_by_last_click ON links(last_click_at, seq);
  CREATE INDEX links_by_owner ON links(owner_key_id, created_at, seq);

  CREATE TABLE link_tags (
    link_seq INTEGER NOT NULL REFERENCES links(seq) ON DELETE CASCADE,
    tag      TEXT NOT NULL,
    PRIMARY KEY (tag, link_seq)
  ) WITHOUT ROWID;
  CREATE INDEX link_tags_by_link ON link_tags(link_seq);

  -- A deleted link's id never leads anywhere again: not by a new alias, not by the generator.
  CREATE TABLE retired_ids (
    id         TEXT PRIMARY KEY,
    retired_at INTEGER NOT NULL
  ) WITHOUT ROWID;

  -- Substring search over ids and destinations (src/links/search.ts): trigrams, case-insensitive.
  -- New links are indexed in batches by the recorder thread (src/links/search-index.ts): one
  -- segment per create cost 90-115 µs a create, a batch about 20 µs a link. Rows up to
  -- indexed_upto are in the index; edits and deletes of those keep it current at once.
  CREATE VIRTUAL TABLE links_search USING fts5(id, url, content = 'links', content_rowid = 'seq', tokenize = 'trigram');
  CREATE TABLE links_search_state (indexed_upto INTEGER NOT NULL);
  -- The links of an upgraded file are indexed here, at once (about 2 s per 100,000).
  INSERT INTO links_search (links_search) VALUES ('rebuild');
  INSERT INTO links_search_state (indexed_upto) SELECT COALESCE(MAX(seq), 0) FROM links;
  CREATE TRIGGER links_search_delete AFTER DELETE ON links
    WHEN old.seq <= (SELECT indexed_upto FROM links_search_state) BEGIN
    INSERT INTO links_search (links_search, rowid, id, url) VALUES ('delete', old.seq, old.id, old.url);
  END;
  CREATE TRIGGER links_search_update AFTER UPDATE OF url ON links
    WHEN old.seq <= (SELECT indexed_upto FROM links_search_state) BEGIN
    INSERT INTO links_search (links_search, rowid, id, url) VALUES ('delete', old.seq, old.id, old.url);
    INSERT INTO links_search (rowid, id, url) VALUES (new.seq, new.id, new.url);
  END;
  `,

  // 4: the owner's dashboard. Sessions of a signed-in browser, by the hash of their cookie; and
  // daily rollups by day, for the overview's clicks of the last days over every link.
  `
  CREATE TABLE sessions (
    token_hash   BLOB PRIMARY KEY,      -- SHA-256 of the cookie's value; the value itself is never stored
    key_hash     BLOB NOT NULL,         -- SHA-256 of the key signed in with: a revoked key ends its sessions
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL       -- a session ends 30 days after its last use
  ) WITHOUT ROWID;
  CREATE INDEX daily_rollup_by_day ON daily_rollup(day, link_id, total);
  `,

  // 5: unique visitors without storing anyone, and an hourly view. A visitor is a hash of a daily
  // salt, the link, the client address and the User-Agent (src/visits/visitor-id.ts); the salt and
  // the keys seen are kept only while their day lasts (and an hour after), then deleted. What stays
  // is counts.
  `
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
  `,

  // 6: deleting a link left its hourly rollups behind (the delete now takes them too): the rows of
  // links that no longer exist go.
  `
  DELETE FROM hourly_rollup WHERE link_id NOT IN (SELECT id FROM links);
  `,

  // 7: links that think (docs/redirect-rules.md: Redirect rules): rules and a split as JSON, a password's hash, the
  // redirect code, a start, a fallback and the robots.txt flag. NULL and the defaults are a plain
  // link, so every existing link stays what it was. Rules and fallbacks are counted as dimensions
  // ('rule', 'variant', 'fallback') of dimension_rollup: no new table of link data.
  `
  ALTER TABLE links ADD COLUMN rules TEXT;            -- JSON array of rules (src/links/rules.ts); NULL = none
  ALTER TABLE links ADD COLUMN variants TEXT;         -- JSON array of {url, weight}; NULL = no split
  ALTER TABLE links ADD COLUMN password_hash TEXT;    -- argon2id (Bun.password); the password itself is never stored
  ALTER TABLE links ADD COLUMN redirect_type INTEGER NOT NULL DEFAULT 302;
  ALTER TABLE links ADD COLUMN valid_from INTEGER;    -- ms; before it the link answers like an unknown id
  ALTER TABLE links ADD COLUMN fallback_url TEXT;     -- where an expired or disabled link sends visitors
  ALTER TABLE links ADD COLUMN crawlable INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX links_crawlable ON links(id) WHERE crawlable = 1;
  `,

  // 8: people sign in (docs/sign-in.md: Signing in). A user comes from an OpenID provider (source: the
  // issuer, subject: its sub) or a trusted proxy (source 'header' or 'tailscale', subject: the
  // name it sends). A link belongs to the user who made it (by the browser, or by a key made for
  // them); a session belongs to a user or to the key pasted in, never both.
  `
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
  `,

  // 9: links and visits brought over from another shortener (docs/importing.md: Moving from another
  // shortener). What an import wrote is remembered, so that running it again changes nothing and an
  // interrupted one goes on where it stopped: the source's code of every link (import_links, gone
  // with the link), and how far its visits are (import_cursors). Imported visits are marked, in the
  // raw rows and in the daily counts, and never count as unique visitors.
  `
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
  `,
  // 10: events (docs/webhooks.md: Webhooks). A change writes its event to the outbox (events) in its own
  // transaction; the delivery thread fans each event out to the webhooks that want it
  // (webhook_deliveries, kept 7 days as the delivery log) and moves its mark. Marks: "events", the
  // last event fanned out; "expiry", up to when expired links were announced.
  `
  CREATE TABLE webhooks (
    id              INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: a deleted webhook's id names nothing new
    url             TEXT NOT NULL,
    events          TEXT NOT NULL,           -- the event types it wants, space-separated
    link_id         TEXT,                    -- only this link's events (kept when the link goes: it still hears link.deleted)
    tag             TEXT,                    -- only events of links with this tag
    secret          TEXT NOT NULL,           -- whsec_...: kept as signing needs it, shown once, never logged
    enabled         INTEGER NOT NULL DEFAULT 1,
    disabled_reason TEXT,
    created_at      INTEGER NOT NULL
  );
  CREATE TABLE events (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    type    TEXT NOT NULL,
    link_id TEXT,                            -- the link the event is about (kept after a delete: link.deleted names it)
    tags    TEXT,                            -- the link's tags then, space-separated; NULL: read at fan-out (clicks)
    at      INTEGER NOT NULL,                -- ms
    data    TEXT NOT NULL                    -- the payload's data, JSON
  );
  CREATE TABLE webhook_deliveries (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id       INTEGER NOT NULL,
    message_id       TEXT NOT NULL,          -- webhook-id: the same on every attempt and redelivery
    type             TEXT NOT NULL,
    created_at       INTEGER NOT NULL,
    body             TEXT NOT NULL,          -- {type, timestamp, data} as sent (signed as these bytes)
    clicks           INTEGER NOT NULL DEFAULT 0, -- link.clicks: how many it itemizes
    joinable         INTEGER NOT NULL DEFAULT 0, -- 1: a link.clicks bundle that later clicks join until it is first sent (never a redelivery)
    state            TEXT NOT NULL DEFAULT 'pending', -- pending, delivered, failed
    attempts         INTEGER NOT NULL DEFAULT 0,
    first_attempt_at INTEGER,
    last_attempt_at  INTEGER,
    next_at          INTEGER NOT NULL,       -- not before (backoff, Retry-After)
    claimed_until    INTEGER NOT NULL DEFAULT 0, -- an instance is sending it until then
    response_code    INTEGER,
    error            TEXT
  );
  CREATE INDEX deliveries_queue ON webhook_deliveries(webhook_id, id) WHERE state = 'pending';
  CREATE INDEX deliveries_by_webhook ON webhook_deliveries(webhook_id, id);
  CREATE INDEX deliveries_by_age ON webhook_deliveries(created_at);
  CREATE TABLE event_marks (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO event_marks (name, value) VALUES ('events', 0), ('expiry', CAST(unixepoch('subsec') * 1000 AS INTEGER));
  CREATE INDEX links_by_expiry ON links(expires_at) WHERE expires_at IS NOT NULL;
  `,
  // 11: the instances of the service that run on this database and what they allow (src/instances/
  // registry.ts), so that a command learns what the service will do: `shortener webhook add` refuses a
  // receiver the service would never reach (docs/webhooks.md: Webhooks, "Where webhooks may post").
  `
  CREATE TABLE instances (
    name                  TEXT PRIMARY KEY,  -- host:port, the same again after a restart
    started_at            INTEGER NOT NULL,  -- ms
    seen_at               INTEGER NOT NULL,  -- renewed every minute while it runs
    stopped_at            INTEGER,           -- a clean stop; NULL while it runs (or after it was killed)
    webhook_allow_private INTEGER NOT NULL   -- 1: started with --webhook-allow-private
  ) WITHOUT ROWID;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Applies every migration newer than the file's user_version (up to `target`, for tests that build
 * an older file). Refuses a file from a newer release.
 */
export function migrate(db: Database, target = MIGRATIONS.length): void {
  const current = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  if (current > MIGRATIONS.length) {
    throw new Error(`database schema version ${current} is newer than this release understands (${MIGRATIONS.length}); use a newer shortener`);
  }
  for (let version = current + 1; version <= target; version++) {
    db.transaction(() => {
      db.run(MIGRATIONS[version - 1]!);
      db.run(`PRAGMA user_version = ${version}`);
    }).immediate();
  }
}
