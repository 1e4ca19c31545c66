// Step 13: several domains (docs/several-domains.md: Several domains). Domains are kept with what
// they do besides their links, and a link's alias is unique within its domain only: links.id loses
// its own UNIQUE for UNIQUE (domain, id). Every link of an older database stays on the default
// domain (stored as ''), with its seq, its tags and its statistics untouched.
//
// SQLite cannot drop a column's UNIQUE, so links is built anew (SQLite's "making other kinds of
// table schema changes"): the copy keeps every seq, AUTOINCREMENT's high mark is kept (a retired
// seq is never given again), the indexes and the search index's triggers are made again, and
// link_tags' REFERENCES names the new table (the migrations run with foreign keys off and check
// them before each commit: src/db/sqlite/schema.ts).

import type { PostgresDialect, SqliteDialect } from "./step.ts";

const LINK_COLUMNS = `seq, id, url, created_at, owner_key_id, expires_at, max_clicks, disabled, blocked, total_clicks,
  human_clicks, last_click_at, rules, variants, password_hash, redirect_type, valid_from, fallback_url, crawlable, owner_user_id, domain`;

export const sqlite: SqliteDialect | null = `
  CREATE TABLE domains (
    name               TEXT PRIMARY KEY,          -- lower-case host, no port (src/domains/domain.ts)
    is_default         INTEGER NOT NULL DEFAULT 0, -- its links are stored with domain ''
    https              INTEGER NOT NULL DEFAULT 1, -- short URLs https:// (1) or http:// (0)
    root_redirect      TEXT,                      -- NULL: the instance's --root-redirect
    not_found_redirect TEXT,                      -- NULL: the instance's --not-found-redirect
    fallback_redirect  TEXT,                      -- NULL: the gone page
    robots             TEXT,                      -- links, none or all; NULL: links
    creators           TEXT,                      -- JSON {"users":[…],"keys":[…]}; NULL: every creator
    created_at         INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE UNIQUE INDEX domains_one_default ON domains(is_default) WHERE is_default = 1;

  CREATE TEMP TABLE links_high_13 AS SELECT seq FROM sqlite_sequence WHERE name = 'links';
  CREATE TABLE links_13 (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: the search index and cursors rely on it
    id            TEXT NOT NULL,          -- generated id or custom alias; case-sensitive (BINARY); unique in its domain
    url           TEXT NOT NULL,
    created_at    INTEGER NOT NULL,       -- ms since the Unix epoch
    owner_key_id  INTEGER,                -- api_keys.id of the creating key; NULL = public; 0 = the systemd credential
    expires_at    INTEGER,                -- ms; the link answers 410 from this instant on
    max_clicks    INTEGER,
    disabled      INTEGER NOT NULL DEFAULT 0,
    blocked       INTEGER NOT NULL DEFAULT 0, -- matches --blocklist (recomputed when the file is reloaded)
    total_clicks  INTEGER NOT NULL DEFAULT 0,
    human_clicks  INTEGER NOT NULL DEFAULT 0,
    last_click_at INTEGER NOT NULL DEFAULT 0, -- ms; 0 = never clicked
    rules         TEXT,
    variants      TEXT,
    password_hash TEXT,
    redirect_type INTEGER NOT NULL DEFAULT 302,
    valid_from    INTEGER,
    fallback_url  TEXT,
    crawlable     INTEGER NOT NULL DEFAULT 0,
    owner_user_id INTEGER,
    domain        TEXT NOT NULL DEFAULT '', -- domains.name; '' the default domain
    UNIQUE (domain, id)
  );
  INSERT INTO links_13 (${LINK_COLUMNS}) SELECT ${LINK_COLUMNS} FROM links ORDER BY seq;
  DROP TABLE links;
  ALTER TABLE links_13 RENAME TO links;
  UPDATE sqlite_sequence SET seq = (SELECT seq FROM links_high_13)
    WHERE name = 'links' AND seq < (SELECT seq FROM links_high_13);
  INSERT INTO sqlite_sequence (name, seq) SELECT 'links', seq FROM links_high_13
    WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'links');
  DROP TABLE links_high_13;

  CREATE INDEX links_by_created ON links(created_at, seq);
  CREATE INDEX links_by_clicks ON links(total_clicks, seq);
  CREATE INDEX links_by_last_click ON links(last_click_at, seq);
  CREATE INDEX links_by_owner ON links(owner_key_id, created_at, seq);
  CREATE INDEX links_by_owner_user ON links(owner_user_id, created_at, seq) WHERE owner_user_id IS NOT NULL;
  CREATE INDEX links_by_expiry ON links(expires_at) WHERE expires_at IS NOT NULL;
  CREATE INDEX links_crawlable ON links(domain, id) WHERE crawlable = 1;
  CREATE INDEX links_by_domain ON links(domain, created_at, seq);
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

export const postgres: PostgresDialect | null = `
  CREATE TABLE domains (
    name               text COLLATE "C" PRIMARY KEY,
    is_default         smallint NOT NULL DEFAULT 0,
    https              smallint NOT NULL DEFAULT 1,
    root_redirect      text,
    not_found_redirect text,
    fallback_redirect  text,
    robots             text,
    creators           text,
    created_at         bigint NOT NULL
  );
  CREATE UNIQUE INDEX domains_one_default ON domains(is_default) WHERE is_default = 1;
  ALTER TABLE links DROP CONSTRAINT links_id_key;
  ALTER TABLE links ADD CONSTRAINT links_domain_id_key UNIQUE (domain, id);
  DROP INDEX links_crawlable;
  CREATE INDEX links_crawlable ON links(domain, id) WHERE crawlable = 1;
  CREATE INDEX links_by_domain ON links(domain, created_at, seq);
`;
