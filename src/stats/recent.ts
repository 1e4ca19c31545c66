// A link's newest visits in a time range, for the stats page's "recent visits" list. Raw visits are
// stored in batches (src/visits/visit-batch.ts): an engine reads the newest batches first and stops
// as soon as no older batch can hold a visit newer than the ones already found.

import { parseBatch, STORED_IS_BOT as IS_BOT, STORED_TS as TS, type StoredVisit } from "../visits/visit-batch.ts";

/** The newest `limit` visits in [fromTs, toTs) of batches handed over newest (by last_ts) first. */
export function newestVisits(fromTs: number, toTs: number, excludeBots: boolean, limit: number) {
  let found: StoredVisit[] = [];
  return {
    /** Adds a batch; false when it (and so every older one) can add nothing: stop reading. */
    add(lastTs: number, visits: string): boolean {
      // found is sorted newest first and full: every visit of this batch and older ones is older still.
      if (found.length >= limit && (limit <= 0 || lastTs < found[limit - 1]![TS])) return false;
      for (const v of parseBatch(visits)) {
        if (v[TS] >= fromTs && v[TS] < toTs && !(excludeBots && v[IS_BOT] === 1)) found.push(v);
      }
      found.sort((a, b) => b[TS] - a[TS]);
      if (found.length > limit) found = found.slice(0, limit);
      return true;
    },
    found: () => found,
  };
}
