// The SQLite engine: every part over one file, opened (and migrated) once for the click thread.

import { statSync } from "node:fs";
import { openDatabase } from "../open.ts";
import { createLinkStore } from "../../links/store.ts";
import { createLinkLister } from "../../links/list.ts";
import { createStatsReader } from "../../stats/queries.ts";
import { createKeyStore } from "../../auth/keys.ts";
import { createSessionStore } from "../../auth/sessions.ts";
import { createDailyCounts, createOverviewReader } from "../../stats/overview.ts";
import type { Storage } from "../storage.ts";
import type { Synchronous } from "../../util/maybe.ts";

export type SqliteStorage = Synchronous<Omit<Storage, "close">> & Pick<Storage, "close">;

/**
 * Opens the file at path (creating it, never its folder) and brings its schema up to date.
 * `busyTimeoutMs`: how long this connection waits for the write lock after the migrations.
 */
export function openSqliteStorage(path: string, busyTimeoutMs: number): SqliteStorage {
  const db = openDatabase(path);
  db.run(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  const ids = db.query<{ id: string }, [string]>("SELECT id FROM links WHERE lower(id) IN (SELECT value FROM json_each(?))");
  const count = db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM links");
  return {
    engine: "sqlite",
    where: path,
    links: createLinkStore(db),
    lister: createLinkLister(db),
    stats: createStatsReader(db),
    keys: createKeyStore(db),
    sessions: createSessionStore(db),
    overview: createOverviewReader(db),
    dailyCounts: createDailyCounts(db),
    ping() {
      db.query("SELECT 1").get();
    },
    size: () => ({ links: count.get()!.n, bytes: fileSize(path) + fileSize(`${path}-wal`) }),
    idsAmong: (words) => ids.all(JSON.stringify(words)).map((r) => r.id),
    close: async () => db.close(),
  };
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
