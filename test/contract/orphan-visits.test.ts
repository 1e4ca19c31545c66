// Visits to no link on both engines (src/visits/orphans.ts, the OrphanVisitSource of
// src/stats/orphan-visits.ts): written in the batch's own transaction beside a link's clicks and
// apart from them, read back as the summary and a page, deleted.

import { expect, test } from "bun:test";
import { openStored } from "../support/stored.ts";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";
import { ORPHAN_SEQ, type OrphanType } from "../../src/visits/orphans.ts";
import type { Visit } from "../../src/visits/visit.ts";

function orphan(type: OrphanType, path: string, ts: number, isBot = false): Visit {
  return {
    linkSeq: ORPHAN_SEQ, linkId: "", ts, browser: "Firefox", os: "Linux", device: "desktop", country: "DE", referrer: "Direct",
    utmSource: null, utmMedium: null, utmCampaign: null, isBot, visitor: null, orphan: { type, path },
  };
}

/** Makes the rows of visits to no link of every type but invalid_short_url unreadable. */
async function spoil(db: { location: string; engine: "sqlite" | "postgres" }): Promise<void> {
  const stored = await openStored({ dbPath: db.location, engine: db.engine }, { write: true });
  try {
    await stored.run("UPDATE orphan_batches SET visits = 'not JSON' WHERE type <> 'invalid_short_url'");
  } finally {
    await stored.close();
  }
}

forEachEngine("orphan visits", (db) => {
  test("a batch with a link's click and visits to no link: each where it belongs", async () => {
    const link = await db().storage.links.create({ url: "https://example.com/", alias: "o" }, NOW - 1000);
    const w = db().writer;
    w.record(visit(link, { ts: NOW }));
    w.record(orphan("base_url", "/", NOW + 1));
    w.record(orphan("invalid_short_url", "/nope", NOW + 2, true));
    w.record(orphan("regular_404", "/a/b", NOW + 3));
    expect(await w.flush()).toBe(4);
    const s = db().stored;
    expect(await s.get("SELECT total_clicks FROM links WHERE id = 'o'")).toEqual({ total_clicks: 1 });
    expect(await s.get("SELECT SUM(total) AS n FROM daily_rollup")).toEqual({ n: 1 });
    expect(await s.all("SELECT type, path, is_bot, visits FROM orphan_daily ORDER BY type")).toEqual([
      { type: "base_url", path: "/", is_bot: 0, visits: 1 },
      { type: "invalid_short_url", path: "/nope", is_bot: 1, visits: 1 },
      { type: "regular_404", path: "/a/b", is_bot: 0, visits: 1 },
    ]);
    const orphans = db().storage.orphans;
    const summary = await orphans.summary({ fromDay: "2026-11-01", toDay: "2026-11-30", excludeBots: false });
    expect(summary.counts).toEqual({ total: 3, humans: 2, bots: 1 });
    const page = await orphans.page({ fromTs: 0, toTs: Number.MAX_SAFE_INTEGER, excludeBots: true, type: null, offset: 0, limit: 10 });
    expect([page.total, page.visits.map((v) => v[2])]).toEqual([2, ["/a/b", "/"]]);
    const typed = await orphans.page({ fromTs: NOW + 2, toTs: NOW + 3, excludeBots: false, type: "invalid_short_url", offset: 0, limit: 10 });
    expect(typed.visits.map((v) => [v[1], v[2], v[8]])).toEqual([["invalid_short_url", "/nope", 1]]);
    expect(await orphans.remove()).toBe(3);
    expect(await s.get("SELECT COUNT(*) AS n FROM orphan_daily")).toEqual({ n: 0 });
    expect((await orphans.page({ fromTs: 0, toTs: Number.MAX_SAFE_INTEGER, excludeBots: false, type: null, offset: 0, limit: 10 })).total).toBe(0);
    // The link's visit stays.
    expect(await s.get("SELECT COUNT(*) AS n FROM visit_batches")).toEqual({ n: 1 });
  });

  test("a page is in one total order (visits of one millisecond the last first); a page of one type reads only its rows", async () => {
    const w = db().writer;
    for (const [type, path] of [["base_url", "/"], ["invalid_short_url", "/x"], ["regular_404", "/y/1"], ["invalid_short_url", "/z"]] as const) w.record(orphan(type, path, NOW));
    expect(await w.flush()).toBe(4);
    w.record(orphan("regular_404", "/w/1", NOW));
    expect(await w.flush()).toBe(1);
    const orphans = db().storage.orphans;
    const all = { fromTs: 0, toTs: Number.MAX_SAFE_INTEGER, excludeBots: false, type: null, offset: 0, limit: 10 };
    expect((await orphans.page(all)).visits.map((v) => v[2])).toEqual(["/w/1", "/z", "/x", "/y/1", "/"]);
    expect((await orphans.page({ ...all, offset: 1, limit: 2 })).visits.map((v) => v[2])).toEqual(["/z", "/x"]);
    // Rows of other types that cannot be read: a page of one type, counted from its rows' columns, never reads them.
    await spoil(db());
    const typed = await orphans.page({ ...all, type: "invalid_short_url", limit: 1 });
    expect([typed.total, typed.visits.map((v) => v[2])]).toEqual([2, ["/z"]]);
  });

  test("the delete, in slices smaller than the tables, deletes every row and answers every raw visit", async () => {
    const w = db().writer;
    for (let i = 0; i < 4; i++) {
      for (const type of ["base_url", "invalid_short_url", "regular_404"] as const) w.record(orphan(type, `/${type}/${i}`, NOW + i, i % 2 === 1));
      await w.flush();
    }
    const s = db().stored;
    expect(await s.get("SELECT COUNT(*) AS n FROM orphan_batches")).toEqual({ n: 12 });
    expect(await s.get("SELECT COUNT(*) AS n FROM orphan_daily")).toEqual({ n: 12 });
    expect(await db().storage.orphans.remove({ rows: 5, daily: 5 })).toBe(12);
    expect(await s.get("SELECT COUNT(*) AS n FROM orphan_batches")).toEqual({ n: 0 });
    expect(await s.get("SELECT COUNT(*) AS n FROM orphan_daily")).toEqual({ n: 0 });
    expect(await db().storage.orphans.remove()).toBe(0);
  });
});
