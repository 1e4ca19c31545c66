// Unique visitors on a real SQLite file, with an injected clock: the same person is one visitor a
// day (and an hour), a new one the next day; a restart does not count them again; salts and hashes
// of past days are deleted and nothing identifies an address.

import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createVisitorIds } from "../../src/visits/visitor-id.ts";
import { createVisitWriter } from "../../src/visits/writer.ts";
import { createLinkStore } from "../../src/links/store.ts";
import type { Visit } from "../../src/visits/visit.ts";
import { tempDatabase, type TempDb } from "../support/db.ts";

const DAY = 86_400_000;
const T0 = Date.parse("2026-11-23T10:15:00.000Z");
let t: TempDb;
afterEach(() => t?.dispose());

function setup(now: { value: number }) {
  t = tempDatabase();
  createLinkStore(t.db).create({ url: "https://example.com/", alias: "uv" }, T0 - DAY);
  return { ids: createVisitorIds(t.db, () => now.value) };
}

/** Records clicks through a fresh writer (a new one per call, like a restart) and flushes them. */
function record(ids: ReturnType<typeof createVisitorIds>, clicks: { ts: number; address: string; ua?: string; bot?: boolean }[]) {
  const writer = createVisitWriter(t.db, { flushIntervalMs: 60_000 });
  for (const c of clicks) {
    const visit: Visit = {
      linkId: "uv", ts: c.ts, browser: "X", os: "X", device: "desktop", country: "DE", referrer: "Direct", utmSource: null, utmMedium: null, utmCampaign: null,
      isBot: c.bot ?? false, visitor: ids.of(c.ts, "uv", c.address, c.ua ?? "Firefox"),
    };
    writer.record(visit);
  }
  writer.close();
}

const dailyRow = (day: string) => t.db.query("SELECT total, bots, uniques, unique_bots FROM daily_rollup WHERE link_id = 'uv' AND day = ?").get(day);
const hourlyRows = () => t.db.query("SELECT hour, total, uniques FROM hourly_rollup WHERE link_id = 'uv' ORDER BY hour").all();

describe("per day", () => {
  test("one address and User-Agent clicking 5 times: 5 clicks, 1 unique; another address or agent: another", () => {
    const now = { value: T0 };
    const { ids } = setup(now);
    record(ids, Array.from({ length: 5 }, (_, i) => ({ ts: T0 + i * 1000, address: "203.0.113.7" })));
    expect(dailyRow("2026-11-23")).toEqual({ total: 5, bots: 0, uniques: 1, unique_bots: 0 });
    record(ids, [{ ts: T0 + 9000, address: "203.0.113.8" }, { ts: T0 + 9001, address: "203.0.113.7", ua: "Chrome" }, { ts: T0 + 9002, address: "2001:db8::1", bot: true }]);
    expect(dailyRow("2026-11-23")).toEqual({ total: 8, bots: 1, uniques: 4, unique_bots: 1 });
  });

  test("the same person tomorrow is a new unique (a new salt); a restart within the day is not", () => {
    const now = { value: T0 };
    const { ids } = setup(now);
    record(ids, [{ ts: T0, address: "198.51.100.1" }]);
    const restarted = createVisitorIds(t.db, () => now.value); // a new process, same database
    record(restarted, [{ ts: T0 + 60_000, address: "198.51.100.1" }]);
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 2, uniques: 1 });
    now.value = T0 + DAY;
    record(restarted, [{ ts: T0 + DAY, address: "198.51.100.1" }]);
    expect(dailyRow("2026-11-24")).toMatchObject({ total: 1, uniques: 1 });
    const salts = t.db.query("SELECT day, salt FROM visitor_salts ORDER BY day").all() as { day: string; salt: Uint8Array }[];
    expect(salts.map((s) => s.day)).toEqual(["2026-11-23", "2026-11-24"]);
    expect(Buffer.from(salts[0]!.salt).equals(Buffer.from(salts[1]!.salt))).toBe(false);
  });

  test("a click from just before midnight, written after it, still finds yesterday's salt", () => {
    const now = { value: Date.parse("2026-11-24T00:00:00.200Z") };
    const { ids } = setup(now);
    const late = Date.parse("2026-11-23T23:59:59.900Z");
    record(ids, [{ ts: late, address: "198.51.100.2" }, { ts: late + 50, address: "198.51.100.2" }]);
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 2, uniques: 1 });
  });
});

describe("per hour", () => {
  test("the same visitor in two hours: one unique each hour, one for the day", () => {
    const now = { value: T0 };
    const { ids } = setup(now);
    record(ids, [{ ts: T0, address: "203.0.113.9" }, { ts: T0 + 60_000, address: "203.0.113.9" }, { ts: T0 + 3_600_000, address: "203.0.113.9" }]);
    expect(hourlyRows()).toEqual([{ hour: "2026-11-23T10", total: 2, uniques: 1 }, { hour: "2026-11-23T11", total: 1, uniques: 1 }]);
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 3, uniques: 1 });
  });
});

describe("forgetting", () => {
  test("when a day is over, the salt and hashes of the day before it are deleted; counts stay", () => {
    const now = { value: T0 };
    const { ids } = setup(now);
    record(ids, [{ ts: T0, address: "203.0.113.10" }]);
    now.value = T0 + DAY;
    ids.forgetOldDays(now.value);
    expect(t.db.query("SELECT COUNT(*) AS n FROM visitor_salts").get()).toEqual({ n: 1 }); // yesterday's kept for late clicks
    now.value = T0 + 2 * DAY;
    ids.forgetOldDays(now.value);
    expect(t.db.query("SELECT COUNT(*) AS n FROM visitor_salts").get()).toEqual({ n: 0 });
    expect(t.db.query("SELECT COUNT(*) AS n FROM visitors_seen").get()).toEqual({ n: 0 });
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 1, uniques: 1 });
    // A click dated two days back has no salt any more: it counts, as a new visitor, and leaves no hash.
    record(ids, [{ ts: T0, address: "203.0.113.10" }]);
    expect(dailyRow("2026-11-23")).toMatchObject({ total: 2, uniques: 2 });
    expect(t.db.query("SELECT COUNT(*) AS n FROM visitors_seen").get()).toEqual({ n: 0 });
  });

  test("the file never holds the address, in text or binary, IPv4 or IPv6", () => {
    const now = { value: T0 };
    const { ids } = setup(now);
    const v4 = "203.0.113.77";
    const v6 = "2001:db8:85a3::8a2e:370:7334";
    record(ids, [{ ts: T0, address: v4 }, { ts: T0 + 1, address: v6 }]);
    t.db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const bytes = readFileSync(t.path);
    expect(bytes.includes(Buffer.from(v4))).toBe(false);
    expect(bytes.includes(Buffer.from(v6))).toBe(false);
    expect(bytes.includes(Buffer.from([203, 0, 113, 77]))).toBe(false);
    expect(bytes.includes(Buffer.from("20010db885a3000000000000" + "8a2e03707334", "hex"))).toBe(false);
  });
});
