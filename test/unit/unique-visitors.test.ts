// Unique visitors on a real SQLite file, with an injected clock: the same person is one visitor a
// day (and an hour), a new one the next day; a restart does not count them again; salts and keys
// of past days are deleted, from the file's bytes too, and nothing identifies an address. What
// both engines promise about salts and seen visitors is test/contract/visitor-salts.test.ts.

import { createEventWants } from "../../src/events/wants.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";
import { createVisitorIds } from "../../src/visits/visitor-id.ts";
import { createSeenVisitors } from "../../src/db/sqlite/seen-visitors.ts";
import { createForgetting } from "../../src/visits/forget.ts";
import { createVisitWriter } from "../../src/db/sqlite/visit-batches.ts";
import { sqliteSalts } from "../../src/db/sqlite/visitor-salts.ts";
import { sqliteLinks } from "../../src/db/sqlite/links.ts";
import { openSqliteRecorder } from "../../src/db/sqlite/recorder.ts";
import { createVisitQueue } from "../../src/visits/visit-queue.ts";
import { createLinkStore, localClickBudget } from "../../src/links/store.ts";
import type { Visit } from "../../src/visits/visit.ts";
import { tempDatabase, type TempDb } from "../support/db.ts";
import type { Link } from "../../src/links/link.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = Date.parse("2026-11-23T10:15:00.000Z");
let t: TempDb;
/** The seq of the test's link "uv": what its visits and visitor keys are made of. */
let uv = 0;
afterEach(() => t?.dispose());

type Clock = { value: number };
/** One "process": its own salts cache and seen sets, over the shared database file. */
function processOn(clock: Clock) {
  return { ids: createVisitorIds(sqliteSalts(t.db), () => clock.value), seen: createSeenVisitors(t.db, clock.value) };
}
function setup(clock: Clock) {
  t = tempDatabase();
  uv = (createLinkStore(sqliteLinks(t.db), localClickBudget()).create({ url: "https://example.com/", alias: "uv" }, T0 - DAY) as Link).seq;
  return processOn(clock);
}

/** Records clicks and flushes them, as the recorder thread would. */
function record(p: ReturnType<typeof processOn>, clock: Clock, clicks: { ts: number; address: string; ua?: string; bot?: boolean }[]) {
  const writer = createVisitWriter(t.db, { flushIntervalMs: 60_000, seen: p.seen, now: () => clock.value });
  for (const c of clicks) {
    const visit: Visit = {
      linkSeq: uv, linkId: "uv", ts: c.ts, browser: "X", os: "X", device: "desktop", country: "DE", referrer: "Direct", utmSource: null, utmMedium: null, utmCampaign: null,
      isBot: c.bot ?? false, visitor: p.ids.of(c.ts, uv, c.address, c.ua ?? "Firefox"),
    };
    writer.record(visit);
  }
  writer.close();
}

