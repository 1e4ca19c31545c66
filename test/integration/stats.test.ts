// GET /api/stats: shapes, filters and errors. Past days are written with the real visit writer into
// the real database (either engine), since clicks can only happen "now".

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Visit } from "../../src/visits/visit.ts";
import type { Link } from "../../src/links/link.ts";
import { addDays, dayOf } from "../../src/util/day.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { seed } from "../support/seed.ts";
import { stats } from "../support/clicks.ts";
import { openImports } from "../../src/db/open-storage.ts";

const DAY = 86_400_000;
const now = Date.now();
const today = dayOf(now);
let server: RunningServer;
let moved: Link;

/** A visit of `link` (its seq and alias), `daysAgo`. */
function visit(link: Pick<Link, "seq" | "id">, daysAgo: number, overrides: Partial<Visit> = {}): Visit {
  return {
    linkSeq: link.seq, linkId: link.id, ts: now - daysAgo * DAY, browser: "Firefox", os: "Linux", device: "desktop", country: "DE",
    referrer: "Direct", utmSource: null, utmMedium: null, utmCampaign: null, isBot: false, visitor: null, ...overrides,
  };
}

beforeAll(async () => {
  server = await startServer();
  await seed(server, async ({ links, record }) => {
    const hist = await links.create({ url: "https://example.com/history", alias: "hist" }, now - 10 * DAY);
    await links.create({ url: "https://example.com/empty", alias: "empty" }, now - 2 * DAY);
    record(visit(hist, 9, { country: "FR" }));
    record(visit(hist, 9, { isBot: true, browser: "Chrome", referrer: "t.co" }));
    record(visit(hist, 5, { utmSource: "mail", utmCampaign: "spring" }));
    record(visit(hist, 5, { utmSource: "mail", utmCampaign: "spring", isBot: true }));
    record(visit(hist, 0, { browser: "Safari", os: "iOS", device: "mobile", referrer: "news.ycombinator.com" }));
    // Links that do not redirect now, each for its own reason, and one that is imported.
    await links.create({ url: "https://example.com/off", alias: "off" }, now - 2 * DAY);
    await links.update("off", { disabled: true });
    await links.create({ url: "https://example.com/over", alias: "over", expiresAt: now - DAY }, now - 2 * DAY);
    const full = await links.create({ url: "https://example.com/full", alias: "full", maxClicks: 1 }, now - 2 * DAY);
    record(visit(full, 1));
    await links.create({ url: "https://example.com/soon", alias: "soon", validFrom: now + DAY }, now - 2 * DAY);
    moved = await links.create({ url: "https://example.com/moved", alias: "moved" }, now - 3 * DAY);
    record(visit(moved, 0));
  });
  // Visits an import wrote carry no visitor key (docs/importing.md: Moving from another shortener).
  const { imports, close } = await openImports(server.dbPath, null);
  try {
    await imports.addVisits("test", [], [visit(moved, 2), visit(moved, 2, { browser: "Chrome" })]);
  } finally {
    await close();
  }
});
afterAll(() => server.dispose());

