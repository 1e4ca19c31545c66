// Applies SQLite's side of the migrations (src/db/migrations/index.ts), keyed by PRAGMA
// user_version; each runs in its own transaction, so a crash mid-upgrade leaves the file at the
// previous version, never half-migrated.

import type { Database } from "bun:sqlite";
import { SQLITE_STEPS } from "../migrations/versions.ts";
import type { SqliteDialect } from "../migrations/step.ts";

export const SCHEMA_VERSION = SQLITE_STEPS.length;

/**
 * Applies every step newer than the file's user_version (up to `target`, for tests that build an
 * older file). Refuses a file from a newer release.
 */
export function migrate(db: Database, target = SQLITE_STEPS.length, steps: readonly SqliteDialect[] = SQLITE_STEPS): void {
  const current = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  if (current > steps.length) {
    throw new Error(`database schema version ${current} is newer than this release understands (${steps.length}); use a newer shortener`);
  }
  for (let version = current + 1; version <= target; version++) {
    const step = steps[version - 1]!;
    db.transaction(() => {
      if (typeof step === "string") db.run(step);
      else step(db);
      db.run(`PRAGMA user_version = ${version}`);
    }).immediate();
  }
}
