// The plan of an export's chunk (src/db/shared/visit-export-sql.ts) on both engines, over thousands
// of batches (statistics gathered where the engine gathers them): whatever the scope (a link, a tag, a domain, an owner, every
// link), a chunk walks the batches' primary key from the cursor in id order and stops at its LIMIT.
// Through the links' index by link and time it read every batch of the scope again and sorted them
// on every chunk: an export cost batches² over its chunks (docs/statistics.md: Exporting visits).

import { expect, test } from "bun:test";
import { forEachEngine, NOW } from "../support/contract-suite.ts";
import { openStored } from "../support/stored.ts";
import { exportBatchesQuery } from "../../src/db/shared/visit-export-sql.ts";
import { EXPORT_START } from "../../src/stats/visit-export.ts";
import type { VisitScope } from "../../src/stats/visit-pages.ts";

const BATCHES = 4_000;

forEachEngine("an export's chunk reads the batches by id", (db) => {
  test("every scope: a range of the primary key from the cursor, no sort", async () => {
    const a = await db().storage.links.create({ url: "https://example.com/a", alias: "a", tags: ["t"] }, NOW);
    const b = await db().storage.links.create({ url: "https://example.com/b", alias: "b" }, NOW);
    const write = await openStored({ dbPath: db().location, engine: db().engine }, { write: true });
    try {
      // One batch in a hundred is a's: a range of the links' index the planner likes, then sorts.
      await write.run(
        `INSERT INTO visit_batches (link_seq, first_ts, last_ts, humans, visits, imported)
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${BATCHES})
         SELECT CASE WHEN i % 100 = 0 THEN CAST(? AS INTEGER) ELSE CAST(? AS INTEGER) END, i, i, 1, '[]', 0 FROM n`,
        a.seq, b.seq,
      );
      // PostgreSQL's autovacuum gathers statistics as a table grows; the service never runs ANALYZE on SQLite.
      if (db().engine === "postgres") await write.run("ANALYZE");
      const scopes: [string, VisitScope][] = [
        ["link", { linkSeq: a.seq }], ["tag", { owner: null, domain: null, tag: "t" }], ["domain", { owner: null, domain: "", tag: null }],
        ["owner", { owner: { keyId: 1 }, domain: null, tag: null }], ["every", { owner: null, domain: null, tag: null }],
      ];
      for (const [name, scope] of scopes) {
        const q = exportBatchesQuery({ scope: { links: scope }, fromTs: 0, toTs: 1e15, excludeBots: false, after: { batch: 2_000, position: 3 }, format: "csv", domainNames: {}, header: false }, 50);
        const plan = await explain(write, db().engine, q.sql, q.params);
        if (db().engine === "sqlite") {
          expect([name, plan.find((line) => /\bb\b/.test(line))]).toEqual([name, "SEARCH b USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"]);
          expect([name, plan.filter((line) => line.includes("TEMP B-TREE"))]).toEqual([name, []]);
        } else {
          expect([name, plan.some((line) => /Index Scan using visit_batches_pkey on visit_batches b/.test(line))]).toEqual([name, true]);
          expect([name, plan.filter((line) => /\b(Sort|Seq Scan on visit_batches|visit_batches_by_link_time)\b/.test(line))]).toEqual([name, []]);
        }
      }
    } finally {
      await write.close();
    }
  });
});

forEachEngine("an export walks the ids a window at a time", (db) => {
  test("a link with few batches among many: every visit once, in order, across windows that hold none of its batches", async () => {
    const a = await db().storage.links.create({ url: "https://example.com/a", alias: "a" }, NOW);
    const b = await db().storage.links.create({ url: "https://example.com/b", alias: "b" }, NOW);
    const write = await openStored({ dbPath: db().location, engine: db().engine }, { write: true });
    try {
      // 1,000 batches of b; a's are ids 1, 350 and 999, one visit each (its time its id).
      await write.run(
        `INSERT INTO visit_batches (link_seq, first_ts, last_ts, humans, visits, imported)
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
         SELECT CASE WHEN i IN (1, 350, 999) THEN CAST(? AS INTEGER) ELSE CAST(? AS INTEGER) END, i, i, 1,
           '[[' || i || ',"Firefox","Linux","desktop","DE","",null,null,null,0]]', 0 FROM n`,
        a.seq, b.seq,
      );
    } finally {
      await write.close();
    }
    const seen: number[] = [];
    let after = EXPORT_START;
    let chunks = 0;
    for (let done = false; !done; chunks++) {
      const chunk = await db().storage.visitExport.chunk({ scope: { links: { linkSeq: a.seq } }, fromTs: 0, toTs: 1e15, excludeBots: false, after, format: "jsonl", domainNames: {}, header: false, batches: 2, idWindow: 100 });
      for (const line of new TextDecoder().decode(chunk.bytes).split("\n").filter(Boolean)) seen.push(Date.parse((JSON.parse(line) as { timestamp: string }).timestamp));
      after = chunk.next;
      done = chunk.done;
    }
    expect(seen).toEqual([1, 350, 999]);
    // Ten windows of 100 ids (and the last, past the highest id, ends it): no chunk walked past its window.
    expect(chunks).toBe(11);
  });
});

/** The engine's plan, a line a node: SQLite's EXPLAIN QUERY PLAN details, PostgreSQL's EXPLAIN text. */
async function explain(stored: Awaited<ReturnType<typeof openStored>>, engine: string, sql: string, params: (string | number)[]): Promise<string[]> {
  if (engine === "sqlite") return (await stored.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...params)).map((r) => r.detail);
  return (await stored.all<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, ...params)).map((r) => r["QUERY PLAN"]);
}
