// A link's newest visits in a time range, for the stats page's "recent visits" list. Raw visits are
// stored in batches (src/visits/visit-batch.ts): an engine reads the newest batches first and stops
// as soon as no older batch can hold a visit newer than the ones already found.

import { then, type MaybePromise } from "../util/maybe.ts";
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

/** Batches of a set of links looked at per page, newest first (the places only; their visits after). */
export const RECENT_BATCHES_PAGE = 20;

/**
 * The newest `limit` visits of a set of links' batches: pages of their places newest first
 * (`places`, after the last one seen), each page's visits read together (`visitsOf`, by id), until
 * no older batch can add one. Written once for both engines: `then` keeps it synchronous over SQLite.
 */
export function newestVisitsOfSet(
  places: (before: { lastTs: number; id: number }) => MaybePromise<{ id: number; lastTs: number }[]>,
  visitsOf: (ids: number[]) => MaybePromise<Map<number, string>>,
  range: { fromTs: number; toTs: number; excludeBots: boolean; limit: number },
): MaybePromise<StoredVisit[]> {
  const newest = newestVisits(range.fromTs, range.toTs, range.excludeBots, range.limit);
  const page = (before: { lastTs: number; id: number }): MaybePromise<StoredVisit[]> =>
    then(places(before), (found) => {
      if (found.length === 0) return newest.found();
      return then(visitsOf(found.map((p) => p.id)), (texts) => {
        for (const p of found) if (!newest.add(p.lastTs, texts.get(p.id)!)) return newest.found();
        if (found.length < RECENT_BATCHES_PAGE) return newest.found();
        const last = found[found.length - 1]!;
        return page({ lastTs: last.lastTs, id: last.id });
      });
    });
  return page({ lastTs: Number.MAX_SAFE_INTEGER, id: Number.MAX_SAFE_INTEGER });
}
