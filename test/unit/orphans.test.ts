// Visits to no link (src/visits/orphans.ts): what of a path is kept, how a day's paths past the
// limit are folded into Other, and the summary read from the daily rows (src/stats/orphan-visits.ts).

import { describe, expect, test } from "bun:test";
import { MAX_ORPHAN_PATH, ORPHAN_SEQ, orphanBatchRows, orphanDailyRows, orphanPath, orphanText, parseOrphanText } from "../../src/visits/orphans.ts";
import { OTHER } from "../../src/visits/other.ts";
import { orphanPage, orphanSummary, removeOrphans } from "../../src/stats/orphan-visits.ts";
import type { Visit } from "../../src/visits/visit.ts";

const DAY = Date.UTC(2026, 10, 29, 12);

function orphan(path: string, isBot = false, ts = DAY): Visit {
  return {
    linkSeq: ORPHAN_SEQ, linkId: "", ts, browser: "Firefox", os: "Linux", device: "desktop", country: "DE", referrer: "Direct",
    utmSource: null, utmMedium: null, utmCampaign: null, isBot, visitor: null, orphan: { type: "regular_404", path },
  };
}

describe("a visited path", () => {
  test("keeps no query nor fragment, and at most MAX_ORPHAN_PATH characters", () => {
    expect(orphanPath("/a/b?token=secret")).toBe("/a/b");
    expect(orphanPath("/a#x")).toBe("/a");
    expect(orphanPath(`/${"x".repeat(500)}`)).toHaveLength(MAX_ORPHAN_PATH);
  });
  test("crosses the threads as one string and back", () => {
    expect(parseOrphanText(orphanText("invalid_short_url", "/abc?q=1"))).toEqual({ type: "invalid_short_url", path: "/abc" });
    expect(parseOrphanText("made-up\n/x").type).toBe("regular_404");
  });
});

describe("a day's paths", () => {
  test("past 100 go to Other, the most visited keeping their names; bots apart", () => {
    const visits: Visit[] = [];
    for (let i = 0; i < 105; i++) visits.push(orphan(`/p${String(i).padStart(3, "0")}`));
    visits.push(orphan("/p104"), orphan("/p104", true));
    const rows = orphanDailyRows(visits, new Map());
    const paths = new Set(rows.map((r) => r.path));
    expect(paths.size).toBe(101);
    expect(paths.has("/p104")).toBe(true); // three visits: among the kept
    expect(rows.filter((r) => r.path === OTHER).reduce((n, r) => n + r.visits, 0)).toBe(5);
    expect(rows.find((r) => r.path === "/p104" && r.isBot)?.visits).toBe(1);
    expect(rows.reduce((n, r) => n + r.visits, 0)).toBe(107);
  });
  test("a day full already: only its stored paths keep their names", () => {
    const stored = new Map([["2026-11-29", new Set([...Array.from({ length: 100 }, (_, i) => `/s${i}`), OTHER])]]);
    const rows = orphanDailyRows([orphan("/s1"), orphan("/new")], stored);
    expect(rows.map((r) => r.path).sort()).toEqual(["/s1", OTHER].sort());
  });
});

describe("reading them", () => {
  test("the summary sums types, humans and bots, and leaves bots out when asked", () => {
    const rows = [
      { day: "2026-11-28", type: "base_url", path: "/", is_bot: 0, visits: 2 },
      { day: "2026-11-29", type: "regular_404", path: OTHER, is_bot: 1, visits: 3 },
    ];
    const all = orphanSummary({ fromDay: "2026-11-01", toDay: "2026-11-30", excludeBots: false }, rows);
    expect(all.counts).toEqual({ total: 5, humans: 2, bots: 3 });
    expect(all.topPaths[0]).toEqual({ type: "regular_404", path: "Other", total: 3, humans: 0, bots: 3 });
    expect(all.byDay).toEqual([{ date: "2026-11-28", total: 2, humans: 2 }, { date: "2026-11-29", total: 3, humans: 0 }]);
    expect(orphanSummary({ fromDay: "2026-11-01", toDay: "2026-11-30", excludeBots: true }, rows).counts).toEqual({ total: 2, humans: 2, bots: 0 });
  });
  test("a page walks the rows newest first and parses only those it falls in", () => {
    const [older] = orphanBatchRows([orphan("/a", false, DAY), orphan("/b", false, DAY + 1)]);
    const [newer] = orphanBatchRows([orphan("/c", false, DAY + 2)]);
    const places = [{ id: 2, first_ts: newer!.firstTs, last_ts: newer!.lastTs, n: 1, humans: 1, visits: null }, { id: 1, first_ts: older!.firstTs, last_ts: older!.lastTs, n: 2, humans: 2, visits: null }];
    const asked: number[][] = [];
    const page = orphanPage({ fromTs: 0, toTs: Number.MAX_SAFE_INTEGER, excludeBots: false, type: null, offset: 1, limit: 1 }, places, (ids) => {
      asked.push(ids);
      return [{ id: 1, visits: older!.visits }];
    });
    expect(page.total).toBe(3);
    expect(page.visits.map((v) => v[2])).toEqual(["/b"]);
    expect(asked).toEqual([[1]]);
  });
});

test("the delete goes in slices, the event loop running between them, the raw rows there at its start, then every daily row", async () => {
  const raw = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, n: 10 }));
  let daily = 5;
  // Each slice leaves a timer behind (as a click's work would wait for the loop); the next slice
  // notes whether it has run: it has only if the delete gave the event loop a turn in between.
  const turns: string[] = [];
  let waiting = false;
  const slice = (name: string) => {
    turns.push(`${name} ${waiting ? "held" : "free"}`);
    waiting = true;
    setTimeout(() => (waiting = false), 0);
  };
  const deleted = await removeOrphans(
    {
      lastRow: () => 6, // the 7th was written once the delete began: it stays
      deleteRows(upTo, limit) {
        slice("rows");
        const gone = raw.filter((r) => r.id <= upTo).slice(0, limit);
        for (const r of gone) raw.splice(raw.indexOf(r), 1);
        return { rows: gone.length, visits: gone.reduce((sum, r) => sum + r.n, 0) };
      },
      deleteDaily(limit) {
        slice("daily");
        const gone = Math.min(limit, daily);
        daily -= gone;
        return gone;
      },
    },
    { rows: 2, daily: 2 },
  );
  expect(deleted).toBe(60);
  expect(raw.map((r) => r.id)).toEqual([7]);
  expect(daily).toBe(0);
  expect(turns).toEqual(["rows free", "rows free", "rows free", "rows free", "daily free", "daily free", "daily free"]);
});

