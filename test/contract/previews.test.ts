// Link-preview agents' fetches of a card (route PREVIEW_ROUTE) on both engines: the batch writer
// turns them into dimension_rollup rows (dimension "preview", per agent and day) and nothing else:
// no total, raw visit, daily or hourly count, unique visitor or click event; the stats read them
// back as previewStats, whatever the bot filter (docs/sharing.md: Previews in the statistics).

import { expect, test } from "bun:test";
import { openRecorderStorage } from "../../src/db/open-recorder.ts";
import { createEventWants } from "../../src/events/wants.ts";
import { createVisitQueue } from "../../src/visits/visit-queue.ts";
import { parseRoute, PREVIEW_ROUTE, type Visit } from "../../src/visits/visit.ts";
import type { Link } from "../../src/links/link.ts";
import { RECORDER_NOW } from "../support/engines.ts";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";
import { MAX_VALUES_PER_DAY, OTHER } from "../../src/visits/other.ts";
import { SQL } from "bun";
import { MAX_BREAKDOWN_ENTRIES } from "../../src/stats/link-stats.ts";

const PREVIEW = parseRoute(PREVIEW_ROUTE);
const preview = (link: Pick<Link, "seq" | "id">, agent: string, o: Partial<Visit> = {}) =>
  visit(link, { browser: agent, os: "Unknown", device: "desktop", isBot: true, route: PREVIEW, visitor: 7, ...o });

