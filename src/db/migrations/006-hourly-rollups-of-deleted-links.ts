// Step 6: deleting a link left its hourly rollups behind (the delete now takes them too): the rows
// of links that no longer exist go.

import type { PostgresDialect, SqliteDialect } from "./step.ts";

export const sqlite: SqliteDialect | null = `
  DELETE FROM hourly_rollup WHERE link_id NOT IN (SELECT id FROM links);
  `;

// PostgreSQL has no step here: the repair concerns SQLite files only.
export const postgres: PostgresDialect | null = null;
