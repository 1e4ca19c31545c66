// Adds links created since the last run to the search index, in one transaction. Run by the
// recorder thread (the idle-priority background writer) about once a second while links are made
// and less often while none are; a search scans the few links not yet indexed (search.ts), so
// results never miss a new link meanwhile.

import type { Database } from "bun:sqlite";

/** Links indexed per transaction at most (about 0.1 s of holding the write lock). */
export const SEARCH_INDEX_BATCH = 5_000;

/** indexNew(): indexes up to SEARCH_INDEX_BATCH new links; returns how many seq it advanced over. */
export type SearchIndexer = { indexNew(): number };

export function createSearchIndexer(db: Database): SearchIndexer {
  const upto = db.query<{ indexed_upto: number }, []>("SELECT indexed_upto FROM links_search_state");
  const newest = db.query<{ seq: number | null }, [number, number]>("SELECT MAX(seq) AS seq FROM (SELECT seq FROM links WHERE seq > ? ORDER BY seq LIMIT ?)");
  const add = db.query<void, [number, number]>("INSERT INTO links_search (rowid, id, url, title) SELECT seq, id, url, title FROM links WHERE seq > ? AND seq <= ?");
  const advance = db.query<void, [number]>("UPDATE links_search_state SET indexed_upto = ?");
  const run = db.transaction((): number => {
    const from = upto.get()!.indexed_upto;
    const to = newest.get(from, SEARCH_INDEX_BATCH)?.seq ?? null;
    if (to === null) return 0;
    add.run(from, to);
    advance.run(to);
    return to - from;
  });
  return {
    indexNew() {
      // A read first: nothing new is the common case, and it needs no write lock.
      const from = upto.get()!.indexed_upto;
      if (newest.get(from, 1)?.seq == null) return 0;
      return run.immediate();
    },
  };
}
