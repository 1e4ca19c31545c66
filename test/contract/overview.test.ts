// The dashboard's overview (the OverviewSource port of src/stats/overview.ts) on both engines.

import { expect, test } from "bun:test";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";
import type { Overview } from "../../src/stats/overview.ts";

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
    expect(all.top).toEqual([6, 5, 4, 3, 2].map((i) => ({ id: `top-${i}`, domain: "", originalUrl: `https://example.com/${i}`, clicks: i + 1 })));
    const own = await db().storage.overview({ keyId: 9 }, NOW);
    expect({ links: own.links, clicks30d: own.clicks30d, top: own.top.map((t) => t.id) }).toEqual({ links: 2, clicks30d: 3, top: ["top-1", "top-0"] });
  });

  test("one domain's links only (its stored domain; '' the default): the same alias on another domain is not counted", async () => {
    const { links } = db().storage;
    const home = await links.create({ url: "https://example.com/home", alias: "same" }, NOW - 2 * DAY);
    const away = await links.create({ url: "https://example.com/away", alias: "same", domain: "s.example.org" }, NOW - 2 * DAY);
    const mine = await links.create({ url: "https://example.com/mine", alias: "mine", domain: "s.example.org", ownerKeyId: 9 }, NOW - 2 * DAY);
    for (let n = 0; n < 3; n++) db().writer.record(visit(home, { ts: NOW }));
    for (let n = 0; n < 2; n++) db().writer.record(visit(away, { ts: NOW - DAY }));
    db().writer.record(visit(mine, { ts: NOW }));
    await db().writer.flush();
    const shape = (o: Overview) => ({ links: o.links, today: o.clicksToday, d30: o.clicks30d, top: o.top.map((t) => [t.domain, t.id, t.clicks]) });
    expect(shape(await db().storage.overview(null, NOW, "s.example.org"))).toEqual({ links: 2, today: 1, d30: 3, top: [["s.example.org", "same", 2], ["s.example.org", "mine", 1]] });
    expect(shape(await db().storage.overview(null, NOW, ""))).toEqual({ links: 1, today: 3, d30: 3, top: [["", "same", 3]] });
    expect(shape(await db().storage.overview(null, NOW, null))).toEqual({ links: 3, today: 4, d30: 6, top: [["", "same", 3], ["s.example.org", "same", 2], ["s.example.org", "mine", 1]] });
    // A key's own links of that domain.
    expect(shape(await db().storage.overview({ keyId: 9 }, NOW, "s.example.org"))).toEqual({ links: 1, today: 1, d30: 1, top: [["s.example.org", "mine", 1]] });
    expect(shape(await db().storage.overview({ keyId: 9 }, NOW, "other.example.org"))).toEqual({ links: 0, today: 0, d30: 0, top: [] });
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
