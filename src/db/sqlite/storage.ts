// The SQLite engine: every adapter over one file, opened (and migrated) once for the click thread.

import { statSync } from "node:fs";
import type { EngineStorage } from "../storage.ts";
import { localClickBudget } from "../../links/store.ts";
import { openDatabase } from "./open.ts";
import { sqliteLinks } from "./links.ts";
import { sqliteLister } from "./lister.ts";
import { sqliteStats } from "./stats.ts";
import { sqliteKeys } from "./keys.ts";
import { sqliteShares } from "./shares.ts";
import { sqliteSessions } from "./sessions.ts";
import { sqliteUsers } from "./users.ts";
import { sqliteSalts } from "./visitor-salts.ts";
import { sqliteOverview } from "./overview.ts";
import { sqliteVisitPages } from "./visit-pages.ts";
import { sqliteVisitExport } from "./visit-export.ts";
import type { VisitPageSource } from "../../stats/visit-pages.ts";
import { sqliteImports } from "./imports.ts";
import { startSqliteReader, type OrphanReads, type SqliteReader } from "../../threads/reader/client.ts";
import { sqliteOrphanDeleteSlices, sqliteOrphanReads } from "./orphan-visits.ts";
import { removeOrphans } from "../../stats/orphan-visits.ts";
import type { Logger } from "../../log.ts";
import { sqliteEvents } from "./events.ts";
import { sqliteInstances } from "./instances.ts";
import { sqliteDomains } from "./domains.ts";
import { retryingWrites } from "./busy-retry.ts";

/**
 * Opens the file at path (creating it, never its folder) and brings its schema up to date.
 * `busyTimeoutMs`: how long this connection waits for the write lock after the migrations.
 * `readerThread`: statistics, list pages and the overview are read on a thread of their own
 * (src/threads/reader/), as the service does; without it, on this connection, at once (tests of SQLite alone).
 * `onWriteBusy`: a write found the lock taken and will try again (busy-retry.ts): the recorder is
 * asked to hurry. `log`: where the reader thread's death is told.
 */
export async function openSqliteStorage(path: string, busyTimeoutMs: number, readerThread = true, onWriteBusy: () => void = () => {}, log?: Logger): Promise<EngineStorage> {
  const db = openDatabase(path);
  db.run(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  let reader: SqliteReader | null = null;
  try {
    if (readerThread) reader = await startSqliteReader(path, log);
  } catch (err) {
    db.close();
    throw err;
  }
  const ids = db.query<{ id: string }, [string]>("SELECT id FROM links WHERE lower(id) IN (SELECT value FROM json_each(?))");
  const count = db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM links");
  const retried = <T extends object>(port: T, writes: readonly (keyof T)[]) => retryingWrites(port, writes, onWriteBusy);
  return {
    engine: "sqlite",
    where: path,
    links: retried(sqliteLinks(db), ["insert", "insertAll", "update", "remove", "setBlocked", "retag"]),
    events: retried(sqliteEvents(db), ["createWebhook", "updateWebhook", "removeWebhook", "redeliver"]),
    instances: retried(sqliteInstances(db), ["started", "seen", "stopped"]),
    domains: retried(sqliteDomains(db), ["add", "change", "rename", "makeDefault", "moveLinks", "remove"]),
    // One process owns the file: it counts the clicks of limited links itself.
    budget: localClickBudget(),
    lister: reader?.lister ?? sqliteLister(db),
    stats: reader?.stats ?? sqliteStats(db),
    overview: reader?.overview ?? sqliteOverview(db),
    visitPages: reader?.visitPages ?? promisedVisits(sqliteVisitPages(db)),
    visitExport: reader?.visitExport ?? { chunk: async (q) => sqliteVisitExport(db)(q) },
    orphans: { ...(reader?.orphanReads ?? promisedOrphans(sqliteOrphanReads(db))), remove: (sizes) => removeOrphans(retryingWrites(sqliteOrphanDeleteSlices(db), ["deleteRows", "deleteDaily"], onWriteBusy), sizes) },
    keys: retried(sqliteKeys(db), ["insert", "revoke"]),
    sessions: retried(sqliteSessions(db), ["insert", "remove"]),
    shares: retried(sqliteShares(db), ["insert", "remove"]),
    users: retried(sqliteUsers(db), ["upsert", "setDisabled", "setAdmin"]),
    salts: sqliteSalts(db),
    imports: sqliteImports(db),
    ping() {
      db.query("SELECT 1").get();
    },
    size: () => ({ links: count.get()!.n, bytes: fileSize(path) + fileSize(`${path}-wal`) }),
    idsAmong: (words) => ids.all(JSON.stringify(words)).map((r) => r.id),
    async close() {
      await reader?.close();
      db.close();
    },
  };
}

/** Reads on this thread's connection (no reader thread: tests, tools) as the port's promises. */
function promisedVisits(reads: ReturnType<typeof sqliteVisitPages>): VisitPageSource {
  return { page: async (q) => reads.page(q), totals: async (owner) => reads.totals(owner) };
}

function promisedOrphans(reads: ReturnType<typeof sqliteOrphanReads>): OrphanReads {
  return { summary: async (range) => reads.summary(range), page: async (q) => reads.page(q) };
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
