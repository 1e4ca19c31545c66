// Raw visits stored in batches: encoding (batchRows), SQLite's reading of the recent visits of a
// link from them, and migration 2 from a file that still has one row per visit.

import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { batchRows, parseBatch } from "../../src/visits/visit-batch.ts";
import type { Visit } from "../../src/visits/visit.ts";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import { migrate, SCHEMA_VERSION } from "../../src/db/sqlite/schema.ts";
import { createVisitWriter } from "../../src/db/sqlite/visit-batches.ts";
import { sqliteStats } from "../../src/db/sqlite/stats.ts";
import { sqliteLinks } from "../../src/db/sqlite/links.ts";
import { planStats } from "../../src/stats/link-stats.ts";
import type { StoredVisit } from "../../src/visits/visit-batch.ts";

const T0 = Date.parse("2026-11-22T10:00:00.000Z");
const visit = (o: Partial<Visit>): Visit => ({
  linkSeq: 1, linkId: "a", ts: T0, browser: "Chrome", os: "Windows", device: "desktop", country: "DE", referrer: "Direct",
  utmSource: null, utmMedium: null, utmCampaign: null, isBot: false, visitor: null, ...o,
});

const dirs: string[] = [];
function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), "shortener-batches-"));
  dirs.push(dir);
  return join(dir, "s.db");
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("batchRows", () => {
  test("one row per link, visits in order, bounds and humans counted, every field kept", () => {
    const rows = batchRows([
      visit({ ts: T0 }),
      visit({ linkSeq: 2, linkId: "b", ts: T0 + 1, isBot: true, utmSource: "news", utmMedium: "mail", utmCampaign: "spring" }),
      visit({ ts: T0 + 2, browser: "Firefox", isBot: true }),
    ]);
    expect(rows.map(({ visits, ...r }) => r)).toEqual([
      { linkSeq: 1, firstTs: T0, lastTs: T0 + 2, humans: 1 },
      { linkSeq: 2, firstTs: T0 + 1, lastTs: T0 + 1, humans: 0 },
    ]);
    expect(parseBatch(rows[0]!.visits)).toEqual([
      [T0, "Chrome", "Windows", "desktop", "DE", "Direct", null, null, null, 0],
      [T0 + 2, "Firefox", "Windows", "desktop", "DE", "Direct", null, null, null, 1],
    ]);
    expect(parseBatch(rows[1]!.visits)).toEqual([[T0 + 1, "Chrome", "Windows", "desktop", "DE", "Direct", "news", "mail", "spring", 1]]);
  });

  test("a link's visits are split into rows of at most maxPerRow, none lost", () => {
    const batch = Array.from({ length: 25 }, (_, i) => visit({ linkSeq: i % 2 ? 1 : 2, ts: T0 + i }));
    const rows = batchRows(batch, 4);
    expect(rows.every((r) => parseBatch(r.visits).length <= 4)).toBe(true);
    const back = rows.flatMap((r) => parseBatch(r.visits).map((v) => `${r.linkSeq}@${v[0]}`)).sort();
    expect(back).toEqual(batch.map((v) => `${v.linkSeq}@${v.ts}`).sort());
  });
});

/** The recent visits SQLite's stats read for a link, by its alias (at most limit, in [fromTs, toTs)). */
function recentReader(db: ReturnType<typeof openDatabase>) {
  const rows = sqliteStats(db);
  const seqOf = db.query<{ seq: number }, [string]>("SELECT seq FROM links WHERE id = ?");
  return (linkId: string, fromTs: number, toTs: number, excludeBots: boolean, limit: number): StoredVisit[] => {
    const plan = planStats({ id: linkId, createdAt: 0 } as never, { from: null, to: null, excludeBots }, toTs);
    return rows([seqOf.get(linkId)!.seq], { ...plan, recent: { fromTs, toTs } }).recent.slice(0, limit);
  };
}

