// The recorder thread's SQLite side: its own connection to the file, the salts and the in-memory
// sets of seen visitors, the writer, and the search index it brings up to date in the background.

import { openDatabase } from "../db/open.ts";
import { isLockBusy } from "../db/errors.ts";
import type { Logger } from "../log.ts";
import { createSearchIndexer, SEARCH_INDEX_BATCH } from "../links/search-index.ts";
import type { RecorderStorage, RecorderStorageOptions } from "./recorder-storage.ts";
import { createSeenVisitors } from "./seen-visitors.ts";
import { createVisitorIds } from "./visitor-id.ts";
import { createVisitWriter } from "./writer.ts";
import { createForgetting } from "./forget.ts";

export function openSqliteRecorder(path: string, options: RecorderStorageOptions): RecorderStorage {
  const db = openDatabase(path);
  const visitorIds = createVisitorIds(db, Date.now);
  let fullSaidOn = "";
  const seen = createSeenVisitors(db, Date.now(), undefined, () => {
    const today = new Date().toISOString().slice(0, 10);
    if (today === fullSaidOn) return;
    fullSaidOn = today;
    options.log.error("unique visitors: the memory for today's visitors is full; further new visitors are counted without being remembered (uniques may be overcounted)");
  });
  const writer = createVisitWriter(db, { ...options, seen });
  const indexer = indexLinksForSearch(db, options.log);
  return {
    visitorId: visitorIds.of,
    prepare: () => {}, // salts are read on first use, synchronously
    writer,
    forget: createForgetting(db, visitorIds, seen),
    async close() {
      clearTimeout(indexer.timer);
      writer.close();
      // Closed here, not by the thread's end: the last connection to close checkpoints and removes the WAL.
      db.close();
    },
  };
}

// This thread is the background writer, so it also brings the link search index up to date:
// about once a second, and again at once while a burst of new links is being caught up.
const SEARCH_INDEX_MS = 1_000;
function indexLinksForSearch(db: ReturnType<typeof openDatabase>, log: Logger): { timer: ReturnType<typeof setTimeout> | undefined } {
  const indexer = createSearchIndexer(db);
  const handle: { timer: ReturnType<typeof setTimeout> | undefined } = { timer: undefined };
  let lastError = "";
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
    handle.timer = setTimeout(tick, advanced >= SEARCH_INDEX_BATCH ? 0 : SEARCH_INDEX_MS);
  };
  handle.timer = setTimeout(tick, SEARCH_INDEX_MS);
  return handle;
}
