// Step 14: a title per link (src/links/title.ts; docs/link-titles.md: Link titles), and the list's
// search over it. SQLite's search index is made anew with a title column and left empty: the
// recorder thread's indexer fills it in its batches (src/db/sqlite/search-index.ts), and until it
// has, a search scans the links not yet indexed, as it does for new links. So the step is quick
// on a large file, and searches stay right meanwhile, only slower.
// PostgreSQL's trigram index over titles is made with the others, when pg_trgm can be had
// (src/db/postgres/schema.ts).

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  ALTER TABLE links ADD COLUMN title TEXT;
  DROP TRIGGER links_search_delete;
  DROP TRIGGER links_search_update;
  DROP TABLE links_search;
  CREATE VIRTUAL TABLE links_search USING fts5(id, url, title, content = 'links', content_rowid = 'seq', tokenize = 'trigram');
  UPDATE links_search_state SET indexed_upto = 0;
  CREATE TRIGGER links_search_delete AFTER DELETE ON links
    WHEN old.seq <= (SELECT indexed_upto FROM links_search_state) BEGIN
    INSERT INTO links_search (links_search, rowid, id, url, title) VALUES ('delete', old.seq, old.id, old.url, old.title);
  END;
  CREATE TRIGGER links_search_update AFTER UPDATE OF url, title ON links
    WHEN old.seq <= (SELECT indexed_upto FROM links_search_state) BEGIN
    INSERT INTO links_search (links_search, rowid, id, url, title) VALUES ('delete', old.seq, old.id, old.url, old.title);
    INSERT INTO links_search (rowid, id, url, title) VALUES (new.seq, new.id, new.url, new.title);
  END;
`;

export const postgres: PostgresDialect | null = `
  ALTER TABLE links ADD COLUMN title text;
`;