describe("recent visits from batches (real SQLite file)", () => {
  function seeded(visits: Visit[], batchSize: number) {
    const db = openDatabase(tempDb());
    // The writer keeps visits only of links that exist.
    const links = sqliteLinks(db);
    const seqs = new Map<string, number>();
    for (const alias of new Set(visits.map((v) => v.linkId))) seqs.set(alias, links.insert(alias, { url: "https://example.com/" }, T0) as number);
    const writer = createVisitWriter(db, { flushIntervalMs: 60_000, batchSize });
    for (const v of visits) writer.record({ ...v, linkSeq: seqs.get(v.linkId)! });
    writer.close();
    return { db, recent: recentReader(db) };
  }

  test("the newest visits across many batches, newest first, cut at the limit", () => {
    const visits = Array.from({ length: 500 }, (_, i) => visit({ ts: T0 + i * 1000, isBot: i % 3 === 0, linkId: i % 5 === 0 ? "other" : "a" }));
    const { db, recent } = seeded(visits, 37);
    const expected = visits.filter((v) => v.linkId === "a").sort((x, y) => y.ts - x.ts).slice(0, 50).map((v) => v.ts);
    expect(recent("a", 0, T0 + 10_000_000, false, 50).map((v) => v[0])).toEqual(expected);
    db.close();
  });

  test("bots excluded: only humans, and batches of bots alone are skipped", () => {
    const humans = Array.from({ length: 10 }, (_, i) => visit({ ts: T0 + i }));
    const bots = Array.from({ length: 300 }, (_, i) => visit({ ts: T0 + 1000 + i, isBot: true }));
    const { db, recent } = seeded([...humans, ...bots], 50);
    const got = recent("a", 0, T0 + 10_000_000, true, 50);
    expect(got.map((v) => v[0])).toEqual(humans.map((v) => v.ts).reverse());
    expect(got.every((v) => v[9] === 0)).toBe(true);
    expect(recent("a", 0, T0 + 10_000_000, false, 5).map((v) => v[9])).toEqual([1, 1, 1, 1, 1]);
    db.close();
  });

  test("the time range is [from, to): bounds inside a batch are respected", () => {
    const visits = Array.from({ length: 100 }, (_, i) => visit({ ts: T0 + i }));
    const { db, recent } = seeded(visits, 1000); // one batch holds them all
    expect(recent("a", T0 + 10, T0 + 20, false, 50).map((v) => v[0])).toEqual(Array.from({ length: 10 }, (_, i) => T0 + 19 - i));
    expect(recent("a", T0 + 500, T0 + 600, false, 50)).toEqual([]);
    db.close();
  });
});

describe("migration 2: one row per visit → batches", () => {
  test("every visit is kept, readable through the visits view and the recent-visits reader", () => {
    const path = tempDb();
    const v1 = new Database(path, { create: true, strict: true });
    migrate(v1, 1);
    // The links exist: migration 12 keeps only the visits of links it knows (by their seq).
    v1.run("INSERT INTO links (id, url, created_at) VALUES ('a', 'https://example.com/a', 0), ('b', 'https://example.com/b', 0)");
    const insert = v1.query(
      `INSERT INTO visits (link_id, ts, browser, os, device, country, referrer, utm_source, utm_medium, utm_campaign, is_bot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const rows: unknown[][] = [];
    v1.run("BEGIN");
    for (let i = 0; i < 3000; i++) {
      // two links, some with UTM, some bots; ~700 visits a second: more than one stored row holds
      const row = [i % 2 ? "a" : "b", T0 + Math.floor(i * 1.4), i % 3 ? "Chrome" : "Googlebot", "Linux", "desktop", "FR", "t.co", i % 4 ? null : "news", null, i % 4 ? null : "x", i % 3 ? 0 : 1];
      insert.run(...(row as [string]));
      rows.push(row);
    }
    v1.run("COMMIT");
    v1.close();

    const db = openDatabase(path); // runs migration 2
    expect((db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
    const viewed = db
      .query("SELECT l.id, ts, browser, os, device, country, referrer, utm_source, utm_medium, utm_campaign, is_bot FROM visits JOIN links AS l ON l.seq = visits.link_seq ORDER BY ts")
      .values();
    expect(viewed).toEqual(rows as never);
    const sizes = db.query("SELECT json_array_length(visits) AS n FROM visit_batches").all() as { n: number }[];
    expect(Math.max(...sizes.map((r) => r.n))).toBe(200); // runs of at most 200, as the writer stores them
    expect(sizes.reduce((sum, r) => sum + r.n, 0)).toBe(3000);
    const newestOfA = rows.filter((r) => r[0] === "a").map((r) => r[1] as number).sort((x, y) => y - x).slice(0, 50);
    expect(recentReader(db)("a", 0, T0 + 1e9, false, 50).map((v) => v[0])).toEqual(newestOfA);
    expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    db.close();
  });
});
