// The link store on a real SQLite file: what a click is let through to, click limits counted on
// the click thread, edits seen by the next click, deletion that retires an id for ever.

import { afterEach, describe, expect, test } from "bun:test";
import { createLinkStore } from "../../src/links/store.ts";
import { ID_ALPHABET } from "../../src/links/id.ts";
import { createVisitWriter } from "../../src/visits/writer.ts";
import type { Visit } from "../../src/visits/visit.ts";
import { tempDatabase, type TempDb } from "../support/db.ts";

const NOW = Date.parse("2026-11-23T12:00:00.000Z");
let t: TempDb;
afterEach(() => t?.dispose());

const visit = (linkId: string, o: Partial<Visit> = {}): Visit => ({
  linkId, ts: NOW, browser: "Chrome", os: "Linux", device: "desktop", country: "DE", referrer: "Direct",
  utmSource: null, utmMedium: null, utmCampaign: null, isBot: false, visitor: null, ...o,
});

describe("admit", () => {
  test("a plain link: its URL, with no rules to check; an unknown id: null", () => {
    t = tempDatabase();
    const store = createLinkStore(t.db);
    store.create({ url: "https://example.com/", alias: "plain" }, NOW);
    expect(store.admit("plain", true, NOW)).toEqual({ url: "https://example.com/", rules: null });
    expect(store.admit("nope", true, NOW)).toBeNull();
  });

  test("expiry at the boundary (injected clock): let through until the instant, gone from it", () => {
    t = tempDatabase();
    const store = createLinkStore(t.db);
    store.create({ url: "https://example.com/", alias: "timed", expiresAt: NOW + 1000 }, NOW);
    expect(store.admit("timed", true, NOW + 999)).toMatchObject({ url: "https://example.com/" });
    expect(store.admit("timed", true, NOW + 1000)).toEqual({ gone: "expired" });
    expect(store.admit("timed", false, NOW + 5000)).toEqual({ gone: "expired" });
  });

  test("max_clicks: exactly that many clicks are let through; HEAD (click=false) does not count", () => {
    t = tempDatabase();
    const store = createLinkStore(t.db);
    store.create({ url: "https://example.com/", alias: "three", maxClicks: 3 }, NOW);
    for (let i = 0; i < 5; i++) expect(store.admit("three", false, NOW)).toMatchObject({ url: "https://example.com/" });
    const verdicts = Array.from({ length: 10 }, () => ("gone" in store.admit("three", true, NOW)! ? "410" : "302"));
    expect(verdicts).toEqual(["302", "302", "302", "410", "410", "410", "410", "410", "410", "410"]);
    expect(store.clicksAnswered("three")).toBe(3);
  });

  test("the click budget starts from the clicks already recorded (a restart does not reset it)", () => {
    t = tempDatabase();
    const first = createLinkStore(t.db);
    first.create({ url: "https://example.com/", alias: "budget", maxClicks: 5 }, NOW);
    const writer = createVisitWriter(t.db, { flushIntervalMs: 60_000 });
    for (let i = 0; i < 4; i++) writer.record(visit("budget"));
    writer.close();
    const restarted = createLinkStore(t.db); // a new process: empty cache and budget
    expect(restarted.admit("budget", true, NOW)).toMatchObject({ url: "https://example.com/" });
    expect(restarted.admit("budget", true, NOW)).toEqual({ gone: "expired" });
  });

  test("disable, edit and re-enable: the next admit sees each change", () => {
    t = tempDatabase();
    const store = createLinkStore(t.db);
    store.create({ url: "https://example.com/old", alias: "edit" }, NOW);
    expect(store.admit("edit", true, NOW)).toMatchObject({ url: "https://example.com/old" });
    store.update("edit", { disabled: true });
    expect(store.admit("edit", true, NOW)).toEqual({ gone: "disabled" });
    store.update("edit", { disabled: false, url: "https://example.com/new" });
    expect(store.admit("edit", true, NOW)).toMatchObject({ url: "https://example.com/new" });
    store.update("edit", { maxClicks: 1 });
    expect(store.admit("edit", true, NOW)).toMatchObject({ url: "https://example.com/new" });
    expect(store.admit("edit", true, NOW)).toEqual({ gone: "expired" });
    store.update("edit", { maxClicks: null }); // the count is kept, the limit is gone
    expect(store.admit("edit", true, NOW)).toMatchObject({ url: "https://example.com/new" });
  });

  test("a click limit cleared and set again counts every click since (the recorded total), not the old count", () => {
    t = tempDatabase();
    const store = createLinkStore(t.db);
    store.create({ url: "https://example.com/", alias: "again", maxClicks: 2 }, NOW);
    expect(store.admit("again", true, NOW)).toMatchObject({ url: "https://example.com/" });
    expect(store.admit("again", true, NOW)).toMatchObject({ url: "https://example.com/" });
    store.update("again", { maxClicks: null });
    const writer = createVisitWriter(t.db, { flushIntervalMs: 60_000 });
    for (let i = 0; i < 12; i++) {
      expect(store.admit("again", true, NOW)).toMatchObject({ url: "https://example.com/" }); // unlimited now
      writer.record(visit("again"));
    }
    writer.close(); // 12 clicks recorded (the first 2 never reached this writer: 12 is the total)
    store.update("again", { maxClicks: 5 });
    expect(store.admit("again", true, NOW)).toEqual({ gone: "expired" });
  });

  test("editing a blocked link's destination to an allowed one lifts the block at once", () => {
    t = tempDatabase();
    const store = createLinkStore(t.db);
    const link = store.create({ url: "https://bad.example/", alias: "reformed" }, NOW);
    store.setBlocked([link.seq], []);
    expect(store.admit("reformed", true, NOW)).toEqual({ gone: "blocked" });
    store.update("reformed", { url: "https://good.example/" }); // it passed the blocklist to get here
    expect(store.admit("reformed", true, NOW)).toMatchObject({ url: "https://good.example/" });
    expect(store.get("reformed")?.blocked).toBe(false);
  });

  test("a blocked link is gone until the blocklist no longer matches it", () => {
    t = tempDatabase();
    const store = createLinkStore(t.db);
    const link = store.create({ url: "https://example.com/", alias: "blk" }, NOW);
    expect(store.admit("blk", true, NOW)).toMatchObject({ url: "https://example.com/" });
    store.setBlocked([link.seq], []);
    expect(store.admit("blk", true, NOW)).toEqual({ gone: "blocked" });
    expect(store.get("blk")?.blocked).toBe(true);
    store.setBlocked([], [link.seq]);
    expect(store.admit("blk", true, NOW)).toMatchObject({ url: "https://example.com/" });
  });
});

