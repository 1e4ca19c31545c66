// The `q` filter of the link list: a case-insensitive substring of the id, the destination or the title.
//
// Two plans, because neither is fast for every term (measured on 100,000 links): the trigram index
// finds a rare term in 0.06 ms but needs 95 ms to hand over a term that half the links contain,
// while a scan in list order stops as soon as a page is full (0.05 ms for a common term) but reads
// every row for a rare one (34 ms). So: ask the index for at most CANDIDATE_LIMIT matches; when it
// has no more than that, list those, plus any match among the links created since the index was
// last brought up to date (search-index.ts); otherwise the term is common and the scan ends early.
// Case-insensitive for ASCII letters (SQLite's LIKE), in both plans. The caller runs the plan and
// the page query in one read transaction, so the index and the links are one snapshot.

import type { Database } from "bun:sqlite";
import { likePattern, type SqlCondition } from "../shared/page-query.ts";

export const CANDIDATE_LIMIT = 1000;
/** Trigrams: shorter terms are not in the index. */
const MIN_INDEXED_LENGTH = 3;

/** id, url or title contains the pattern's term; LIKE folds ASCII case in SQLite (PostgreSQL says ILIKE). */
export const SUBSTRING_SQL = "(id LIKE ? ESCAPE '\\' OR url LIKE ? ESCAPE '\\' OR title LIKE ? ESCAPE '\\')";

export function searchPlanner(db: Database, candidateLimit = CANDIDATE_LIMIT): (q: string) => SqlCondition {
  const candidates = db.query<{ rowid: number }, [string, number]>("SELECT rowid FROM links_search WHERE links_search MATCH ? LIMIT ?");
  const LIKE = SUBSTRING_SQL;
  // The links not yet in the index: a range of seq from the last indexed one, a few at most.
  const unindexed = db.query<{ seq: number }, [string, string, string]>(`SELECT seq FROM links WHERE seq > (SELECT indexed_upto FROM links_search_state) AND ${LIKE}`);
  return (q) => {
    const pattern = likePattern(q);
    const scan = { sql: LIKE, params: [pattern, pattern, pattern] };
    if ([...q].length < MIN_INDEXED_LENGTH) return scan;
    let found: { rowid: number }[];
    try {
      // A quoted phrase: the term matches as a substring, whatever characters it holds.
      found = candidates.all(`"${q.replaceAll('"', '""')}"`, candidateLimit + 1);
    } catch {
      return scan; // a term the index cannot take: the scan finds the same links, only slower
    }
    if (found.length > candidateLimit) return scan;
    const seqs = [...found.map((r) => r.rowid), ...unindexed.all(pattern, pattern, pattern).map((r) => r.seq)];
    // The index only narrows: LIKE decides, as in the scan, so that both plans match the same links
    // (the index folds the case of every letter, LIKE only of ASCII ones).
    return { sql: `seq IN (SELECT value FROM json_each(?)) AND ${LIKE}`, params: [JSON.stringify(seqs), pattern, pattern, pattern] };
  };
}
