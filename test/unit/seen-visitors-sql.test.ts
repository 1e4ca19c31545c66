// The seen-visitors rows are loaded at start and forgotten every minute by the recorder, which holds
// the write lock meanwhile: both must be range reads of the bucket index, not scans of the table,
// and the ranges must keep exactly the days and hours still kept.

import { afterEach, expect, test } from "bun:test";
import { createSeenVisitors, SEEN_SQL } from "../../src/db/sqlite/seen-visitors.ts";
import { tempDatabase, type TempDb } from "../support/db.ts";

let t: TempDb;
afterEach(() => t?.dispose());

test.each(Object.entries(SEEN_SQL))("%s is a search of the bucket index, never a full scan", (_, sql) => {
  t = tempDatabase();
  const params = sql.includes("?2") ? ["2026-11-22", "2026-11-22T05"] : ["2026-11-22"];
  const plan = (t.db.query(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
  expect(plan.length).toBeGreaterThan(0);
  expect(plan.filter((d) => d.startsWith("SCAN"))).toEqual([]);
  expect(plan.some((d) => d.startsWith("SEARCH") && d.includes("USING INDEX visitors_seen_by_bucket"))).toBe(true);
});

test("forgetting keeps the oldest kept day and every later one, and the hours from the oldest kept hour on", () => {
  t = tempDatabase();
  const buckets = [
    "2026-11-20", "2026-11-21", "2026-11-21T23", // older days and an hour of one
    "2026-11-22", "2026-11-22T00", "2026-11-22T04", "2026-11-22T05", "2026-11-22T06", // the oldest kept day
    "2026-11-23", "2026-11-23T01", // a later day (a clock that went back, a late batch)
  ];
  const insert = t.db.query("INSERT INTO visitors_seen (bucket, visitors) VALUES (?, ?)");
  for (const [i, b] of buckets.entries()) insert.run(b, new Uint8Array(Float64Array.of(i + 1).buffer));
  const kept = ["2026-11-22", "2026-11-22T05", "2026-11-22T06", "2026-11-23", "2026-11-23T01"];
  const now = Date.parse("2026-11-22T06:10:00Z"); // an hour ago was 05:10: day 2026-11-22, hour T05

  // What a restart loads is what is kept...
  expect(createSeenVisitors(t.db, now).size).toBe(kept.length);
  // ...and what forgetting leaves.
  const seen = createSeenVisitors(t.db, now);
  expect(seen.forget(now)).toBe(buckets.length - kept.length);
  const left = (t.db.query("SELECT bucket FROM visitors_seen ORDER BY bucket").all() as { bucket: string }[]).map((r) => r.bucket);
  expect(left).toEqual(kept);
  expect(seen.size).toBe(kept.length);
  expect(seen.forget(now)).toBe(0);
});
