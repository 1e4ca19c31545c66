// `shortener backup FILE`: a consistent copy of the live database, taken while the service runs.

import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { resolve } from "node:path";

/**
 * Copies the SQLite file at dbPath into target, a file that must not exist (the command checks
 * that, and says why before calling). VACUUM INTO reads one snapshot (WAL makes that safe beside
 * a running writer) into the new file. Throws the engine's error; a copy half made is removed.
 */
export function backupInto(dbPath: string, target: string): void {
  const db = new Database(dbPath, { readonly: true });
  let copied = false;
  try {
    db.run("PRAGMA busy_timeout = 5000");
    db.query("VACUUM INTO ?").run(resolve(target));
    copied = true;
    dropVisitorSecrets(target);
  } catch (err) {
    // Our copy that still holds the day's salt is not left behind (a file VACUUM INTO refused to
    // write over is not ours to remove).
    if (copied) rmSync(target, { force: true });
    throw err;
  } finally {
    db.close();
  }
}

/**
 * The live file keeps today's visitor salt and the keys seen with it only while the day lasts
 * (src/visits/visitor-id.ts); in a backup they would last as long as the backup. The copy drops
 * them (the counts made with them stay), overwritten and then vacuumed out of the file; a restored
 * backup counts that day's visitors afresh.
 */
function dropVisitorSecrets(path: string): void {
  const copy = new Database(path, { strict: true });
  try {
    copy.run("PRAGMA secure_delete = ON");
    // A file from before unique visitors (schema < 5) has neither table.
    const tables = copy.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('visitor_salts', 'visitors_seen')").all();
    for (const { name } of tables) copy.run(`DELETE FROM ${name}`);
    copy.run("VACUUM");
  } finally {
    copy.close();
  }
}
