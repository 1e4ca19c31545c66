// A page of raw visits from SQLite (src/stats/visit-pages.ts), run on the reader thread: one ordered
// scan of the batches' places, streamed and planned in chunks, then the page's batches by id. One
// read transaction: a batch the recorder commits between the two reads is in both or in neither.

import type { Database } from "bun:sqlite";
import { addChunk, batchSizes, cutLinks, cutPage, pagePlanner, type PagedLink, type PlaceRow, type VisitPage, type VisitPageQuery, type VisitTotals } from "../../stats/visit-pages.ts";
import type { OwnerFilter } from "../../links/list.ts";
import { PLACES_CHUNK, placesQuery, totalsQuery } from "../shared/visit-page-sql.ts";

export function sqliteVisitPages(db: Database, chunk = PLACES_CHUNK): { page: (q: VisitPageQuery) => VisitPage; totals: (owner: OwnerFilter) => VisitTotals } {
  const batchesById = db.query<{ id: number; visits: string }, [string]>("SELECT id, visits FROM visit_batches WHERE id IN (SELECT value FROM json_each(?))");
  const linksBySeq = db.query<PagedLink, [string]>("SELECT seq, id AS alias, domain FROM links WHERE seq IN (SELECT value FROM json_each(?))");
  const sizeOf = db.query<{ id: number; n: number }, [string]>("SELECT id, json_array_length(visits) AS n FROM visit_batches WHERE id IN (SELECT value FROM json_each(?))");
  const sizes = batchSizes();
  const read = (q: VisitPageQuery): VisitPage => {
    const planner = pagePlanner(q);
    const held = new Map<number, string>();
    let rows: PlaceRow[] = [];
    const plan = () => {
      const unknown = sizes.unknown(rows);
      if (unknown.length > 0) sizes.learn(rows, new Map(sizeOf.all(JSON.stringify(unknown)).map((r) => [r.id, r.n])));
      addChunk(planner, sizes.sized(rows), q, held);
      rows = [];
    };
    // One statement stepped to its end (one scan, one sort); sizeOf runs between its steps.
    const { sql, params } = placesQuery(q);
    for (const row of db.query<PlaceRow, (string | number)[]>(sql).iterate(...params)) {
      rows.push(row);
      if (rows.length === chunk) plan();
    }
    if (rows.length > 0) plan();
    const wanted = planner.cuts().filter((c) => !held.has(c.id)).map((c) => c.id);
    if (wanted.length > 0) for (const r of batchesById.all(JSON.stringify(wanted))) held.set(r.id, r.visits);
    const seqs = cutLinks(planner.cuts());
    return { total: planner.total(), visits: cutPage(planner.cuts(), held, q), links: seqs.length === 0 ? [] : linksBySeq.all(JSON.stringify(seqs)) };
  };
  // A deferred transaction: its snapshot is taken by the first SELECT and kept to the last.
  const snapshot = db.transaction(read);
  return {
    page: (q) => snapshot(q),
    totals(owner) {
      const { sql, params } = totalsQuery(owner);
      return db.query<VisitTotals, number[]>(sql).get(...params)!;
    },
  };
}