const dailyRow = (day: string) => t.db.query("SELECT total, bots, uniques, unique_bots FROM daily_rollup WHERE link_seq = ? AND day = ?").get(uv, day);
const hourlyRows = () => t.db.query("SELECT hour, total, uniques FROM hourly_rollup WHERE link_seq = ? ORDER BY hour").all(uv);
const count = (table: string) => (t.db.query(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("per day", () => {
  test("one address and User-Agent clicking 5 times: 5 clicks, 1 unique; another address or agent: another", () => {
    const clock = { value: T0 };
    const p = setup(clock);
    record(p, clock, Array.from({ length: 5 }, (_, i) => ({ ts: T0 + i * 1000, address: "203.0.113.7" })));
    expect(dailyRow("2026-11-23")).toEqual({ total: 5, bots: 0, uniques: 1, unique_bots: 0 });
    record(p, clock, [{ ts: T0 + 9000, address: "203.0.113.8" }, { ts: T0 + 9001, address: "203.0.113.7", ua: "Chrome" }, { ts: T0 + 9002, address: "2001:db8::1", bot: true }]);
    expect(dailyRow("2026-11-23")).toEqual({ total: 8, bots: 1, uniques: 4, unique_bots: 1 });
  });

  test("the same person tomorrow is a new unique (a new salt); a restart within the day is not", () => {
    const clock = { value: T0 };
    record(setup(clock), clock, [{ ts: T0, address: "198.51.100.1" }]);
    const restarted = processOn(clock); // a new process: sets rebuilt from the database
    record(restarted, clock, [{ ts: T0 + 60_000, address: "198.51.100.1" }]);
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 2, uniques: 1 });
    clock.value = T0 + DAY;
    record(restarted, clock, [{ ts: T0 + DAY, address: "198.51.100.1" }]);
    expect(dailyRow("2026-11-24")).toMatchObject({ total: 1, uniques: 1 });
    const salts = t.db.query("SELECT day, salt FROM visitor_salts ORDER BY day").all() as { day: string; salt: Uint8Array }[];
    expect(salts.map((s) => s.day)).toEqual(["2026-11-23", "2026-11-24"]);
    expect(Buffer.from(salts[0]!.salt).equals(Buffer.from(salts[1]!.salt))).toBe(false);
  });

  test("a process on a disk that refuses writes still finds the day's stored salt (the same visitor keys)", () => {
    const clock = { value: T0 };
    const p = setup(clock);
    const before = p.ids.of(T0, uv, "203.0.113.5", "Firefox");
    const readOnly = new Database(t.path, { readonly: true });
    try {
      const restarted = createVisitorIds(sqliteSalts(readOnly), () => clock.value);
      expect(restarted.of(T0 + 1000, uv, "203.0.113.5", "Firefox")).toBe(before);
    } finally {
      readOnly.close();
    }
  });

  test("a click from just before midnight, written after it, still finds its day's salt and visitors", () => {
    const clock = { value: Date.parse("2026-11-24T00:00:00.200Z") };
    const p = setup(clock);
    const late = Date.parse("2026-11-23T23:59:59.900Z");
    record(p, clock, [{ ts: late, address: "198.51.100.2" }, { ts: late + 50, address: "198.51.100.2" }]);
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 2, uniques: 1 });
  });

  test("a batch that fails to write is counted once when it is written again", () => {
    const clock = { value: T0 };
    const p = setup(clock);
    const writer = createVisitWriter(t.db, { flushIntervalMs: 60_000, seen: p.seen, now: () => clock.value });
    const visit = (address: string): Visit => ({
      linkSeq: uv, linkId: "uv", ts: T0, browser: "X", os: "X", device: "desktop", country: "DE", referrer: "Direct", utmSource: null, utmMedium: null, utmCampaign: null,
      isBot: false, visitor: p.ids.of(T0, uv, address, "Firefox"),
    });
    writer.record(visit("192.0.2.1"));
    t.db.run("CREATE TRIGGER fail_once BEFORE INSERT ON hourly_rollup BEGIN SELECT RAISE(ABORT, 'disk trouble'); END");
    expect(writer.flush()).toBe(0); // refused, kept queued
    t.db.run("DROP TRIGGER fail_once");
    expect(writer.flush()).toBe(1);
    writer.close();
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 1, uniques: 1 });
    expect(count("visitors_seen")).toBe(2); // one row for the day, one for the hour
  });
});

describe("per hour", () => {
  test("the same visitor in two hours: one unique each hour, one for the day", () => {
    const clock = { value: T0 + HOUR + 60_000 }; // both hours still kept (hour 10 is over by less than an hour)
    const p = setup(clock);
    record(p, clock, [{ ts: T0, address: "203.0.113.9" }, { ts: T0 + 60_000, address: "203.0.113.9" }, { ts: T0 + HOUR, address: "203.0.113.9" }]);
    expect(hourlyRows()).toEqual([{ hour: "2026-11-23T10", total: 2, uniques: 1 }, { hour: "2026-11-23T11", total: 1, uniques: 1 }]);
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 3, uniques: 1 });
  });
});

describe("bounded memory", () => {
  test("past the visitor limit new visitors are counted, not remembered, and the owner is told once", () => {
    const clock = { value: T0 + 60_000 };
    t = tempDatabase();
    uv = (createLinkStore(sqliteLinks(t.db), localClickBudget()).create({ url: "https://example.com/", alias: "uv" }, T0 - DAY) as Link).seq;
    let full = 0;
    const p = { ids: createVisitorIds(sqliteSalts(t.db), () => clock.value), seen: createSeenVisitors(t.db, clock.value, 2, () => full++) };
    // Room for two visitors.
    record(p, clock, [{ ts: T0, address: "192.0.2.1" }, { ts: T0, address: "192.0.2.2" }, { ts: T0, address: "192.0.2.3" }, { ts: T0, address: "192.0.2.3" }, { ts: T0, address: "192.0.2.1" }]);
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 5, uniques: 4 }); // 1, 2, 3, 3 again (not remembered); 1 again is known
    expect(p.seen.size).toBe(2);
    expect(full).toBeGreaterThan(0);
    // A visitor held is still told apart per hour at the limit: new in the next hour, once.
    clock.value = T0 + HOUR + 60_000;
    record(p, clock, [{ ts: T0 + HOUR, address: "192.0.2.2" }, { ts: T0 + HOUR + 1_000, address: "192.0.2.2" }]);
    expect(hourlyRows().at(-1)).toEqual({ hour: "2026-11-23T11", total: 2, uniques: 1 });
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 7, uniques: 4 });
  });
});

