// The recorder thread's SQLite side (the RecorderStorage of src/visits/recorder-storage.ts): its
// own connection to the file, the salts, the in-memory sets of seen visitors and the batch writer
// over them, and the search index it brings up to date in the background.

import { openDatabase } from "./open.ts";
import { isLockBusy } from "../errors.ts";
import type { Logger } from "../../log.ts";
import type { RecorderStorage } from "../../visits/recorder-storage.ts";
import { createSearchIndexer, SEARCH_INDEX_BATCH } from "./search-index.ts";
import { createSeenVisitors } from "./seen-visitors.ts";
import { sqliteSalts } from "./visitor-salts.ts";
import { sqliteBatches } from "./visit-batches.ts";
import type { Database } from "bun:sqlite";
import type { EventWants } from "../../events/wants.ts";

export function openSqliteRecorder(path: string, log: Logger, wants: EventWants, now: () => number = Date.now): RecorderStorage {
  const db = openDatabase(path);
  let fullSaidOn = "";
  const seen = createSeenVisitors(db, now(), undefined, () => {
    const today = new Date(now()).toISOString().slice(0, 10);
    if (today === fullSaidOn) return;
    fullSaidOn = today;
    log.error("unique visitors: the memory for today's visitors is full; further new visitors are counted without being remembered (uniques may be overcounted)");
  });
  const indexer = indexLinksForSearch(db, log);
  // Deleted rows are zeroed in the file's pages (secure_delete), but the write-ahead log still
  // holds earlier copies of those pages until it is copied into the file and truncated.
  const checkpoint = db.query<{ busy: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)");
  return {
    salts: sqliteSalts(db),
    batches: sqliteBatches(db, seen, now, wants),
    forgetSeen: (now) => seen.forget(now),
    scrub: () => checkpoint.get()?.busy === 0,
    async close() {
      clearTimeout(indexer.timer);
      // Closed here, not by the thread's end: the last connection to close checkpoints and removes the WAL.
      db.close();
    },
  };
}

// This thread is the background writer, so it also brings the link search index up to date:
// about once a second while links are being made, at once while a burst of new links is being
// caught up, and less and less often while none are (up to every SEARCH_INDEX_IDLE_MS): an idle
// instance does not wake for it every second (docs/architecture.md: Threads). A link not indexed
// yet is still found: searches scan the links made after the index's mark.
const SEARCH_INDEX_MS = 1_000;
const SEARCH_INDEX_IDLE_MS = 30_000;
function indexLinksForSearch(db: Database, log: Logger): { timer: ReturnType<typeof setTimeout> | undefined } {
  const indexer = createSearchIndexer(db);
  const handle: { timer: ReturnType<typeof setTimeout> | undefined } = { timer: undefined };
  let lastError = "";
  let idleMs = SEARCH_INDEX_MS;
  const tick = () => {
    let advanced = 0;
    try {
      advanced = indexer.indexNew();
      lastError = "";
    } catch (err) {
      // A busy lock passes by itself; anything else (a full disk, a damaged index) is said once.
      const message = err instanceof Error ? err.message : String(err);
      if (!isLockBusy(err) && message !== lastError) log.error("indexing new links for search failed; searches scan them meanwhile", { error: message });
      lastError = message;
    }
    idleMs = advanced > 0 ? SEARCH_INDEX_MS : Math.min(idleMs * 2, SEARCH_INDEX_IDLE_MS);
    handle.timer = setTimeout(tick, advanced >= SEARCH_INDEX_BATCH ? 0 : idleMs);
  };
  handle.timer = setTimeout(tick, SEARCH_INDEX_MS);
  return handle;
}
