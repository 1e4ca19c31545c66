// Daily visitor salts (the SaltStore port of src/visits/visitor-id.ts) and the forgetting of the
// visitors seen (RecorderStorage.forgetSeen) on both engines: one salt a day for every process,
// and salts and visitor keys gone an hour after their day (or hour) is over, the counts kept.

import { expect, test } from "bun:test";
import { createVisitorIds, userAgentDigest } from "../../src/visits/visitor-id.ts";
import { createForgetting } from "../../src/visits/forget.ts";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;

forEachEngine("visitor salts", (db) => {
  test("every process gets the day's one stored salt; the next day has another", async () => {
    const clock = { now: NOW };
    const first = createVisitorIds(db().recorder.salts, () => clock.now);
    const second = createVisitorIds((await db().reopen()).recorder.salts, () => clock.now);
    await first.prepare([NOW]);
    await second.prepare([NOW]);
    const firefox = userAgentDigest("Firefox");
    const key = first.of(NOW, 1, "203.0.113.5", firefox);
    expect(second.of(NOW + 1000, 1, "203.0.113.5", firefox)).toBe(key);
    expect(first.of(NOW, 1, "203.0.113.6", firefox)).not.toBe(key);
    expect(first.of(NOW, 2, "203.0.113.5", firefox)).not.toBe(key);
    expect(first.of(NOW, 1, "203.0.113.5", userAgentDigest("Chrome"))).not.toBe(key);
    clock.now = NOW + DAY;
    await first.prepare([NOW + DAY]);
    expect(first.of(NOW + DAY, 1, "203.0.113.5", firefox)).not.toBe(key);
    expect((await db().stored.all("SELECT day FROM visitor_salts ORDER BY day")).map((r) => r.day)).toEqual(["2026-11-23", "2026-11-24"]);
    expect(await db().recorder.salts.forgetBefore("2026-11-24")).toBe(1);
    expect((await db().stored.all("SELECT day FROM visitor_salts")).map((r) => r.day)).toEqual(["2026-11-24"]);
    // A click of a day whose salt is gone has no visitor key (it counts as a new visitor).
    expect(first.of(NOW - 2 * DAY, 1, "203.0.113.5", firefox)).toBeNull();
  });

  test("an hour after a day (or hour) is over, its salt and visitor keys are deleted; the counts stay", async () => {
    const uv = await db().storage.links.create({ url: "https://example.com/", alias: "uv" }, NOW - DAY);
    const clock = { now: NOW };
    const ids = createVisitorIds(db().recorder.salts, () => clock.now);
    const forget = createForgetting(ids, db().recorder);
    db().writer.record(visit(uv, { visitor: ids.of(NOW, uv.seq, "203.0.113.10", userAgentDigest("Firefox")) }));
    await db().writer.flush();
    const count = async (table: string) => (await db().stored.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n;
    expect(await count("visitor_salts")).toBe(1);
    expect(await count("visitors_seen")).toBeGreaterThan(0);
    clock.now = NOW + 2 * HOUR; // the hour of the click is over by more than an hour
    await forget(clock.now);
    expect((await db().stored.all("SELECT DISTINCT bucket FROM visitors_seen")).map((r) => r.bucket)).toEqual(["2026-11-23"]);
    clock.now = Date.parse("2026-11-24T00:30:00Z"); // the next day, within the hour of grace
    await forget(clock.now);
    expect(await count("visitor_salts")).toBe(1);
    clock.now = Date.parse("2026-11-24T01:00:00Z");
    await forget(clock.now);
    expect(await count("visitor_salts")).toBe(0);
    expect(await count("visitors_seen")).toBe(0);
    expect(await db().stored.get("SELECT total, uniques FROM daily_rollup")).toEqual({ total: 1, uniques: 1 });
  });
});