describe("forgetting", () => {
  test("an hour after a day (or hour) is over, its salt and keys are deleted; the counts stay", () => {
    const clock = { value: T0 };
    const p = setup(clock);
    record(p, clock, [{ ts: T0, address: "203.0.113.10" }]);
    expect(count("visitor_salts")).toBe(1);
    expect(count("visitors_seen")).toBe(2);
    clock.value = T0 + 2 * HOUR; // the hour of the click is over by more than an hour
    p.ids.forgetOldDays(clock.value);
    p.seen.forget(clock.value);
    expect(t.db.query("SELECT bucket FROM visitors_seen").all()).toEqual([{ bucket: "2026-11-23" }]);
    clock.value = Date.parse("2026-11-24T00:30:00Z"); // the next day, within the hour of grace
    p.ids.forgetOldDays(clock.value);
    p.seen.forget(clock.value);
    expect(count("visitor_salts")).toBe(1);
    clock.value = Date.parse("2026-11-24T01:00:00Z");
    p.ids.forgetOldDays(clock.value);
    p.seen.forget(clock.value);
    expect(count("visitor_salts")).toBe(0);
    expect(count("visitors_seen")).toBe(0);
    expect(p.seen.size).toBe(0);
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 1, uniques: 1 });
    // A click dated that gone day has no salt any more: it counts, as a new visitor, and leaves no key.
    record(p, clock, [{ ts: T0, address: "203.0.113.10" }]);
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 2, uniques: 2 });
    expect(count("visitors_seen")).toBe(0);
  });

  test("once forgotten, the salt and the visitor keys are gone from the file's bytes, its write-ahead log included", async () => {
    const clock = { value: T0 };
    setup(clock);
    // The recorder thread's own storage, on its own connection, as the service runs it.
    const recorder = openSqliteRecorder(t.path, { info() {}, error() {} }, createEventWants(), () => clock.value);
    const ids = createVisitorIds(recorder.salts, () => clock.value);
    const writer = createVisitQueue(recorder.batches, { flushIntervalMs: 60_000 });
    // Enough visitors that the day's keys spill over into overflow pages too.
    for (let i = 0; i < 700; i++) {
      const ts = T0 + i;
      const address = `198.51.${100 + (i >> 8)}.${i & 255}`;
      writer.record({ linkSeq: uv, linkId: "uv", ts, browser: "X", os: "X", device: "desktop", country: "DE", referrer: "Direct", utmSource: null, utmMedium: null, utmCampaign: null, isBot: false, visitor: ids.of(ts, uv, address, "Firefox") });
    }
    await writer.close();
    const salt = Buffer.from((t.db.query("SELECT salt FROM visitor_salts").get() as { salt: Uint8Array }).salt);
    const keys: Buffer[] = [];
    for (const row of t.db.query("SELECT visitors FROM visitors_seen").all() as { visitors: Uint8Array }[]) {
      for (let at = 0; at < row.visitors.length; at += 8) keys.push(Buffer.from(row.visitors.subarray(at, at + 8)));
    }
    expect(keys.length).toBe(1400); // each visitor once for the day and once for the hour
    const fileBytes = () => Buffer.concat([t.path, `${t.path}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
    const held = (bytes: Buffer) => ({ salt: bytes.includes(salt), keys: keys.filter((k) => bytes.includes(k)).length });
    // The search finds them while they are kept (all but the few keys split by an overflow page's boundary).
    const before = held(fileBytes());
    expect(before.salt).toBe(true);
    expect(before.keys).toBeGreaterThan(1350);

    const forget = createForgetting(ids, recorder);
    await forget(Date.parse("2026-11-24T00:30:00Z")); // the hour's keys go; the day's are kept in its hour of grace
    clock.value = Date.parse("2026-11-24T01:00:00Z");
    await forget(clock.value);
    expect(count("visitor_salts")).toBe(0);
    expect(count("visitors_seen")).toBe(0);
    expect(held(fileBytes())).toEqual({ salt: false, keys: 0 });
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 700, uniques: 700 });
    await recorder.close();
  });

  test("the file never holds the address, in text or binary, IPv4 or IPv6", () => {
    const clock = { value: T0 };
    const p = setup(clock);
    const v4 = "203.0.113.77";
    const v6 = "2001:db8:85a3::8a2e:370:7334";
    record(p, clock, [{ ts: T0, address: v4 }, { ts: T0 + 1, address: v6 }]);
    t.db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const bytes = readFileSync(t.path);
    expect(bytes.includes(Buffer.from(v4))).toBe(false);
    expect(bytes.includes(Buffer.from(v6))).toBe(false);
    expect(bytes.includes(Buffer.from([203, 0, 113, 77]))).toBe(false);
    expect(bytes.includes(Buffer.from("20010db885a3000000000000" + "8a2e03707334", "hex"))).toBe(false);
  });
});
