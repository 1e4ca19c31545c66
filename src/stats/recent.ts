// A link's newest visits in a time range, for the stats page's "recent visits" list. Raw visits are
// stored in batches (src/visits/visit-batch.ts): read the newest batches first and stop as soon as
// no older batch can hold a visit newer than the ones already found.

import type { Database } from "bun:sqlite";
import { parseBatch, STORED_IS_BOT as IS_BOT, STORED_TS as TS, type StoredVisit } from "../visits/visit-batch.ts";

export type RecentVisitsReader = (linkId: string, fromTs: number, toTs: number, excludeBots: boolean, limit: number) => StoredVisit[];

export function createRecentVisitsReader(db: Database): RecentVisitsReader {
  const batches = db.query<{ last_ts: number; visits: string }, [string, number, number, number]>(
    `SELECT last_ts, visits FROM visit_batches
     WHERE link_id = ? AND last_ts >= ? AND first_ts < ? AND humans >= ?
     ORDER BY last_ts DESC`,
  );
  return (linkId, fromTs, toTs, excludeBots, limit) => {
    if (limit <= 0) return [];
    let found: StoredVisit[] = [];
    for (const batch of batches.iterate(linkId, fromTs, toTs, excludeBots ? 1 : 0)) {
      // found is sorted newest first and full: every visit of this batch and older ones is older still.
      if (found.length === limit && batch.last_ts < found[limit - 1]![TS]) break;
      for (const v of parseBatch(batch.visits)) {
        if (v[TS] >= fromTs && v[TS] < toTs && !(excludeBots && v[IS_BOT] === 1)) found.push(v);
      }
      found.sort((a, b) => b[TS] - a[TS]);
      if (found.length > limit) found = found.slice(0, limit);
    }
    return found;
  };
}
