// The recorder's batch writer (the BatchStore port of src/visits/visit-queue.ts) on both engines:
// one transaction per batch with the links' totals, the raw visits, the rollups and the first
// visits of each visitor; a refused batch stays queued and is counted once when it is written.

import { expect, test } from "bun:test";
import type { OpenedEngine } from "../support/engines.ts";
import type { Visit } from "../../src/visits/visit.ts";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";

const HOUR = 3_600_000;

// mulberry32 with a fixed seed: a failure repeats exactly.
function seeded(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** Makes every write to hourly_rollup fail (a disk in trouble) until the returned undo runs. */
async function refuseWrites(db: OpenedEngine): Promise<() => Promise<void>> {
  const run = (sql: string) => (db.engine === "sqlite" ? runSqlite(db, sql) : runPostgres(db, sql));
  if (db.engine === "sqlite") {
    await run("CREATE TRIGGER refuse BEFORE INSERT ON hourly_rollup BEGIN SELECT RAISE(ABORT, 'disk trouble'); END");
    return () => run("DROP TRIGGER refuse");
  }
  await run("CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk trouble'; END $$");
  await run("CREATE TRIGGER refuse BEFORE INSERT ON hourly_rollup FOR EACH ROW EXECUTE FUNCTION refuse()");
  return async () => {
    await run("DROP TRIGGER refuse ON hourly_rollup");
    await run("DROP FUNCTION refuse()");
  };
}
async function runSqlite(db: OpenedEngine, sql: string): Promise<void> {
  const { Database } = await import("bun:sqlite");
  const raw = new Database(db.location);
  raw.run(sql);
  raw.close();
}
async function runPostgres(db: OpenedEngine, sql: string): Promise<void> {
  const { SQL } = await import("bun");
  const pg = new SQL(db.location, { max: 1 });
  await pg.unsafe(sql);
  await pg.close();
}

forEachEngine("visit batches", (db) => {
  test("one batch: totals on the link, the raw visits, and every rollup with exact counts", async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "w" }, NOW - HOUR);
    const w = db().writer;
    w.record(visit(link, { ts: NOW - HOUR, browser: "Firefox", utmSource: "a", utmMedium: "b", utmCampaign: "c" }));
    w.record(visit(link, { ts: NOW, browser: "Firefox", isBot: true, referrer: "t.co" }));
    w.record(visit(link, { ts: NOW + 1, browser: "Safari", country: "FR", utmSource: "a" }));
    expect(await w.flush()).toBe(3);
    const s = db().stored;
    expect(await s.get("SELECT total_clicks, human_clicks, last_click_at FROM links WHERE id = 'w'")).toEqual({ total_clicks: 3, human_clicks: 2, last_click_at: NOW + 1 });
    expect(await s.all("SELECT link_seq, first_ts, last_ts, humans FROM visit_batches")).toEqual([{ link_seq: link.seq, first_ts: NOW - HOUR, last_ts: NOW + 1, humans: 2 }]);
    expect(await s.all("SELECT day, total, bots, uniques, unique_bots FROM daily_rollup")).toEqual([{ day: "2026-11-23", total: 3, bots: 1, uniques: 3, unique_bots: 1 }]);
    expect(await s.all("SELECT hour, total, bots FROM hourly_rollup ORDER BY hour")).toEqual([{ hour: "2026-11-23T11", total: 1, bots: 0 }, { hour: "2026-11-23T12", total: 2, bots: 1 }]);
    expect(await s.all("SELECT dimension, name, total, bots FROM dimension_rollup WHERE dimension IN ('browser', 'referrer') ORDER BY dimension, name")).toEqual([
      { dimension: "browser", name: "Firefox", total: 2, bots: 1 },
      { dimension: "browser", name: "Safari", total: 1, bots: 0 },
      { dimension: "referrer", name: "Direct", total: 2, bots: 0 },
      { dimension: "referrer", name: "t.co", total: 1, bots: 1 },
    ]);
    expect(await s.all("SELECT source, medium, campaign, total FROM utm_rollup ORDER BY medium")).toEqual([{ source: "a", medium: "", campaign: "", total: 1 }, { source: "a", medium: "b", campaign: "c", total: 1 }]);
    // A second batch adds to the same rows.
    w.record(visit(link, { ts: NOW + 2, browser: "Safari" }));
    await w.flush();
    expect(await s.get("SELECT total, uniques FROM daily_rollup")).toEqual({ total: 4, uniques: 4 });
    expect(await s.get("SELECT total FROM dimension_rollup WHERE dimension = 'browser' AND name = 'Safari'")).toEqual({ total: 2 });
  });

  test("a visitor is counted once a day and once an hour, across batches and after a restart", async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "u" }, NOW - HOUR);
    const w = db().writer;
    w.record(visit(link, { ts: NOW - HOUR, visitor: 42 }));
    w.record(visit(link, { ts: NOW - HOUR + 1, visitor: 42 }));
    w.record(visit(link, { ts: NOW, visitor: 43, isBot: true }));
    await w.flush();
    w.record(visit(link, { ts: NOW + 1, visitor: 42 })); // a new hour for 42, not a new day
    await w.flush();
    const restarted = await db().reopen();
    const { createVisitQueue } = await import("../../src/visits/visit-queue.ts");
    const later = createVisitQueue(restarted.recorder.batches, { flushIntervalMs: 3_600_000 });
    later.record(visit(link, { ts: NOW + 2, visitor: 43, isBot: true }));
    later.record(visit(link, { ts: NOW + 3, visitor: 44 }));
    await later.close();
    expect(await db().stored.get("SELECT total, bots, uniques, unique_bots FROM daily_rollup")).toEqual({ total: 6, bots: 2, uniques: 3, unique_bots: 1 });
    expect(await db().stored.all("SELECT hour, total, uniques FROM hourly_rollup ORDER BY hour")).toEqual([
      { hour: "2026-11-23T11", total: 2, uniques: 1 },
      { hour: "2026-11-23T12", total: 4, uniques: 3 },
    ]);
  });

  test("a batch the database refuses stays queued, and is written and counted once when it can be", async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "f" }, NOW);
    const w = db().writer;
    w.record(visit(link, { visitor: 7 }));
    const undo = await refuseWrites(db());
    expect(await w.flush()).toBe(0);
    expect(w.stats()).toMatchObject({ queued: 1, written: 0, lastError: expect.stringContaining("disk trouble") });
    expect(await db().stored.get("SELECT total_clicks FROM links")).toEqual({ total_clicks: 0 }); // nothing of it committed
    await undo();
    expect(await w.flush()).toBe(1);
    expect(w.stats()).toMatchObject({ queued: 0, written: 1, lastError: null });
    expect(await db().stored.get("SELECT total, uniques FROM daily_rollup")).toEqual({ total: 1, uniques: 1 });
    expect(await db().stored.get("SELECT total_clicks FROM links")).toEqual({ total_clicks: 1 });
  });

  test("a random stream over two hours, in batches, one refused and a restart between: uniques as a Set per day and per hour counts them", async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "r" }, NOW - 2 * HOUR);
    const random = seeded(36);
    const pool = Array.from({ length: 40 }, () => random(2 ** 26) * 2 ** 26 + random(2 ** 26));
    const visits: Visit[] = [];
    for (let ts = NOW - HOUR; ts < NOW + 50_000; ts += 1 + random(90_000)) visits.push(visit(link, { ts, visitor: pool[random(pool.length)]!, isBot: random(5) === 0 }));
    // The rule, plainly: the first time a key is seen in its day (its hour) counts there.
    const seen = new Set<string>();
    const expected = new Map<string, { total: number; uniques: number }>();
    for (const v of visits) {
      for (const bucket of [new Date(v.ts).toISOString().slice(0, 10), new Date(v.ts).toISOString().slice(0, 13)]) {
        const row = expected.get(bucket) ?? { total: 0, uniques: 0 };
        expected.set(bucket, row);
        row.total++;
        if (!seen.has(`${bucket} ${v.visitor}`)) row.uniques++;
        seen.add(`${bucket} ${v.visitor}`);
      }
    }
    const half = visits.length >> 1;
    let w = db().writer;
    for (const [i, v] of visits.slice(0, half).entries()) {
      w.record(v);
      if (i % 7 === 6) await w.flush();
    }
    const undo = await refuseWrites(db());
    expect(await w.flush()).toBe(0); // refused: kept queued, its visitors unseen
    await undo();
    await w.flush();
    const { createVisitQueue } = await import("../../src/visits/visit-queue.ts");
    const restarted = await db().reopen();
    const later = createVisitQueue(restarted.recorder.batches, { flushIntervalMs: 3_600_000 });
    for (const [i, v] of visits.slice(half).entries()) {
      later.record(v);
      if (i % 5 === 4) await later.flush();
    }
    await later.close();
    const day = await db().stored.get<{ total: number; uniques: number }>("SELECT total, uniques FROM daily_rollup WHERE link_seq = ?", link.seq);
    expect(day).toEqual(expected.get("2026-11-23")!);
    const hours = await db().stored.all<{ hour: string; total: number; uniques: number }>("SELECT hour, total, uniques FROM hourly_rollup WHERE link_seq = ? ORDER BY hour", link.seq);
    expect(hours).toEqual([...expected].filter(([bucket]) => bucket.length === 13).map(([hour, row]) => ({ hour, ...row })));
    expect(expected.get("2026-11-23")!.uniques).toBeLessThan(visits.length); // visitors came back
  });
});