describe("stats", () => {
  test("the whole history: totals, bot share, zero-filled days from creation to today", async () => {
    const body = await stats(server.url, "id=hist");
    expect(body.success).toBe(true);
    expect(body.data.link).toEqual({
      id: "hist", domain: null, originalUrl: "https://example.com/history", title: null, createdAt: new Date(now - 10 * DAY).toISOString(), passwordProtected: false, status: "active", totalClicks: 5,
    });
    const s = body.data.stats;
    expect(Object.keys(s).sort()).toEqual(
      ["botPercentage", "browserStats", "countryStats", "deviceStats", "humanClicks", "osStats", "recentVisits", "referrerStats", "totalClicks", "uniqueVisitors", "uniqueVisitorsPartial", "utmStats", "visitsByDate", "visitsByHour", "ruleStats", "variantStats", "fallbackStats", "previewStats", "previous"].sort(),
    );
    expect(s.totalClicks).toBe(5);
    expect(s.humanClicks).toBe(3);
    expect(s.botPercentage).toBe(40);
    expect(s.visitsByDate).toHaveLength(11);
    // Recorded without visitor ids (no addresses here): every visit counts as a unique visitor.
    expect(s.uniqueVisitors).toBe(5);
    expect(s.visitsByDate[0]).toEqual({ date: addDays(today, -10), count: 0, unique: 0 });
    expect(s.visitsByDate[1]).toEqual({ date: addDays(today, -9), count: 2, unique: 2 });
    expect(s.visitsByDate[5]).toEqual({ date: addDays(today, -5), count: 2, unique: 2 });
    expect(s.visitsByDate[10]).toEqual({ date: today, count: 1, unique: 1 });
    expect(s.countryStats).toEqual([{ name: "DE", count: 4 }, { name: "FR", count: 1 }]);
    expect(s.utmStats).toEqual([{ source: "mail", medium: null, campaign: "spring", count: 2 }]);
    expect(s.recentVisits[0].browser).toBe("Safari");
    expect(s.recentVisits[0].timestamp).toBe(new Date(now).toISOString());
    expect(s.recentVisits.map((v: any) => v.timestamp)).toEqual([...s.recentVisits.map((v: any) => v.timestamp)].sort().reverse());
  });

  test("the previous period: the days of the same length just before the range, with the bots filter (docs/statistics.md: The previous period)", async () => {
    // Clicks: 2 on day -9 (one a bot's), 2 on day -5, 1 today. The range -5..0 has 3; the six days before it, -11..-6, have day -9's.
    const range = `id=hist&from=${addDays(today, -5)}&to=${today}`;
    const s = (await stats(server.url, range)).data.stats;
    expect(s.totalClicks).toBe(3);
    expect(s.previous).toEqual({ from: addDays(today, -11), to: addDays(today, -6), totalClicks: 2, uniqueVisitors: 2, humanClicks: 1, botPercentage: 50 });
    const humans = (await stats(server.url, `${range}&bots=exclude`)).data.stats;
    expect(humans.previous).toEqual({ from: addDays(today, -11), to: addDays(today, -6), totalClicks: 1, uniqueVisitors: 1, humanClicks: 1, botPercentage: 0 });
    // The whole history: the days before the link's creation had nothing.
    expect((await stats(server.url, "id=hist")).data.stats.previous).toMatchObject({ to: addDays(today, -11), totalClicks: 0, uniqueVisitors: 0 });
  });

  test("bots=exclude leaves bots out of every number", async () => {
    const s = (await stats(server.url, "id=hist&bots=exclude")).data.stats;
    expect(s.totalClicks).toBe(3);
    expect(s.humanClicks).toBe(3);
    expect(s.botPercentage).toBe(0);
    expect(s.browserStats).toEqual([{ name: "Firefox", count: 2 }, { name: "Safari", count: 1 }]);
    expect(s.referrerStats.find((r: any) => r.name === "t.co")).toBeUndefined();
    expect(s.utmStats).toEqual([{ source: "mail", medium: null, campaign: "spring", count: 1 }]);
    expect(s.recentVisits.every((v: any) => v.isBot === false)).toBe(true);
    expect(s.visitsByDate[1].count).toBe(1);
  });

  test("from/to narrow every figure to those days", async () => {
    const from = addDays(today, -6);
    const to = addDays(today, -1);
    const s = (await stats(server.url, `id=hist&from=${from}&to=${to}`)).data.stats;
    expect(s.totalClicks).toBe(2);
    expect(s.visitsByDate).toHaveLength(6);
    expect(s.visitsByDate[0].date).toBe(from);
    expect(s.visitsByDate.at(-1).date).toBe(to);
    expect(s.recentVisits).toHaveLength(2);
    expect(s.browserStats).toEqual([{ name: "Firefox", count: 2 }]);
  });

  test("visitsByHour of a range that ended on a past day: its 24 hours (not before the range), ending 23:00 UTC", async () => {
    const day = addDays(today, -9);
    const s = (await stats(server.url, `id=hist&from=${day}&to=${day}`)).data.stats;
    expect(s.visitsByHour).toHaveLength(24);
    expect(s.visitsByHour[0].hour).toBe(`${day}T00:00:00.000Z`);
    expect(s.visitsByHour[23].hour).toBe(`${day}T23:00:00.000Z`);
    const hourOfVisits = `${day}T${new Date(now).toISOString().slice(11, 13)}:00:00.000Z`;
    expect(s.visitsByHour.filter((h: { count: number }) => h.count > 0)).toEqual([{ hour: hourOfVisits, count: 2, unique: 2 }]);
    const humans = (await stats(server.url, `id=hist&from=${day}&to=${addDays(day, 1)}&bots=exclude`)).data.stats.visitsByHour;
    expect(humans).toHaveLength(48);
    expect(humans.filter((h: { count: number }) => h.count > 0)).toEqual([{ hour: hourOfVisits, count: 1, unique: 1 }]);
  });

  test("a link with no clicks has zeros and empty lists", async () => {
    const s = (await stats(server.url, "id=empty")).data.stats;
    expect(s.totalClicks).toBe(0);
    expect(s.botPercentage).toBe(0);
    expect(s.browserStats).toEqual([]);
    expect(s.recentVisits).toEqual([]);
    expect(s.visitsByDate.map((d: any) => d.count)).toEqual([0, 0, 0]);
  });

  test("link.status says whether the link redirects now, and why not; link.totalClicks counts its whole life", async () => {
    const link = async (id: string) => (await stats(server.url, `id=${id}&from=${today}`)).data.link;
    expect(await link("empty")).toMatchObject({ status: "active", totalClicks: 0 });
    expect(await link("off")).toMatchObject({ status: "disabled", totalClicks: 0 });
    expect(await link("over")).toMatchObject({ status: "expired", totalClicks: 0 });
    expect(await link("full")).toMatchObject({ status: "limit_reached", totalClicks: 1 });
    expect(await link("soon")).toMatchObject({ status: "scheduled", totalClicks: 0 });
    // The whole life, whatever the range: today's range has none of hist's bot clicks of day -9.
    expect(await link("hist")).toMatchObject({ status: "active", totalClicks: 5 });
  });

  test("imported clicks carry no visitor: unique visitors are null where every click was imported, partial where some were", async () => {
    const day = addDays(today, -2);
    const imported = (await stats(server.url, `id=moved&from=${day}&to=${day}`)).data.stats;
    expect(imported.totalClicks).toBe(2);
    expect(imported.uniqueVisitors).toBeNull();
    expect(imported.uniqueVisitorsPartial).toBe(false);
    expect(imported.visitsByDate).toEqual([{ date: day, count: 2, unique: null }]);
    const whole = (await stats(server.url, "id=moved")).data.stats;
    expect(whole.totalClicks).toBe(3);
    expect(whole.uniqueVisitors).toBe(1); // today's click, recorded here
    expect(whole.uniqueVisitorsPartial).toBe(true);
    expect(whole.visitsByDate.map((d: { unique: number | null }) => d.unique)).toEqual([0, null, 0, 1]);
    // A link without imports: every figure known.
    const hist = (await stats(server.url, "id=hist")).data.stats;
    expect(hist.uniqueVisitorsPartial).toBe(false);
    expect(hist.visitsByDate.every((d: { unique: number | null }) => d.unique !== null)).toBe(true);
  });

  const BAD: [string, number, string][] = [
    ["", 400, "id_missing"],
    ["id=", 400, "id_missing"],
    ["id=unknown-link", 404, "not_found"],
    [`id=${"z".repeat(5000)}`, 404, "not_found"],
    ["id=hist&from=2026-13-01", 400, "bad_range"],
    ["id=hist&from=2026-02-30", 400, "bad_range"],
    ["id=hist&to=yesterday", 400, "bad_range"],
    [`id=hist&from=${today}&to=${addDays(today, -1)}`, 400, "bad_range"],
    ["id=hist&from=1900-01-01", 400, "bad_range"],
    ["id=hist&to=9999-12-31", 400, "bad_range"], // without from, a far end alone would list millions of days
    ["id=hist&bots=maybe", 400, "bad_request"],
    ["id=%E0%A4%A", 404, "not_found"],
  ];
  for (const [query, status, code] of BAD) {
    test(`?${query.slice(0, 40)} → ${status} ${code}`, async () => {
      const res = await fetch(`${server.url}/api/stats?${query}`);
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ success: false, code });
    });
  }
});
