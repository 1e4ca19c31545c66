// The recorder's memory of seen visitors (src/db/sqlite/day-visitors.ts, seen-visitors.ts) against
// a plain model: a Set of visitor keys per day and per hour, as the rule reads (docs/clicks.md:
// Unique visitors). Random streams of visits cross midnight, come in batches, some refused (and
// written again), with restarts that rebuild the memory from the file.

import { afterEach, describe, expect, test } from "bun:test";
import { DayVisitors } from "../../src/db/sqlite/day-visitors.ts";
import { createSeenVisitors, type SeenVisitors } from "../../src/db/sqlite/seen-visitors.ts";
import { FIRST_IN_DAY, FIRST_IN_HOUR } from "../../src/visits/rollup.ts";
import type { Visit } from "../../src/visits/visit.ts";
import { tempDatabase, type TempDb } from "../support/db.ts";

// mulberry32: a fixed seed, so that a failure is repeated exactly.
let seed = 7;
function random(n: number): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * n);
}
/** A 52-bit key, as visitorKey makes them; 0 and 2^52 - 1 included among them. */
const someKey = () => (random(50) === 0 ? [0, 2 ** 52 - 1][random(2)]! : random(2 ** 26) * 2 ** 26 + random(2 ** 26));

describe("one day's table", () => {
  test("holds what a Map holds through adds, hours, removals and growth", () => {
    const table = new DayVisitors();
    const model = new Map<number, number>();
    const keys = Array.from({ length: 6_000 }, someKey);
    for (let step = 0; step < 60_000; step++) {
      const key = keys[random(keys.length)]!;
      const bit = 1 << random(24);
      const op = random(10);
      if (op < 5) {
        table.add(key, bit);
        model.set(key, (model.get(key) ?? 0) | bit);
      } else if (op < 7) {
        expect(table.addHours(key, bit)).toBe(model.has(key));
        if (model.has(key)) model.set(key, model.get(key)! | bit);
      } else if (op < 8) {
        table.removeHours(key, bit);
        if (model.has(key)) model.set(key, model.get(key)! & ~bit);
      } else {
        expect(table.remove(key)).toBe(model.delete(key));
      }
    }
    expect(table.size).toBe(model.size);
    for (const key of keys) expect(table.hoursOf(key)).toBe(model.get(key) ?? -1);
  });
});

const HOUR = 3_600_000;
const START = Date.parse("2026-11-23T22:40:00.000Z");
let t: TempDb | undefined;
afterEach(() => t?.dispose());

/** The rule itself: a visitor is first in a day (an hour) the first time its key is seen there. */
function modelFlags(visits: readonly Visit[], days: Map<string, Set<number>>, hours: Map<string, Set<number>>): number[] {
  return visits.map((v) => {
    const stamp = new Date(v.ts).toISOString();
    const day = days.get(stamp.slice(0, 10)) ?? days.set(stamp.slice(0, 10), new Set()).get(stamp.slice(0, 10))!;
    const hour = hours.get(stamp.slice(0, 13)) ?? hours.set(stamp.slice(0, 13), new Set()).get(stamp.slice(0, 13))!;
    const flags = (day.has(v.visitor!) ? 0 : FIRST_IN_DAY) | (hour.has(v.visitor!) ? 0 : FIRST_IN_HOUR);
    day.add(v.visitor!);
    hour.add(v.visitor!);
    return flags;
  });
}

const visitAt = (ts: number, visitor: number): Visit => ({
  linkSeq: 1, linkId: "a", ts, browser: "X", os: "X", device: "desktop", country: "DE", referrer: "Direct", utmSource: null, utmMedium: null, utmCampaign: null, isBot: false, visitor,
});

describe("seen visitors against the rule", () => {
  test("random batches across midnight, some refused and marked again, with restarts: the same firsts as a Set per day and per hour", () => {
    t = tempDatabase();
    const db = t.db;
    const pool = Array.from({ length: 400 }, someKey);
    const modelDays = new Map<string, Set<number>>();
    const modelHours = new Map<string, Set<number>>();
    let seen: SeenVisitors = createSeenVisitors(db, START);
    let ts = START;
    let firsts = 0;
    for (let batch = 0; batch < 120; batch++) {
      const visits: Visit[] = [];
      for (let i = 0, n = 1 + random(60); i < n; i++) visits.push(visitAt((ts += random(8_000)), pool[random(pool.length)]!));
      const now = ts + random(1_000); // clicks are written just after they happen
      if (random(6) === 0) {
        // Refused: the transaction rolls back, and the memory forgets the batch.
        const refused = seen.mark(visits, now);
        seen.undo(refused.added);
      }
      const marks = seen.mark(visits, now);
      db.transaction(() => seen.persist(marks.added))();
      const expected = modelFlags(visits, modelDays, modelHours);
      expect([...marks.flags]).toEqual(expected);
      firsts += expected.filter((f) => f & FIRST_IN_DAY).length;
      if (random(15) === 0) seen = createSeenVisitors(db, now); // a restart reads the file
    }
    expect(ts).toBeGreaterThan(START + 2 * HOUR); // the stream crossed midnight and two hours
    expect(seen.size).toBeGreaterThan(0);
    expect(firsts).toBeGreaterThan(pool.length); // the second day met the pool again
  });
});
