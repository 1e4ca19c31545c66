// Statistics stay bounded whatever visitors send (src/visits/other.ts), on both engines: at most
// MAX_VALUES_PER_DAY distinct values a link and day in the dimensions a visitor can invent, and as
// many UTM combinations; the clicks of further values go to one Other row. Counts stay exact.

import { expect, test } from "bun:test";
import { MAX_BOT_NAMES_PER_DAY, MAX_VALUES_PER_DAY, OTHER } from "../../src/visits/other.ts";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";

const DAY = 86_400_000;
const all = { from: null, to: null, excludeBots: false };

forEachEngine("other", (db) => {
  const stored = (table: string, where = "") => db().stored.all<Record<string, unknown>>(`SELECT * FROM ${table} WHERE link_seq = (SELECT seq FROM links WHERE id = 'o') ${where}`);

  test("150 referrers in a day: the 100 largest keep their names, the other 50 clicks are one Other row; the answer adds up", async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "o" }, NOW - DAY);
    for (let i = 0; i < 150; i++) for (let n = 0; n < (i < 10 ? 5 : 1); n++) db().writer.record(visit(link, { referrer: `r${String(i).padStart(3, "0")}.example` }));
    await db().writer.flush();
    const rows = await stored("dimension_rollup", "AND dimension = 'referrer'");
    expect(rows).toHaveLength(MAX_VALUES_PER_DAY + 1);
    const other = rows.find((r) => r.name === OTHER)!;
    expect(other.total).toBe(50);
    // The ten with 5 clicks are among those kept; ties past them by name.
    for (let i = 0; i < 10; i++) expect(rows.find((r) => r.name === `r00${i}.example`)?.total).toBe(5);
    expect(rows.some((r) => r.name === "r099.example")).toBe(true);
    expect(rows.some((r) => r.name === "r100.example")).toBe(false);
    const s = await db().storage.stats.read(link, all, NOW);
    expect(s.totalClicks).toBe(190);
    expect(s.referrerStats).toHaveLength(MAX_VALUES_PER_DAY + 1);
    expect(s.referrerStats.at(-1)).toEqual({ name: "Other", count: 50, other: true });
    expect(s.referrerStats.reduce((n, r) => n + r.count, 0)).toBe(190);
    // Countries and devices are not limited, and no Other entry is added where nothing is left out.
    expect(s.countryStats).toEqual([{ name: "DE", count: 190 }]);
  });

  test("across batches: new values take the room left; a value already kept goes on counting when the day is full", async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "o" }, NOW - DAY);
    for (let i = 0; i < 80; i++) db().writer.record(visit(link, { browser: `B${i}` }));
    await db().writer.flush();
    for (let i = 80; i < 120; i++) db().writer.record(visit(link, { browser: `B${i}`, isBot: i % 2 === 0 }));
    await db().writer.flush();
    for (const i of [0, 99, 100, 119]) db().writer.record(visit(link, { browser: `B${i}` }));
    await db().writer.flush();
    const rows = await stored("dimension_rollup", "AND dimension = 'browser'");
    expect(rows.filter((r) => r.name !== OTHER)).toHaveLength(MAX_VALUES_PER_DAY);
    // The second batch's 40 new values had room for 20: the first by name (B100…B119) were kept.
    expect(rows.find((r) => r.name === "B0")?.total).toBe(2);
    expect(rows.find((r) => r.name === "B100")?.total).toBe(2);
    expect(rows.find((r) => r.name === "B119")?.total).toBe(2);
    expect(rows.find((r) => r.name === "B99")).toBeUndefined();
    // B80 to B99 came when the day was full: their 20 clicks (10 of bots), and B99's later one, are Other's.
    expect(rows.find((r) => r.name === OTHER)).toMatchObject({ total: 21, bots: 10 });
    const s = await db().storage.stats.read(link, { ...all, excludeBots: true }, NOW);
    expect(s.browserStats.at(-1)).toEqual({ name: "Other", count: 11, other: true });
    expect(s.browserStats.reduce((n, r) => n + r.count, 0)).toBe(s.totalClicks);
  });

  test(`bots' own names take at most ${MAX_BOT_NAMES_PER_DAY} of a day's browser names: people's browsers keep their places`, async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "o" }, NOW - DAY);
    // 80 made-up crawler names with 2 clicks each, 30 browsers of people with 1: by size alone the bots would take 100 places.
    for (let i = 0; i < 80; i++) for (let n = 0; n < 2; n++) db().writer.record(visit(link, { browser: `Crawler${String(i).padStart(2, "0")}`, isBot: true }));
    for (let i = 0; i < 30; i++) db().writer.record(visit(link, { browser: `Browser${String(i).padStart(2, "0")}` }));
    await db().writer.flush();
    let rows = await stored("dimension_rollup", "AND dimension = 'browser'");
    expect(rows.filter((r) => String(r.name).startsWith("Browser"))).toHaveLength(30);
    expect(rows.filter((r) => String(r.name).startsWith("Crawler"))).toHaveLength(MAX_BOT_NAMES_PER_DAY);
    expect(rows.find((r) => r.name === OTHER)).toMatchObject({ total: 60, bots: 60 });
    // A later batch: the bots' share is full (its new crawler goes to Other), a new browser still finds room,
    // and a crawler already kept goes on counting; a browser a bot also uses is not a bot-only name.
    db().writer.record(visit(link, { browser: "Crawler99", isBot: true }));
    db().writer.record(visit(link, { browser: "Browser99" }));
    db().writer.record(visit(link, { browser: "Crawler00", isBot: true }));
    db().writer.record(visit(link, { browser: "Shared", isBot: true }));
    db().writer.record(visit(link, { browser: "Shared" }));
    await db().writer.flush();
    rows = await stored("dimension_rollup", "AND dimension = 'browser'");
    expect(rows.find((r) => r.name === "Crawler99")).toBeUndefined();
    expect(rows.find((r) => r.name === "Browser99")?.total).toBe(1);
    expect(rows.find((r) => r.name === "Shared")).toMatchObject({ total: 2, bots: 1 });
    expect(rows.find((r) => r.name === "Crawler00")?.total).toBe(3);
    expect(rows.find((r) => r.name === OTHER)).toMatchObject({ total: 61, bots: 61 });
    const s = await db().storage.stats.read(link, all, NOW);
    expect(s.browserStats.reduce((n, r) => n + r.count, 0)).toBe(s.totalClicks);
  });

  test("UTM combinations: 100 a day, then Other; another day has room again", async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "o" }, NOW - 2 * DAY);
    for (let i = 0; i < 130; i++) db().writer.record(visit(link, { utmSource: "mail", utmCampaign: `c${i}` }));
    for (let i = 0; i < 5; i++) db().writer.record(visit(link, { ts: NOW - DAY, utmSource: "mail", utmCampaign: `c${200 + i}` }));
    await db().writer.flush();
    const today = await stored("utm_rollup", `AND day = '2026-11-23'`);
    expect(today).toHaveLength(MAX_VALUES_PER_DAY + 1);
    expect(today.find((r) => r.source === OTHER)).toMatchObject({ medium: "", campaign: "", total: 30 });
    expect(await stored("utm_rollup", `AND day = '2026-11-22'`)).toHaveLength(5);
    const s = await db().storage.stats.read(link, all, NOW);
    expect(s.utmStats).toHaveLength(MAX_VALUES_PER_DAY + 1);
    expect(s.utmStats.at(-1)).toEqual({ source: null, medium: null, campaign: null, count: 35, other: true });
    expect(s.utmStats.reduce((n, r) => n + r.count, 0)).toBe(135);
  });
});