describe("delete", () => {
  test("removes the link, its visits, rollups and tags; the id answers gone and is retired", () => {
    t = tempDatabase();
    const store = createLinkStore(t.db);
    store.create({ url: "https://example.com/", alias: "doomed", tags: ["a", "b"] }, NOW);
    store.create({ url: "https://example.com/", alias: "kept" }, NOW);
    const writer = createVisitWriter(t.db, { flushIntervalMs: 60_000 });
    for (const id of ["doomed", "kept"]) writer.record(visit(id, { utmSource: "x" }));
    writer.flush();
    expect(store.remove("doomed", NOW)).toBe(true);
    const count = (table: string, id: string) => (t.db.query(`SELECT COUNT(*) AS n FROM ${table} WHERE link_id = ?`).get(id) as { n: number }).n;
    for (const table of ["visit_batches", "daily_rollup", "hourly_rollup", "dimension_rollup", "utm_rollup"]) {
      expect(count(table, "doomed")).toBe(0);
      expect(count(table, "kept")).toBeGreaterThan(0);
    }
    expect((t.db.query("SELECT COUNT(*) AS n FROM link_tags").get() as { n: number }).n).toBe(0);
    expect(store.get("doomed")).toBeNull();
    expect(store.admit("doomed", true, NOW)).toEqual({ gone: "deleted" });
    expect(createLinkStore(t.db).admit("doomed", true, NOW)).toEqual({ gone: "deleted" }); // after a restart too
    expect(() => store.create({ url: "https://example.com/new", alias: "doomed" }, NOW)).toThrow(/doomed/);
    expect(store.remove("doomed", NOW)).toBe(false);
    writer.close();
  });

  test("clicks still queued for a deleted link are not written back", () => {
    t = tempDatabase();
    const store = createLinkStore(t.db);
    store.create({ url: "https://example.com/", alias: "late" }, NOW);
    const writer = createVisitWriter(t.db, { flushIntervalMs: 60_000 });
    writer.record(visit("late"));
    store.remove("late", NOW);
    writer.record(visit("late"));
    writer.close();
    expect(writer.stats()).toMatchObject({ written: 0, discarded: 2 });
    expect((t.db.query("SELECT COUNT(*) AS n FROM daily_rollup").get() as { n: number }).n).toBe(0);
  });

  test("the generator never hands out a retired id: it draws again", () => {
    t = tempDatabase();
    // Random bytes that spell "2222222" first, then "3333333".
    const queue = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    let calls = 0;
    const scripted = (n: number) => {
      calls++;
      return Uint8Array.from({ length: n }, () => queue.shift() ?? 2);
    };
    const store = createLinkStore(t.db, scripted);
    expect(ID_ALPHABET[0]).toBe("2");
    const first = store.create({ url: "https://example.com/1" }, NOW);
    expect(first.id).toBe("2222222");
    store.remove("2222222", NOW);
    queue.unshift(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0); // the retired id again
    const second = store.create({ url: "https://example.com/2" }, NOW);
    expect(second.id).not.toBe("2222222");
    expect(second.id).toBe("3333333");
    expect(calls).toBeGreaterThanOrEqual(3);
  });
});

describe("create", () => {
  test("returns exactly what a read of the row gives (it is built, not read back)", () => {
    t = tempDatabase();
    const store = createLinkStore(t.db);
    const made = [
      store.create({ url: "https://example.com/a", alias: "full", ownerKeyId: 3, expiresAt: NOW + 5, maxClicks: 4, tags: ["zeta", "alpha", "zeta"] }, NOW),
      store.create({ url: "https://example.com/b" }, NOW + 1),
    ];
    for (const link of made) expect(store.get(link.id)).toEqual(link);
    expect(made[0]!.tags).toEqual(["alpha", "zeta"]);
  });
});

describe("totals", () => {
  test("the recorder keeps total, human and last-click figures on the link", () => {
    t = tempDatabase();
    const store = createLinkStore(t.db);
    store.create({ url: "https://example.com/", alias: "tot" }, NOW);
    const writer = createVisitWriter(t.db, { flushIntervalMs: 60_000 });
    writer.record(visit("tot", { ts: NOW + 10 }));
    writer.record(visit("tot", { ts: NOW + 30, isBot: true }));
    writer.record(visit("tot", { ts: NOW + 20 }));
    writer.close();
    expect(store.get("tot")).toMatchObject({ totalClicks: 3, humanClicks: 2, lastClickAt: NOW + 30 });
  });
});
