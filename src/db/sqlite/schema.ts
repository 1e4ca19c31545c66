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
  if (current >= target) return;
  // Foreign keys off while steps run (it cannot change inside a transaction): a step that builds a
  // table anew drops the old one, and with them on that drop would cascade to the rows that refer
  // to it (link_tags to links: step 13). Each step checks them before it commits instead.
  const enforced = (db.query("PRAGMA foreign_keys").get() as { foreign_keys: number }).foreign_keys === 1;
  if (enforced) db.run("PRAGMA foreign_keys = OFF");
  try {
    for (let version = current + 1; version <= target; version++) applyStep(db, steps[version - 1]!, version);
  } finally {
    if (enforced) db.run("PRAGMA foreign_keys = ON");
  }
}

function applyStep(db: Database, step: SqliteDialect, version: number): void {
  db.transaction(() => {
    if (typeof step === "string") db.run(step);
    else step(db);
    const broken = db.query("PRAGMA foreign_key_check").all();
    if (broken.length > 0) throw new Error(`schema step ${version} would leave ${broken.length} rows whose references name nothing`);
    db.run(`PRAGMA user_version = ${version}`);
  }).immediate();
}
