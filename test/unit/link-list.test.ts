// The owner's list on a real SQLite file: every sort through every page, cursors that hold while
// links are added, the status filter agreeing with the status rule, search by both plans.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLinkStore } from "../../src/links/store.ts";
import { createLinkLister, decodeCursor, encodeCursor, type ListQuery, type ListSort } from "../../src/links/list.ts";
import { linkStatus, LINK_STATUSES, type Link } from "../../src/links/link.ts";
import { createVisitWriter } from "../../src/visits/writer.ts";
import { searchPlanner } from "../../src/links/search.ts";
import { createSearchIndexer } from "../../src/links/search-index.ts";
import { tempDatabase, type TempDb } from "../support/db.ts";

const NOW = Date.parse("2026-11-23T12:00:00.000Z");
let t: TempDb;
let store: ReturnType<typeof createLinkStore>;
let lister: ReturnType<typeof createLinkLister>;
let everyLinkList: Link[] = [];

beforeAll(async () => {
  t = tempDatabase();
  store = createLinkStore(t.db);
  // At most 20 index matches are listed, so that 250 links exercise both search plans.
  lister = createLinkLister(t.db, 20);
  const writer = createVisitWriter(t.db, { flushIntervalMs: 60_000 });
  for (let i = 0; i < 250; i++) {
    // Several links share a creation time, click count and last click, so ties must be broken.
    const link = store.create(
      {
        url: i % 50 === 0 ? `https://rare-${i}.example/Needle` : `https://site${i % 7}.example/page/${i}`,
        alias: `link-${String(i).padStart(3, "0")}`,
        ownerKeyId: i % 3 === 0 ? 7 : null,
        tags: i % 4 === 0 ? ["four"] : i % 5 === 0 ? ["five", "x"] : [],
        expiresAt: i % 9 === 0 ? NOW + 1000 : null,
        maxClicks: i % 11 === 0 ? 2 : null,
      },
      NOW - Math.floor(i / 3) * 60_000,
    );
    if (i % 13 === 0) store.update(link.id, { disabled: true });
    if (i % 17 === 0) store.setBlocked([link.seq], []);
    for (let c = 0; c < i % 6; c++) writer.record({ linkId: link.id, ts: NOW - (i % 4) * 1000, browser: "X", os: "X", device: "desktop", country: "DE", referrer: "Direct", utmSource: null, utmMedium: null, utmCampaign: null, isBot: c === 0, visitor: null });
  }
  writer.close();
  // What the recorder thread does about once a second.
  expect(createSearchIndexer(t.db).indexNew()).toBe(250);
  await refreshEveryLink();
});
afterAll(() => t.dispose());

/** Every link, oldest first (through the lister's export path), as of the last refresh. */
const everyLink = (): Link[] => everyLinkList;
async function refreshEveryLink(): Promise<void> {
  everyLinkList = [];
  for await (const l of lister.all(null)) everyLinkList.push(l);
}
const query = (o: Partial<ListQuery>): ListQuery => ({ ownerKeyId: null, q: null, tag: null, status: null, sort: "createdAt", order: "desc", limit: 50, cursor: null, now: NOW, ...o });
function allPages(o: Partial<ListQuery>): Link[] {
  const out: Link[] = [];
  let cursor = null;
  do {
    const page = lister.page(query({ ...o, cursor }));
    out.push(...page.links);
    cursor = page.next;
  } while (cursor !== null);
  return out;
}
const value = (l: Link, sort: ListSort) => (sort === "createdAt" ? l.createdAt : sort === "totalClicks" ? l.totalClicks : (l.lastClickAt ?? 0));

describe("pages", () => {
  for (const sort of ["createdAt", "totalClicks", "lastClickAt"] as const) {
    for (const order of ["asc", "desc"] as const) {
      test(`${sort} ${order}: every link exactly once, in order, ties broken the same way`, () => {
        const pages = allPages({ sort, order, limit: 37 });
        expect(pages).toHaveLength(250);
        expect(new Set(pages.map((l) => l.id)).size).toBe(250);
        const expected = [...everyLink()].sort((a, b) => (value(a, sort) - value(b, sort) || a.seq - b.seq) * (order === "asc" ? 1 : -1));
        expect(pages.map((l) => l.id)).toEqual(expected.map((l) => l.id));
      });
    }
  }

  test("links added while paging (newest first) neither repeat nor shift later pages", () => {
    const first = lister.page(query({ limit: 40 }));
    const added = store.create({ url: "https://new.example/", alias: "added-late" }, NOW + 1);
    const rest: Link[] = [];
    let cursor = first.next;
    while (cursor !== null) {
      const page = lister.page(query({ limit: 40, cursor }));
      rest.push(...page.links);
      cursor = page.next;
    }
    const seen = [...first.links, ...rest].map((l) => l.id);
    expect(seen).toHaveLength(250);
    expect(seen).not.toContain(added.id);
    store.remove(added.id, NOW);
  });

  test("a cursor is opaque, and one made for another sort is refused", () => {
    const c = lister.page(query({ limit: 5 })).next!;
    expect(decodeCursor(encodeCursor(c), "createdAt", "desc")).toEqual(c);
    expect(decodeCursor(encodeCursor(c), "totalClicks", "desc")).toBeNull();
    expect(decodeCursor("garbage", "createdAt", "desc")).toBeNull();
  });
});

