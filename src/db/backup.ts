// `shortener backup FILE`: a consistent copy of the live database, taken while the service runs.

import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Logger } from "../log.ts";
import { engineOf } from "./storage.ts";

/** VACUUM INTO reads one snapshot (WAL makes that safe beside a running writer) into a new file. */
export function runBackup(dbPath: string, target: string | undefined, log: Logger): number {
  if (engineOf(dbPath) === "postgres") {
    console.error("shortener: backup copies a SQLite file; back PostgreSQL up with pg_dump (README: Several instances on PostgreSQL)");
    return 2;
  }
  if (!target) {
    console.error("shortener: backup needs a target file: shortener backup FILE");
    return 2;
  }
  if (!existsSync(dbPath)) {
    console.error(`shortener: no database at ${dbPath} (set --db or SHORTENER_DB)`);
    return 1;
  }
  if (existsSync(target)) {
    console.error(`shortener: ${target} exists; backup never overwrites a file`);
    return 1;
  }
  const db = new Database(dbPath, { readonly: true });
  try {
    db.run("PRAGMA busy_timeout = 5000");
    db.query("VACUUM INTO ?").run(resolve(target));
  } catch (err) {
    console.error(`shortener: backup failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    db.close();
  }
  log.info(`backup of ${dbPath} written to ${target}`);
  return 0;
}
