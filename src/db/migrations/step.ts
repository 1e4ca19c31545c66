// What one migration step is: its SQLite and its PostgreSQL side, side by side in one file
// (docs/architecture.md: Migrations). A side is SQL (one or more statements), a function when the
// step needs code, or null when the step does not concern that engine.

import type { Database } from "bun:sqlite";
import type { TransactionSQL } from "bun";

/** Runs inside the step's transaction (src/db/sqlite/schema.ts). */
export type SqliteDialect = string | ((db: Database) => void);
/** Runs inside the migrations' transaction, under their advisory lock (src/db/postgres/schema.ts). */
export type PostgresDialect = string | ((tx: TransactionSQL) => Promise<void>);

export type MigrationStep = {
  readonly sqlite: SqliteDialect | null;
  readonly postgres: PostgresDialect | null;
};