describe("filters", () => {
  test("status: the SQL filter agrees with the status rule for every link", () => {
    const links = everyLink();
    for (const status of LINK_STATUSES) {
      const expected = links.filter((l) => linkStatus({ ...l, clicks: l.totalClicks }, NOW) === status).map((l) => l.id).sort();
      expect(allPages({ status }).map((l) => l.id).sort()).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    }
  });

  test("tag and owner filters", () => {
    expect(allPages({ tag: "five" }).map((l) => l.id).sort()).toEqual(everyLink().filter((l) => l.tags.includes("five")).map((l) => l.id).sort());
    expect(allPages({ ownerKeyId: 7 }).every((l) => l.ownerKeyId === 7)).toBe(true);
    expect(allPages({ ownerKeyId: 7 })).toHaveLength(84);
  });

  test("both plans are taken: the index for a rare term, the scan for a common or short one", () => {
    const plan = searchPlanner(t.db, 20);
    expect(plan("needle").sql).toContain("json_each");
    expect(plan("site").sql).toContain("LIKE");
    expect(plan("le").sql).toContain("LIKE"); // shorter than a trigram
  });

  // "needle" is in 5 links (the index plan), "site" in 214 (more than 20: the scan).
  test.each(["needle", "NEEDLE", "site3", "site", "link-24", "le", "%", "_", "nothing-matches-this"])("search %p matches the id or destination, case-insensitively", (q) => {
    const expected = everyLink().filter((l) => l.id.toLowerCase().includes(q.toLowerCase()) || l.url.toLowerCase().includes(q.toLowerCase())).map((l) => l.id).sort();
    expect(allPages({ q }).map((l) => l.id).sort()).toEqual(expected);
  });

  test("links not yet indexed are found too, and indexing them changes no result", () => {
    const fresh = store.create({ url: "https://just-made.example/needle-fresh" }, NOW);
    expect(allPages({ q: "needle-fresh" }).map((l) => l.id)).toEqual([fresh.id]);
    expect(allPages({ q: "needle" }).map((l) => l.id)).toContain(fresh.id);
    expect(createSearchIndexer(t.db).indexNew()).toBeGreaterThan(0);
    expect(allPages({ q: "needle-fresh" }).map((l) => l.id)).toEqual([fresh.id]);
    store.remove(fresh.id, NOW);
    expect(allPages({ q: "needle-fresh" })).toEqual([]);
    // Edited and deleted before indexing: the index must end up as if they were indexed after.
    const early = store.create({ url: "https://early.example/before-edit" }, NOW);
    const dropped = store.create({ url: "https://early.example/dropped" }, NOW);
    store.update(early.id, { url: "https://early.example/after-edit" });
    store.remove(dropped.id, NOW);
    createSearchIndexer(t.db).indexNew();
    expect(allPages({ q: "after-edit" }).map((l) => l.id)).toEqual([early.id]);
    expect(allPages({ q: "before-edit" })).toEqual([]);
    expect(allPages({ q: "early.example/dropped" })).toEqual([]);
    t.db.run("INSERT INTO links_search (links_search, rank) VALUES ('integrity-check', 1)"); // throws when the index disagrees with the links
    store.remove(early.id, NOW);
  });

  test("both plans match the same links for non-ASCII text (LIKE decides; the index only narrows)", async () => {
    const umlaut = store.create({ url: "https://example.de/STRAẞE/ÄÖÜ-grüße" }, NOW);
    await refreshEveryLink();
    createSearchIndexer(t.db).indexNew();
    const indexPlan = createLinkLister(t.db, 1000);
    const scanPlan = createLinkLister(t.db, 0); // no index matches are ever few enough: always the scan
    for (const q of ["ÄÖÜ", "äöü", "grüße", "GRÜSSE", "straẞe", "example.de"]) {
      const run = (l: typeof lister) => l.page(query({ q, limit: 200 })).links.map((x) => x.id);
      expect({ q, ids: run(indexPlan) }).toEqual({ q, ids: run(scanPlan) });
    }
    expect(indexPlan.page(query({ q: "ÄÖÜ" })).links.map((l) => l.id)).toEqual([umlaut.id]);
    store.remove(umlaut.id, NOW);
    await refreshEveryLink();
  });

  test("search finds a destination after it was edited, and not the old one", async () => {
    store.update("link-001", { url: "https://edited.example/Haystack" });
    await refreshEveryLink();
    expect(allPages({ q: "haystack" }).map((l) => l.id)).toEqual(["link-001"]);
    expect(allPages({ q: "page/1" }).map((l) => l.id)).not.toContain("link-001");
  });
});
