// A page of raw visits from PostgreSQL (src/stats/visit-pages.ts), on the pool: one ordered scan of
// the batches' places through a cursor, fetched and planned in chunks, then the page's batches by
// id, in one read-only repeatable-read snapshot (a batch committed meanwhile is in both reads or in
// neither).

import { addChunk, batchSizes, cutLinks, cutPage, pagePlanner, type PlaceRow, type VisitPageSource } from "../../stats/visit-pages.ts";
import { PLACES_CHUNK, placesQuery, totalsQuery } from "../shared/visit-page-sql.ts";
import { num, numbered, type Pg } from "./connect.ts";

export function postgresVisitPages(sql: Pg, chunk = PLACES_CHUNK): VisitPageSource {
  const sizes = batchSizes();
  const page: VisitPageSource["page"] = (q) =>
    sql.begin("isolation level repeatable read read only", async (tx) => {
      const planner = pagePlanner(q);
      const held = new Map<number, string>();
      // A cursor: one scan and one sort, `chunk` rows in memory at a time (Bun's SQL has no cursor of
      // its own; DECLARE takes bound parameters, and the transaction's end closes it).
      const { sql: text, params } = placesQuery(q);
      await tx.unsafe(numbered(`DECLARE visit_places NO SCROLL CURSOR FOR ${text}`), params);
      for (;;) {
        const rows = (await tx.unsafe(`FETCH FORWARD ${chunk} FROM visit_places`)) as PlaceRow[];
        const unknown = sizes.unknown(rows);
        if (unknown.length > 0) {
          const counted: { id: string; n: number }[] = await tx`SELECT id, json_array_length(visits::json) AS n FROM visit_batches WHERE id = ANY(${sql.array(unknown, "INT8")}::int8[])`;
          sizes.learn(rows, new Map(counted.map((r) => [num(r.id), num(r.n)])));
        }
        addChunk(planner, sizes.sized(rows), q, held);
        if (rows.length < chunk) break;
      }
      const wanted = planner.cuts().filter((c) => !held.has(c.id)).map((c) => c.id);
      if (wanted.length > 0) {
        const rows: { id: string; visits: string }[] = await tx`SELECT id, visits FROM visit_batches WHERE id = ANY(${sql.array(wanted, "INT8")}::int8[])`;
        for (const r of rows) held.set(num(r.id), r.visits);
      }
      const seqs = cutLinks(planner.cuts());
      const links: { seq: string; alias: string; domain: string }[] =
        seqs.length === 0 ? [] : await tx`SELECT seq, id AS alias, domain FROM links WHERE seq = ANY(${sql.array(seqs, "INT8")}::int8[])`;
      return { total: planner.total(), visits: cutPage(planner.cuts(), held, q), links: links.map((l) => ({ seq: num(l.seq), alias: l.alias, domain: l.domain })) };
    });
  return {
    page,
    async totals(owner) {
      const { sql: text, params } = totalsQuery(owner);
      const [row] = await sql.unsafe(numbered(text), params);
      return { total: num(row.total), humans: num(row.humans) };
    },
  };
}
