// A real SQLite file in a temp folder, migrated, for unit tests of the storage parts.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import { openDatabase } from "../../src/db/sqlite/open.ts";

export type TempDb = { db: Database; path: string; dispose: () => void };

export function tempDatabase(): TempDb {
  const dir = mkdtempSync(join(tmpdir(), "shortener-unit-"));
  const path = join(dir, "s.db");
  const db = openDatabase(path);
  return {
    db,
    path,
    dispose: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
