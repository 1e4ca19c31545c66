// Opens the two sides of `shortener copy` (src/db/copy.ts) from --db and --to: each database
// brought up to this release's schema by its own migrations first, on a connection of the copy's own.

import { engineOf } from "./storage.ts";
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

/** The target; a SQLite file is made when missing (the caller removes it again if the copy fails). */
export async function openCopyTarget(location: string, password: string | null): Promise<CopyTarget> {
  if (engineOf(location) === "postgres") return postgresCopyTarget(await migrated(location, password));
  const db = openDatabase(location);
  // The copy is one transaction: a page cache of 16 MiB (a cap) spills it to the file less often
  // than the default 2; 64 copied no faster (scripts/bench/copy.ts) and took 60 MiB more.
  db.run("PRAGMA cache_size = -16384");
  return sqliteCopyTarget(db);
}

async function migrated(location: string, password: string | null) {
  const sql = connectPostgres(location, { max: 1, password });
  try {
    await migratePostgres(sql);
  } catch (err) {
    await sql.close({ timeout: 1 }).catch(() => {});
    throw err;
  }
  return sql;
}
