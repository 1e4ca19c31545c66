// `shortener backup FILE`: a consistent copy of the live database, taken while the service runs
// (docs/operations.md: Backup). The copy itself is the SQLite adapter's (src/db/sqlite/backup.ts).

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { backupInto } from "../db/sqlite/backup.ts";
import { engineOf } from "../db/storage.ts";
import type { Logger } from "../log.ts";
import type { DatabaseLocator } from "./database.ts";
import { permissionProblem } from "./permission.ts";
import { STDIO, type Output } from "./table.ts";

/** 0 when written; 1 when the copy failed or the target exists; 2 for a usage error or no database. */
export function runBackupCommand(database: DatabaseLocator, target: string | undefined, log: Logger, io: Output = STDIO): number {
  if (!target) {
    io.err("shortener: backup needs a target file: shortener backup FILE");
    return 2;
  }
  const found = database();
  if (!found.ok) {
    io.err(`shortener: ${found.message}`);
    return found.exitCode;
  }
  if (engineOf(found.location) === "postgres") {
    io.err("shortener: backup copies a SQLite file; back PostgreSQL up with pg_dump (docs/postgresql.md: Scaling out)");
    return 2;
  }
  const copy = resolve(target);
  if (existsSync(copy)) {
    io.err(`shortener: ${copy} exists; backup never overwrites a file`);
    return 1;
  }
  try {
    backupInto(found.location, copy);
  } catch (err) {
    // A database this user may not open is explained; any other failure keeps the engine's words.
    io.err(`shortener: ${permissionProblem(found.location, "command") ?? `backup failed: ${err instanceof Error ? err.message : String(err)}`}`);
    return 1;
  }
  log.info(`backup of ${found.location} written to ${copy}`);
  return 0;
}
