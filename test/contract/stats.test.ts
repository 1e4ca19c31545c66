// A link's statistics (the StatsSource port of src/stats/link-stats.ts) on both engines: the rows
// a plan asks for, counted from the rollups and the newest raw batches, and read in one snapshot.

import { expect, test } from "bun:test";
import { Database, type Statement } from "bun:sqlite";
import type { SQL } from "bun";
import { createStatsReader, MAX_BREAKDOWN_ENTRIES, RECENT_VISITS, type StatsReader } from "../../src/stats/link-stats.ts";
import { sqliteStats } from "../../src/db/sqlite/stats.ts";
import { postgresStats } from "../../src/db/postgres/stats.ts";
import { connectPostgres } from "../../src/db/postgres/connect.ts";
import type { Link } from "../../src/links/link.ts";
import type { OpenedEngine } from "../support/engines.ts";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const all = { from: null, to: null, excludeBots: false };

async function linkWith(db: OpenedEngine, alias: string, createdAgoDays = 3): Promise<Link> {
  return db.storage.links.create({ url: "https://example.com/", alias }, NOW - createdAgoDays * DAY);
}

forEachEngine("stats", (db) => {
  test("totals, bots and uniques per day; every figure without bots when they are excluded", async () => {
    const link = await linkWith(db(), "s");
    const w = db().writer;
    w.record(visit(link, { ts: NOW - 2 * DAY, browser: "Firefox" }));
    w.record(visit(link, { ts: NOW - 2 * DAY + 1, browser: "Googlebot", isBot: true, country: "US" }));
    w.record(visit(link, { ts: NOW - HOUR, browser: "Firefox", referrer: "t.co", utmSource: "mail" }));
    w.record(visit(link, { ts: NOW, browser: "Safari", device: "mobile", os: "iOS", utmSource: "mail", utmCampaign: "x", isBot: true }));
    await w.flush();
    const s = await db().storage.stats.read(link, all, NOW);
    expect({ total: s.totalClicks, human: s.humanClicks, bots: s.botPercentage, uniques: s.uniqueVisitors }).toEqual({ total: 4, human: 2, bots: 50, uniques: 4 });
    expect(s.browserStats).toEqual([{ name: "Firefox", count: 2 }, { name: "Googlebot", count: 1 }, { name: "Safari", count: 1 }]);
    expect(s.countryStats).toEqual([{ name: "DE", count: 3 }, { name: "US", count: 1 }]);
    expect(s.utmStats).toEqual([{ source: "mail", medium: null, campaign: null, count: 1 }, { source: "mail", medium: null, campaign: "x", count: 1 }]);
    expect(s.visitsByDate.filter((d) => d.count > 0)).toEqual([{ date: "2026-11-21", count: 2, unique: 2 }, { date: "2026-11-23", count: 2, unique: 2 }]);
    expect(s.visitsByHour.filter((h) => h.count > 0)).toEqual([{ hour: "2026-11-23T11:00:00.000Z", count: 1, unique: 1 }, { hour: "2026-11-23T12:00:00.000Z", count: 1, unique: 1 }]);
    const humans = await db().storage.stats.read(link, { ...all, excludeBots: true }, NOW);
    expect({ total: humans.totalClicks, human: humans.humanClicks, bots: humans.botPercentage, uniques: humans.uniqueVisitors }).toEqual({ total: 2, human: 2, bots: 0, uniques: 2 });
    // A value seen only from bots is not listed at all, rather than with a count of 0.
    expect(humans.browserStats).toEqual([{ name: "Firefox", count: 2 }]);
    expect(humans.countryStats).toEqual([{ name: "DE", count: 2 }]);
    expect(humans.utmStats).toEqual([{ source: "mail", medium: null, campaign: null, count: 1 }]);
    expect(humans.recentVisits.every((v) => !v.isBot)).toBe(true);
  });

  test("imported clicks carry no visitor: null uniques for a day (and its hours) of imported clicks only, partial for a range with some", async () => {
    const link = await linkWith(db(), "imp", 5);
    await db().storage.imports.addVisits("contract", [], [
      visit(link, { ts: NOW - 30 * HOUR }), // 2026-11-22 06:00: that day's only clicks
      visit(link, { ts: NOW - 30 * HOUR + 1, isBot: true }),
      visit(link, { ts: NOW - 3 * DAY }), // 2026-11-20, beside a click recorded here
    ]);
    db().writer.record(visit(link, { ts: NOW - 3 * DAY + 1 }));
    db().writer.record(visit(link, { ts: NOW - HOUR }));
    await db().writer.flush();
    const day22 = await db().storage.stats.read(link, { from: "2026-11-22", to: "2026-11-22", excludeBots: false }, NOW);
    expect({ total: day22.totalClicks, uniques: day22.uniqueVisitors, partial: day22.uniqueVisitorsPartial }).toEqual({ total: 2, uniques: null, partial: false });
    expect(day22.visitsByDate).toEqual([{ date: "2026-11-22", count: 2, unique: null }]);
    expect(day22.visitsByHour.filter((h) => h.count > 0)).toEqual([{ hour: "2026-11-22T06:00:00.000Z", count: 2, unique: null }]);
    const humans = await db().storage.stats.read(link, { from: "2026-11-22", to: "2026-11-22", excludeBots: true }, NOW);
    expect(humans.visitsByDate).toEqual([{ date: "2026-11-22", count: 1, unique: null }]);
    const s = await db().storage.stats.read(link, all, NOW);
    expect({ total: s.totalClicks, uniques: s.uniqueVisitors, partial: s.uniqueVisitorsPartial }).toEqual({ total: 5, uniques: 2, partial: true });
    expect(s.visitsByDate.filter((d) => d.count > 0)).toEqual([
      { date: "2026-11-20", count: 2, unique: 1 },
      { date: "2026-11-22", count: 2, unique: null },
      { date: "2026-11-23", count: 1, unique: 1 },
    ]);
    // Days without clicks are known: none, not unknown.
    expect(s.visitsByDate.find((d) => d.date === "2026-11-21")).toEqual({ date: "2026-11-21", count: 0, unique: 0 });
  });

  test("from/to narrow every figure to those days; recent visits too", async () => {
    const link = await linkWith(db(), "r");
    for (let d = 0; d < 3; d++) db().writer.record(visit(link, { ts: NOW - d * DAY, country: ["DE", "FR", "IT"][d]! }));
    await db().writer.flush();
    const s = await db().storage.stats.read(link, { from: "2026-11-22", to: "2026-11-22", excludeBots: false }, NOW);
    expect(s.totalClicks).toBe(1);
    expect(s.countryStats).toEqual([{ name: "FR", count: 1 }]);
    expect(s.recentVisits.map((v) => v.country)).toEqual(["FR"]);
    expect(s.visitsByDate).toEqual([{ date: "2026-11-22", count: 1, unique: 1 }]);
  });

  test("breakdowns: largest first, ties by name, at most MAX_BREAKDOWN_ENTRIES names and then Other with the rest", async () => {
    const link = await linkWith(db(), "b");
    // Countries are not limited when stored (other.ts): 120 of them are all kept, and the answer lists 100.
    for (let i = 0; i < MAX_BREAKDOWN_ENTRIES + 20; i++) {
      for (let n = 0; n < (i < 3 ? 3 - i : 1); n++) db().writer.record(visit(link, { country: `C${String(i).padStart(3, "0")}` }));
    }
    await db().writer.flush();
    const s = await db().storage.stats.read(link, all, NOW);
    expect(s.countryStats).toHaveLength(MAX_BREAKDOWN_ENTRIES + 1);
    expect(s.countryStats.slice(0, 4)).toEqual([
      { name: "C000", count: 3 }, { name: "C001", count: 2 }, { name: "C002", count: 1 }, { name: "C003", count: 1 },
    ]);
    expect(s.countryStats.at(-2)).toEqual({ name: `C${String(MAX_BREAKDOWN_ENTRIES - 1).padStart(3, "0")}`, count: 1 });
    expect(s.countryStats.at(-1)).toEqual({ name: "Other", count: 20, other: true });
    expect(s.countryStats.reduce((n, c) => n + c.count, 0)).toBe(s.totalClicks);
  });

  test("recent visits: the newest across many batches, newest first, at most RECENT_VISITS", async () => {
    const link = await linkWith(db(), "n");
    for (let batch = 0; batch < 8; batch++) {
      for (let i = 0; i < 20; i++) db().writer.record(visit(link, { ts: NOW - 100_000 + batch * 1000 + i, browser: `B${batch}` }));
      await db().writer.flush();
    }
    const s = await db().storage.stats.read(link, all, NOW);
    expect(s.recentVisits).toHaveLength(RECENT_VISITS);
    const times = s.recentVisits.map((v) => Date.parse(v.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times[0]).toBe(NOW - 100_000 + 7 * 1000 + 19);
  });

  test("one snapshot: a batch committed between two of the read's statements is in every figure or in none", async () => {
    const link = await linkWith(db(), "snap");
    let statements = 0;
    // After the read's first statement, another connection (the recorder's) commits 5 visits.
    const between = async () => {
      if (++statements !== 1) return;
      for (let i = 0; i < 5; i++) db().writer.record(visit(link, { browser: "Firefox" }));
      await db().writer.flush();
    };
    const { reader, close } = await interleavedReader(db(), between);
    try {
      const s = await reader.read(link, all, NOW);
      expect(statements).toBeGreaterThanOrEqual(1); // the commit happened during the read
      const browsers = s.browserStats.reduce((n, b) => n + b.count, 0);
      expect({ totalClicks: s.totalClicks, browsers, recent: s.recentVisits.length }).toEqual(s.totalClicks === 0 ? { totalClicks: 0, browsers: 0, recent: 0 } : { totalClicks: 5, browsers: 5, recent: 5 });
    } finally {
      await close();
    }
    // The visits were committed: the next read has them all.
    expect((await db().storage.stats.read(link, all, NOW)).totalClicks).toBe(5);
  });
});

/**
 * The engine's stats adapter on a connection of its own whose statements call `between()` after
 * each one completes: a commit placed exactly between the first two statements of one read.
 */
async function interleavedReader(db: OpenedEngine, between: () => Promise<void>): Promise<{ reader: StatsReader; close(): Promise<void> }> {
  if (db.engine === "sqlite") {
    const raw = new Database(db.location, { strict: true });
    const wrap = (statement: Statement) =>
      new Proxy(statement, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target);
          if (typeof value !== "function") return value;
          if (prop !== "all" && prop !== "get" && prop !== "iterate") return value.bind(target);
          return (...args: unknown[]) => {
            const result = prop === "iterate" ? [...(value.apply(target, args) as Iterable<unknown>)] : value.apply(target, args);
            void between(); // SQLite's writer on the recorder's connection commits synchronously
            return result;
          };
        },
      });
    const proxied = new Proxy(raw, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "query" || prop === "prepare") return (sql: string) => wrap(value.call(target, sql));
        return value.bind(target);
      },
    });
    return { reader: createStatsReader(sqliteStats(proxied)), close: async () => raw.close() };
  }
  const sql = connectPostgres(db.location, { max: 2, password: null });
  // The first statement runs; the others are sent once its rows are in and the commit is done.
  let first: Promise<unknown> | null = null;
  const wrapTx = (tx: SQL) =>
    new Proxy(tx, {
      apply(target, thisArg, args) {
        if (first === null) {
          first = Promise.resolve(Reflect.apply(target, thisArg, args)).then(async (rows) => {
            await between();
            return rows;
          });
          return first;
        }
        return first.then(() => Reflect.apply(target, thisArg, args));
      },
    });
  const proxied = new Proxy(sql, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "begin") return (options: string, fn: (tx: SQL) => Promise<unknown>) => (value as SQL["begin"]).call(target, options, (tx: SQL) => fn(wrapTx(tx)));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { reader: createStatsReader(postgresStats(proxied)), close: () => sql.close() };
}
