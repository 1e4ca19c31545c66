// Step 15: a link's preview card (src/links/card.ts; docs/sharing.md: Preview cards): the title,
// description and image URL that link-preview agents (chat apps, social networks) are shown instead
// of following the redirect. Three nullable columns: no rewrite of the table on either engine, and
// nothing to fill in for the links there are.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  ALTER TABLE links ADD COLUMN card_title TEXT;
  ALTER TABLE links ADD COLUMN card_description TEXT;
  ALTER TABLE links ADD COLUMN card_image TEXT;
`;

export const postgres: PostgresDialect | null = `
  ALTER TABLE links ADD COLUMN card_title text;
  ALTER TABLE links ADD COLUMN card_description text;
  ALTER TABLE links ADD COLUMN card_image text;
`;
