// The dashboard's overview (the OverviewSource port of src/stats/overview.ts) on both engines.

import { expect, test } from "bun:test";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";

const DAY = 86_400_000;

forEachEngine("overview", (db) => {
  test("links, clicks per day of the last 30 (older ones left out), the top 5; a key's own links only", async () => {
    const { links } = db().storage;
    const top = [];
    for (let i = 0; i < 7; i++) top.push(await links.create({ url: `https://example.com/${i}`, alias: `top-${i}`, ownerKeyId: i < 2 ? 9 : null }, NOW - 40 * DAY));
    for (let i = 0; i < 7; i++) for (let n = 0; n <= i; n++) db().writer.record(visit(top[i]!, { ts: NOW - (n % 3) * DAY }));
    db().writer.record(visit(top[0]!, { ts: NOW - 35 * DAY })); // before the 30 days
    await db().writer.flush();
    const all = await db().storage.overview(null, NOW);
    expect(all.links).toBe(7);
    expect(all.clicksToday).toBe(1 + 1 + 1 + 2 + 2 + 2 + 3);
    expect(all.clicks30d).toBe(28);
    expect(all.daily).toHaveLength(30);
    expect(all.daily.slice(-3)).toEqual([7, 9, 12]);
    expect(all.top).toEqual([6, 5, 4, 3, 2].map((i) => ({ id: `top-${i}`, originalUrl: `https://example.com/${i}`, clicks: i + 1 })));
    const own = await db().storage.overview({ keyId: 9 }, NOW);
    expect({ links: own.links, clicks30d: own.clicks30d, top: own.top.map((t) => t.id) }).toEqual({ links: 2, clicks30d: 3, top: ["top-1", "top-0"] });
  });

  test("daily counts of chosen links: zero-filled, oldest first", async () => {
    const spark = await db().storage.links.create({ url: "https://example.com/", alias: "spark" }, NOW - 10 * DAY);
    db().writer.record(visit(spark, { ts: NOW - 2 * DAY }));
    db().writer.record(visit(spark, { ts: NOW }));
    db().writer.record(visit(spark, { ts: NOW }));
    await db().writer.flush();
    // Asked by the listed links (seq and id), answered by id; a seq with no rows: all zero.
    const counts = await db().storage.dailyCounts([spark, { seq: spark.seq + 1000, id: "unknown" }], NOW, 5);
    expect([...counts]).toEqual([["spark", [0, 0, 1, 0, 2]], ["unknown", [0, 0, 0, 0, 0]]]);
  });
});