forEachEngine("previews counted apart", (db) => {
  test("previews are dimension rows of their agent and day; totals, raw visits, rollups and uniques hold only the click", async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "card" }, NOW - 1000);
    const w = db().writer;
    w.record(preview(link, "Slackbot"));
    w.record(visit(link, { ts: NOW + 1, browser: "Firefox", visitor: 1 }));
    w.record(preview(link, "Slackbot", { ts: NOW + 2 }));
    w.record(preview(link, "WhatsApp", { ts: NOW + 3 }));
    expect(await w.flush()).toBe(4);
    const s = db().stored;
    expect(await s.get("SELECT total_clicks, human_clicks, last_click_at FROM links WHERE id = 'card'")).toEqual({ total_clicks: 1, human_clicks: 1, last_click_at: NOW + 1 });
    expect(await s.all("SELECT first_ts, last_ts, humans FROM visit_batches")).toEqual([{ first_ts: NOW + 1, last_ts: NOW + 1, humans: 1 }]);
    expect(await s.all("SELECT total, bots, uniques, unique_bots FROM daily_rollup")).toEqual([{ total: 1, bots: 0, uniques: 1, unique_bots: 0 }]);
    expect(await s.all("SELECT total, bots, uniques FROM hourly_rollup")).toEqual([{ total: 1, bots: 0, uniques: 1 }]);
    expect(await s.all("SELECT dimension, name, total, bots FROM dimension_rollup WHERE dimension IN ('browser', 'preview', 'rule') ORDER BY dimension, name")).toEqual([
      { dimension: "browser", name: "Firefox", total: 1, bots: 0 },
      { dimension: "preview", name: "Slackbot", total: 2, bots: 2 },
      { dimension: "preview", name: "WhatsApp", total: 1, bots: 1 },
    ]);
    // A later batch adds to the same rows.
    w.record(preview(link, "WhatsApp", { ts: NOW + 4 }));
    await w.flush();
    expect(await s.get("SELECT total FROM dimension_rollup WHERE dimension = 'preview' AND name = 'WhatsApp'")).toEqual({ total: 2 });
    expect(await s.get("SELECT total_clicks FROM links WHERE id = 'card'")).toEqual({ total_clicks: 1 });
  });

  test("the stats read them as previewStats, with or without bots; nowhere else", async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "read" }, NOW - 1000);
    const w = db().writer;
    for (let i = 0; i < 3; i++) w.record(preview(link, "Discord", { ts: NOW + i }));
    w.record(preview(link, "Telegram"));
    w.record(visit(link, { ts: NOW + 5, browser: "Safari" }));
    await w.flush();
    const stored = await db().storage.links.get(link.id);
    for (const excludeBots of [false, true]) {
      const s = await db().storage.stats.read(stored!, { from: null, to: null, excludeBots }, NOW + 10);
      expect(s.previewStats).toEqual([{ name: "Discord", count: 3 }, { name: "Telegram", count: 1 }]);
      expect(s.totalClicks).toBe(1);
      expect(s.uniqueVisitors).toBe(1);
      expect(s.browserStats).toEqual([{ name: "Safari", count: 1 }]);
      expect(s.recentVisits.map((v) => v.browser)).toEqual(["Safari"]);
      expect(s.fallbackStats).toEqual([]);
    }
  });

  test("a day keeps at most MAX_VALUES_PER_DAY agent names a link; the others' previews are one Other entry", async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "flood" }, NOW - 1000);
    const w = db().writer;
    // Names an agent's User-Agent makes up: the first batch fills the day but for one, the next passes it.
    for (let i = 0; i < MAX_VALUES_PER_DAY - 1; i++) w.record(preview(link, `Agent${String(i).padStart(3, "0")}`));
    await w.flush();
    for (let i = 0; i < 3; i++) w.record(preview(link, "Slackbot", { ts: NOW + 1 }));
    for (let i = 0; i < 4; i++) w.record(preview(link, `Made${i}`, { ts: NOW + 2 }));
    w.record(preview(link, "Agent000", { ts: NOW + 3 }));
    await w.flush();
    const s = db().stored;
    const names = await s.all<{ name: string; total: number }>("SELECT name, total FROM dimension_rollup WHERE dimension = 'preview' ORDER BY name");
    expect(names.length).toBe(MAX_VALUES_PER_DAY + 1);
    expect(names.find((r) => r.name === "Slackbot")).toEqual({ name: "Slackbot", total: 3 });
    expect(names.find((r) => r.name === "Agent000")).toEqual({ name: "Agent000", total: 2 });
    expect(names.find((r) => r.name === OTHER)).toEqual({ name: OTHER, total: 4 });
    const stored = await db().storage.links.get(link.id);
    const stats = await db().storage.stats.read(stored!, { from: null, to: null, excludeBots: true }, NOW + 10);
    expect(stats.previewStats.slice(0, 2)).toEqual([{ name: "Slackbot", count: 3 }, { name: "Agent000", count: 2 }]);
    expect(stats.previewStats.at(-1)).toEqual({ name: "Other", count: 4, other: true });
    expect(stats.totalClicks).toBe(0);
  });

  test("previewStats lists the range's largest agents; the previews of those past the list are one Other entry", async () => {
    const DAY = 86_400_000;
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "days" }, NOW - 3 * DAY);
    const w = db().writer;
    // Each day Slackbot and its own MAX_VALUES_PER_DAY - 1 names, once each: none folded at write time, 298 names in the range.
    for (let d = 0; d < 3; d++) {
      w.record(preview(link, "Slackbot", { ts: NOW - d * DAY }));
      for (let i = 1; i < MAX_VALUES_PER_DAY; i++) w.record(preview(link, `Agent${d}-${String(i).padStart(3, "0")}`, { ts: NOW - d * DAY + i }));
    }
    await w.flush();
    const stored = await db().storage.links.get(link.id);
    for (const excludeBots of [false, true]) {
      const stats = await db().storage.stats.read(stored!, { from: null, to: null, excludeBots }, NOW + 10);
      expect(stats.previewStats.length).toBe(MAX_BREAKDOWN_ENTRIES + 1);
      expect(stats.previewStats[0]).toEqual({ name: "Slackbot", count: 3 });
      // Listed: Slackbot's 3 and 99 agents' 1 each; Other: the 196 others' previews.
      expect(stats.previewStats.at(-1)).toEqual({ name: "Other", count: 3 * MAX_VALUES_PER_DAY - 3 - (MAX_BREAKDOWN_ENTRIES - 1), other: true });
      expect(stats.previewStats.reduce((n, r) => n + r.count, 0)).toBe(3 * MAX_VALUES_PER_DAY);
    }
  });

  test("a batch of previews writes no click event, milestone or limit; a deleted link gets no rows", async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "quiet", maxClicks: 1 }, NOW - 1000);
    const gone = await db().storage.links.create({ url: "https://example.com/", alias: "gone" }, NOW - 1000);
    await db().storage.links.remove(gone.id, NOW);
    const wants = createEventWants(["link.clicks", "link.milestone", "link.gone"]);
    const recorder = await openRecorderStorage(db().location, null, { info() {}, error() {} }, wants, () => RECORDER_NOW);
    const w = createVisitQueue(recorder.batches, { flushIntervalMs: 3_600_000 });
    try {
      for (let i = 0; i < 12; i++) w.record(preview(link, "Mastodon", { ts: NOW + i }));
      w.record(preview(gone, "Mastodon"));
      await w.flush();
      const s = db().stored;
      expect(await s.all("SELECT type FROM events WHERE type IN ('link.clicks', 'link.milestone', 'link.gone')")).toEqual([]);
      expect(await s.all("SELECT link_seq, name, total FROM dimension_rollup WHERE dimension = 'preview'")).toEqual([{ link_seq: link.seq, name: "Mastodon", total: 12 }]);
      // A click after them is announced alone.
      w.record(visit(link, { ts: NOW + 20 }));
      await w.flush();
      const events = await s.all<{ type: string; data: string }>("SELECT type, data FROM events WHERE type IN ('link.clicks', 'link.milestone', 'link.gone') ORDER BY seq");
      expect(events.map((e) => e.type)).toEqual(["link.clicks", "link.gone"]);
      expect(JSON.parse(events[0]!.data).clicks.map((c: { browser: string }) => c.browser)).toEqual(["Chrome"]);
    } finally {
      await w.close();
      await recorder.close();
    }
  });

  test("a batch of previews takes its link's lock before reading the names stored: two instances at once stay within the day's limit", async () => {
    // SQLite's batch is one transaction under the database's one write lock: nothing to interleave.
    if (db().engine !== "postgres") return;
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "race" }, NOW - 1000);
    const other = new SQL(db().location, { max: 2 }); // another instance's connection
    let written: Promise<number> | null = null;
    try {
      await other.begin(async (tx) => {
        // The other instance's batch holds the link (as addTotals does) and has not written its names yet.
        await tx`SELECT seq FROM links WHERE seq = ${link.seq} FOR UPDATE`;
        const w = db().writer;
        for (let i = 0; i < 5; i++) w.record(preview(link, `Made${i}`, { ts: NOW + i }));
        let settled = false;
        written = Promise.resolve(w.flush()).finally(() => (settled = true));
        // This batch either waits for the link's lock (fixed) or, reading and writing before it, is done.
        for (;;) {
          const [{ n }] = await other`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
          if (settled || n > 0) break;
          await Bun.sleep(10);
        }
        const names = Array.from({ length: MAX_VALUES_PER_DAY }, (_, i) => `Held${String(i).padStart(3, "0")}`);
        await tx`INSERT INTO dimension_rollup (link_seq, dimension, day, name, total, bots)
                 SELECT ${link.seq}, 'preview', '2026-11-23', name, 1, 1 FROM unnest(${other.array(names, "TEXT")}::text[]) AS name`;
      });
      // Committed: the batch, if it waited, goes on now.
      expect(await written!).toBe(5);
    } finally {
      await other.close();
    }
    const rows = await db().stored.all<{ name: string; total: number }>("SELECT name, total FROM dimension_rollup WHERE dimension = 'preview' ORDER BY name");
    expect(rows.filter((r) => r.name !== OTHER).length).toBe(MAX_VALUES_PER_DAY);
    expect(rows.find((r) => r.name === OTHER)).toEqual({ name: OTHER, total: 5 });
  }, 60_000);
});
