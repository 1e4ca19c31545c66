// PostgreSQL: the day's limit of 100 paths of visits to no link (src/visits/orphans.ts) holds across
// instances. Two batch transactions each with 100 new paths of the same day: the second reads the
// stored paths only once the first has committed (an advisory lock, src/db/postgres/orphan-visits.ts),
// so its paths go to Other; without the lock each would see room for all of its own. And the daily
// upsert's rows are sorted in one total order, whatever order a batch made them in.

import type { TransactionSQL } from "bun";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { NOW } from "../support/contract-suite.ts";
import { openEngine, type OpenedEngine } from "../support/engines.ts";
import { eventually } from "../support/eventually.ts";
import { connectPostgres } from "../../src/db/postgres/connect.ts";
import { orphanDailyKeyOrder, postgresOrphanWrites } from "../../src/db/postgres/orphan-visits.ts";
import { orphanBatchRows, orphanDailyRows, orphanDays, ORPHAN_SEQ, type OrphanDailyRow } from "../../src/visits/orphans.ts";
import { dayOf } from "../../src/util/day.ts";
import type { Visit } from "../../src/visits/visit.ts";

function orphan(path: string): Visit {
  return {
    linkSeq: ORPHAN_SEQ, linkId: "", ts: NOW, browser: "Firefox", os: "Linux", device: "desktop", country: "DE", referrer: "Direct",
    utmSource: null, utmMedium: null, utmCampaign: null, isBot: false, visitor: null, orphan: { type: "regular_404", path },
  };
}

test("the daily rows are sorted in one total order: a path's bot and human rows alike whatever order they came in", () => {
  const row = (path: string, isBot: boolean): OrphanDailyRow => ({ day: "2026-11-23", type: "regular_404", path, isBot, visits: 1 });
  const rows = [row("/b", true), row("/a", true), row("/b", false), row("/a", false)];
  const sorted = [...rows].sort(orphanDailyKeyOrder).map((r) => [r.path, r.isBot]);
  expect(sorted).toEqual([["/a", false], ["/a", true], ["/b", false], ["/b", true]]);
  expect([...rows].reverse().sort(orphanDailyKeyOrder).map((r) => [r.path, r.isBot])).toEqual(sorted);
  expect(orphanDailyKeyOrder(row("/a", true), row("/a", true))).toBe(0);
});

// SQLite has one writer: its batches never overlap.
describe("orphan paths across instances (postgres)", () => {
  let db: OpenedEngine;
  beforeEach(async () => (db = await openEngine("postgres")));
  afterEach(() => db.dispose());
  test("two instances' batches of 100 new paths each keep the day at 100 paths and Other", async () => {
    const sql = connectPostgres(db.location, { max: 3, password: null });
    try {
      const batch = (prefix: string) => Array.from({ length: 100 }, (_, i) => orphan(`/${prefix}/${i}`));
      const write = async (tx: TransactionSQL, visits: Visit[], afterRead: () => Promise<void>) => {
        const w = postgresOrphanWrites(tx, sql);
        const stored = await w.orphanPaths(orphanDays(visits));
        await afterRead();
        await w.addOrphans(orphanBatchRows(visits), orphanDailyRows(visits, stored));
      };
      let secondRead = false;
      let letFirstGo: () => void = () => {};
      const firstMayWrite = new Promise<void>((go) => (letFirstGo = go));
      let firstRead: () => void = () => {};
      const firstHasRead = new Promise<void>((go) => (firstRead = go));
      const first = sql.begin((tx) => write(tx, batch("one"), async () => {
        firstRead();
        await firstMayWrite;
      }));
      await firstHasRead;
      const second = sql.begin((tx) => write(tx, batch("two"), async () => void (secondRead = true)));
      // The second waits on the lock (seen in pg_locks), or, without it, has read already.
      await eventually(
        async () => secondRead || Number((await sql`SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)[0].n) > 0,
        (done) => done,
      );
      letFirstGo();
      await Promise.all([first, second]);
      const paths = await sql`SELECT path, SUM(visits) AS visits FROM orphan_daily WHERE day = ${dayOf(NOW)} GROUP BY path`;
      expect(paths.length).toBe(101);
      expect(Number(paths.find((p: { path: string }) => p.path === "\u0001other")?.visits)).toBe(100);
    } finally {
      await sql.close();
    }
  }, 60_000);
});
