// A page of raw visits (src/stats/visit-pages.ts) on both engines, its places scanned in one pass and
// handed to the planner a chunk at a time (SQLite: a stepped statement; PostgreSQL: a cursor): every
// chunk size answers the same pages, for one link and for every link, and every visit once
// (docs/shlink-api.md: Visits).

import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import type { OpenedEngine } from "../support/engines.ts";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";
import { sqliteVisitPages } from "../../src/db/sqlite/visit-pages.ts";
import { postgresVisitPages } from "../../src/db/postgres/visit-pages.ts";
import type { VisitPageQuery } from "../../src/stats/visit-pages.ts";

type Read = (q: VisitPageQuery) => Promise<{ total: number; ts: number[]; links: number }>;

/** The engine's visit pages read with its own client, `chunk` places at a time. */
async function pagesWith(db: OpenedEngine, chunk: number): Promise<{ read: Read; close: () => Promise<void> }> {
  if (db.engine === "sqlite") {
    const raw = new Database(db.location, { readonly: true });
    const pages = sqliteVisitPages(raw, chunk);
    return {
      read: async (q) => {
        const p = pages.page(q);
        return { total: p.total, ts: p.visits.map((v) => v.visit[0]), links: p.links.length };
      },
      close: async () => raw.close(),
    };
  }
  const pg = new SQL(db.location, { max: 1 });
  const pages = postgresVisitPages(pg, chunk);
  return {
    read: async (q) => {
      const p = await pages.page(q);
      return { total: p.total, ts: p.visits.map((v) => v.visit[0]), links: p.links.length };
    },
    close: () => pg.close(),
  };
}

forEachEngine("visit pages", (db) => {
  test("chunks of 1, 3 and 2,000 places answer the same pages: one link, every link, from every offset", async () => {
    const a = await db().storage.links.create({ url: "https://example.com/a", alias: "a" }, NOW - 100_000);
    const b = await db().storage.links.create({ url: "https://example.com/b", alias: "b" }, NOW - 100_000);
    // 14 flushes: 28 batches of 2 or 3 visits, the two links' batches interleaved in time.
    for (let i = 0; i < 14; i++) {
      db().writer.record(visit(a, { ts: NOW + i * 100 }));
      db().writer.record(visit(a, { ts: NOW + i * 100 + 10, isBot: i % 3 === 0 }));
      db().writer.record(visit(b, { ts: NOW + i * 100 + 5 }));
      db().writer.record(visit(b, { ts: NOW + i * 100 + 6 }));
      db().writer.record(visit(b, { ts: NOW + i * 100 + 50 }));
      await db().writer.flush();
    }
    const every: VisitPageQuery["scope"] = { owner: null, domain: null, tag: null };
    const queries: VisitPageQuery[] = [];
    for (const scope of [{ linkSeq: a.seq }, every]) {
      for (const offset of [0, 7, 40, 69, 70]) {
        queries.push({ scope, fromTs: 0, toTs: 1e15, excludeBots: false, offset, limit: 9 });
        // A range that cuts batches (straddling ones are parsed) without bots.
        queries.push({ scope, fromTs: NOW + 205, toTs: NOW + 1006, excludeBots: true, offset, limit: 9 });
      }
    }
    const answers: Awaited<ReturnType<Read>>[][] = [];
    for (const chunk of [1, 3, 2_000]) {
      const pages = await pagesWith(db(), chunk);
      const got = [];
      for (const q of queries) got.push(await pages.read(q));
      await pages.close();
      answers.push(got);
    }
    expect(answers[0]).toEqual(answers[2]!);
    expect(answers[1]).toEqual(answers[2]!);
    // Every link's visits in one page: each once (batches newest last_ts first, as the planner cuts).
    const all = await pagesWith(db(), 3);
    const whole = await all.read({ scope: every, fromTs: 0, toTs: 1e15, excludeBots: false, offset: 0, limit: 1000 });
    await all.close();
    expect(whole.total).toBe(70);
    expect(new Set(whole.ts).size).toBe(70);
    expect(whole.links).toBe(2);
  }, 60_000);
});
