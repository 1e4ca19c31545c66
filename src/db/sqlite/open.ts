// Opens the one SQLite file the service keeps everything in, and brings its schema up to date.

import { Database } from "bun:sqlite";
import { chownSync, existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { migrate } from "./schema.ts";

/** Opens (creating the file if needed, never its folder) the database at path with the pragmas the service relies on. */
export function openDatabase(path: string): Database {
  const isNew = !existsSync(path);
  const db = new Database(path, { create: true, strict: true });
  // Before the WAL switch: SQLite gives the -wal and -shm it makes as root the database file's owner.
  // (":memory:" never exists as a file, hence the second look.)
  if (isNew && existsSync(path)) giveToFolderOwner(path);
  // First, so that every later statement (WAL switch included) waits for a lock instead of failing
  // while a backup or a second reader holds it.
  db.run("PRAGMA busy_timeout = 5000");
  // WAL: readers (stats) never block the visit writer, and the writer never blocks redirects' lookups.
  db.run("PRAGMA journal_mode = WAL");
  // NORMAL is durable across application crashes in WAL mode; only an OS crash or power cut can
  // lose the last transactions, which docs/clicks.md states as the flush-window guarantee.
  db.run("PRAGMA synchronous = NORMAL");
  db.run("PRAGMA foreign_keys = ON");
  // Deleted rows are overwritten with zeros, not merely unlinked: a day's visitor salt and keys are
  // deleted so that nobody holding the file later can test guesses of addresses against them, and
  // that only holds if their bytes are gone from it. Deletes are rare here (salts and seen visitors
  // once an hour, links and sessions by hand), so the extra writes cost nothing that matters.
  db.run("PRAGMA secure_delete = ON");
  migrate(db);
  return db;
}

/**
 * Root making the database in a folder that belongs to someone else (`sudo shortener key create
 * --db /var/lib/shortener/shortener.db` while the file is missing, in a systemd DynamicUser's state
 * folder) gives the new file to the folder's owner: a root-owned database is one the service cannot
 * write, and systemd does not chown inside a state folder it finds already owned by the service.
 * An existing file keeps its owner; SQLite itself gives the -wal and -shm root makes that owner.
 */
function giveToFolderOwner(path: string): void {
  if (process.getuid?.() !== 0) return;
  const folder = statSync(dirname(resolve(path)));
  if (folder.uid !== 0) chownSync(path, folder.uid, folder.gid);
}
