// Step 7: links that think (docs/redirect-rules.md: Redirect rules): rules and a split as JSON, a
// password's hash, the redirect code, a start, a fallback and the robots.txt flag. NULL and the
// defaults are a plain link, so every existing link stays what it was. Rules and fallbacks are
// counted as dimensions ('rule', 'variant', 'fallback') of dimension_rollup: no new table of link
// data.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  ALTER TABLE links ADD COLUMN rules TEXT;            -- JSON array of rules (src/links/rules.ts); NULL = none
  ALTER TABLE links ADD COLUMN variants TEXT;         -- JSON array of {url, weight}; NULL = no split
  ALTER TABLE links ADD COLUMN password_hash TEXT;    -- argon2id (Bun.password); the password itself is never stored
  ALTER TABLE links ADD COLUMN redirect_type INTEGER NOT NULL DEFAULT 302;
  ALTER TABLE links ADD COLUMN valid_from INTEGER;    -- ms; before it the link answers like an unknown id
  ALTER TABLE links ADD COLUMN fallback_url TEXT;     -- where an expired or disabled link sends visitors
  ALTER TABLE links ADD COLUMN crawlable INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX links_crawlable ON links(id) WHERE crawlable = 1;
  `;

// PostgreSQL: the same columns and index, in its types.
export const postgres: PostgresDialect | null = `
  ALTER TABLE links ADD COLUMN rules text;
  ALTER TABLE links ADD COLUMN variants text;
  ALTER TABLE links ADD COLUMN password_hash text;
  ALTER TABLE links ADD COLUMN redirect_type smallint NOT NULL DEFAULT 302;
  ALTER TABLE links ADD COLUMN valid_from bigint;
  ALTER TABLE links ADD COLUMN fallback_url text;
  ALTER TABLE links ADD COLUMN crawlable smallint NOT NULL DEFAULT 0;
  CREATE INDEX links_crawlable ON links(id) WHERE crawlable = 1;
  `;
