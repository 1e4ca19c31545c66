// The reader thread's entry point (started by client.ts through ../start.ts): SQLite's reads that
// can take milliseconds (a link's statistics, a page of the owner's list, the overview, a page of raw visits, a chunk of an export) run here,
// on a connection of their own, so that the thread answering clicks never waits for them. Like
// main.ts for the click thread, it wires SQLite's adapters to the messages of protocol.ts.

import { openDatabase } from "../../db/sqlite/open.ts";
import { sqliteStats } from "../../db/sqlite/stats.ts";
import { sqliteLister } from "../../db/sqlite/lister.ts";
import { sqliteOverview } from "../../db/sqlite/overview.ts";
import { sqliteVisitPages } from "../../db/sqlite/visit-pages.ts";
import { sqliteVisitExport } from "../../db/sqlite/visit-export.ts";
import { writtenPage } from "./written-page.ts";
import { sqliteOrphanReads } from "../../db/sqlite/orphan-visits.ts";
import type { FromReader, ReadRequest, ReadResult, ToReader } from "./protocol.ts";
import { nameThisThread } from "../policy.ts";
import { serveThread } from "../serve.ts";

let answer: ((msg: ReadRequest) => ReadResult) | null = null;
let close: (() => void) | null = null;

function start(path: string): true {
  const db = openDatabase(path);
  const stats = sqliteStats(db);
  const lister = sqliteLister(db);
  const overview = sqliteOverview(db);
  const visits = sqliteVisitPages(db);
  const visitExport = sqliteVisitExport(db);
  const orphans = sqliteOrphanReads(db);
  answer = (m) => {
    if ("stats" in m) return stats(m.stats[0], m.stats[1]);
    if ("page" in m) return lister.page(m.page);
    if ("totals" in m) return lister.totals(m.totals);
    if ("tags" in m) return lister.tags(m.tags);
    if ("overview" in m) return overview.read(...m.overview);
    if ("daily" in m) return overview.daily(m.daily[0], m.daily[1]);
    if ("visits" in m) return writtenPage(visits.page(m.visits[0]), m.visits[1]);
    if ("visitTotals" in m) return visits.totals(m.visitTotals);
    if ("visitExport" in m) return visitExport(m.visitExport);
    if ("orphanSummary" in m) return orphans.summary(m.orphanSummary);
    if ("orphanPage" in m) return orphans.page(m.orphanPage);
    if ("members" in m) return lister.members(m.members);
    throw new Error("unknown request");
  };
  close = () => db.close();
  nameThisThread("reader");
  return true;
}

function message(msg: ToReader): void {
  try {
    post({ id: msg.id, result: answer!(msg) });
  } catch (err) {
    // The database's own error code travels with it: the click thread tells a busy or full disk
    // (a 503) from a bug (a 500) by it (src/db/errors.ts).
    post({ id: msg.id, error: { message: err instanceof Error ? err.message : String(err), code: (err as { code?: unknown }).code as string | undefined } });
  }
}

// Reads are answered in order, each at once: by the time close is read, every read before it is answered.
const post = serveThread<string, true, true, ToReader, FromReader>({
  start,
  message,
  close: () => {
    close?.();
    return true;
  },
});
