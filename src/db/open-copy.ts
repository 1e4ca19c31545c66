// Opens the two sides of `shortener copy` (src/db/copy.ts) from --db and --to: each database
// brought up to this release's schema by its own migrations first, on a connection of the copy's own.

import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { engineOf } from "./storage.ts";
import { isShortenerTable } from "./shared/copy-plan.ts";
import type { CopySource, CopyTarget } from "./copy.ts";
import { openDatabase } from "./sqlite/open.ts";
import { sqliteCopySource, sqliteCopyTarget } from "./sqlite/copy.ts";
import { connectPostgres } from "./postgres/connect.ts";
import { migratePostgres } from "./postgres/schema.ts";
import { postgresCopySource, postgresCopyTarget } from "./postgres/copy.ts";

export async function openCopySource(location: string, password: string | null): Promise<CopySource> {
  if (engineOf(location) === "sqlite") return sqliteCopySource(openDatabase(location));
  return postgresCopySource(await migrated(location, password));
}

/** The target holds tables of some other application: the copy would mix shortener's into them. */
export class ForeignTarget extends Error {
  constructor(readonly tables: string[]) {
    super(`holds tables that are not shortener's: ${tables.join(", ")}`);
  }
}

/**
 * The target; a SQLite file is made when missing (the caller removes it again if the copy fails).
 * Checked before its migrations run: a database of another application is refused untouched.
 */
export async function openCopyTarget(location: string, password: string | null): Promise<CopyTarget> {
  if (engineOf(location) === "postgres") return postgresCopyTarget(await migrated(location, password, true));
  if (existsSync(location)) {
    const foreign = foreignSqliteTables(location);
    if (foreign.length > 0) throw new ForeignTarget(foreign);
  }
  const db = openDatabase(location);
  // The copy is one transaction: a page cache of 16 MiB (a cap) spills it to the file less often
  // than the default 2; 64 copied no faster (scripts/bench/copy.ts) and took 60 MiB more.
  db.run("PRAGMA cache_size = -16384");
  return sqliteCopyTarget(db);
}

async function migrated(location: string, password: string | null, target = false) {
  const sql = connectPostgres(location, { max: 1, password });
  try {
    if (target) {
      const rows = await sql`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`;
      const foreign = (rows as { table_name: string }[]).map((r) => r.table_name).filter((t) => !isShortenerTable(t));
      if (foreign.length > 0) throw new ForeignTarget(foreign);
    }
    await migratePostgres(sql);
  } catch (err) {
    await sql.close({ timeout: 1 }).catch(() => {});
    throw err;
  }
  return sql;
}

/** Tables of a SQLite file that shortener's migrations did not make (a file they never touched has user_version 0). */
function foreignSqliteTables(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const version = db.query<{ user_version: number }, []>("PRAGMA user_version").get()!.user_version;
    const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((t) => t.name);
    return version === 0 ? tables : tables.filter((t) => !isShortenerTable(t));
  } finally {
    db.close();
  }
}
