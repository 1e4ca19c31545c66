// Step 3: owners manage their instance. Links get a stable row number (seq: the search index and
// list cursors refer to it; VACUUM may renumber an implicit rowid), their limits and state, the key
// that created them, and totals kept by the recorder in the same transaction as the rollups (so the
// list can sort 100,000 links by clicks from an index). Deleted ids are retired for ever.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
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
  `;

// PostgreSQL has no step here: it began at step 5, which makes at once everything steps 1 to 5 make
// in SQLite.
export const postgres: PostgresDialect | null = null;
