// How SQLite plans a search of the owner's list (src/db/sqlite/search.ts), on a real file: the
// trigram index for a rare term, the scan for a common or short one, links not yet indexed found
// too, and both plans matching the same links. What every engine's list promises is
// test/contract/lister.test.ts.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLinkStore, localClickBudget, type LinkStore } from "../../src/links/store.ts";
import type { ListQuery, Cursor } from "../../src/links/list.ts";
import type { Link } from "../../src/links/link.ts";
import { sqliteLinks } from "../../src/db/sqlite/links.ts";
import { sqliteLister } from "../../src/db/sqlite/lister.ts";
import { searchPlanner } from "../../src/db/sqlite/search.ts";
import { createSearchIndexer } from "../../src/db/sqlite/search-index.ts";
import { tempDatabase, type TempDb } from "../support/db.ts";

const NOW = Date.parse("2026-11-23T12:00:00.000Z");
let t: TempDb;
let store: LinkStore;
let lister: ReturnType<typeof sqliteLister>;

beforeAll(async () => {
  t = tempDatabase();
  store = createLinkStore(sqliteLinks(t.db), localClickBudget());
  // At most 20 index matches are listed, so that 250 links exercise both search plans.
  lister = sqliteLister(t.db, 20);
  for (let i = 0; i < 250; i++) {
    await store.create({ url: i % 50 === 0 ? `https://rare-${i}.example/Needle` : `https://site${i % 7}.example/page/${i}`, alias: `link-${String(i).padStart(3, "0")}` }, NOW - i * 1000);
  }
  // What the recorder thread does about once a second.
  expect(createSearchIndexer(t.db).indexNew()).toBe(250);
});
afterAll(() => t.dispose());

const query = (o: Partial<ListQuery>): ListQuery => ({ owner: null, ownerName: null, q: null, tag: null, status: null, sort: "createdAt", order: "desc", limit: 50, cursor: null, now: NOW, ...o });
function allPages(o: Partial<ListQuery>, l = lister): Link[] {
  const out: Link[] = [];
  let cursor: Cursor | null = null;
  do {
    const page = l.page(query({ ...o, cursor }));
    out.push(...page.links);
    cursor = page.next;
  } while (cursor !== null);
  return out;
}

describe("search plans", () => {
  test("both plans are taken: the index for a rare term, the scan for a common or short one", () => {
    const plan = searchPlanner(t.db, 20);
    expect(plan("needle").sql).toContain("json_each");
    expect(plan("site").sql).toContain("LIKE");
    expect(plan("le").sql).toContain("LIKE"); // shorter than a trigram
  });

  test("links not yet indexed are found too, and indexing them changes no result", async () => {
    const fresh = await store.create({ url: "https://just-made.example/needle-fresh" }, NOW);
    expect(allPages({ q: "needle-fresh" }).map((l) => l.id)).toEqual([fresh.id]);
    expect(allPages({ q: "needle" }).map((l) => l.id)).toContain(fresh.id);
    expect(createSearchIndexer(t.db).indexNew()).toBeGreaterThan(0);
    expect(allPages({ q: "needle-fresh" }).map((l) => l.id)).toEqual([fresh.id]);
    await store.remove(fresh.id, NOW);
    expect(allPages({ q: "needle-fresh" })).toEqual([]);
    // Edited and deleted before indexing: the index must end up as if they were indexed after.
    const early = await store.create({ url: "https://early.example/before-edit" }, NOW);
    const dropped = await store.create({ url: "https://early.example/dropped" }, NOW);
    await store.update(early.id, { url: "https://early.example/after-edit" });
    await store.remove(dropped.id, NOW);
    createSearchIndexer(t.db).indexNew();
    expect(allPages({ q: "after-edit" }).map((l) => l.id)).toEqual([early.id]);
    expect(allPages({ q: "before-edit" })).toEqual([]);
    expect(allPages({ q: "early.example/dropped" })).toEqual([]);
    t.db.run("INSERT INTO links_search (links_search, rank) VALUES ('integrity-check', 1)"); // throws when the index disagrees with the links
    await store.remove(early.id, NOW);
  });

  test("both plans match the same links for non-ASCII text (LIKE decides; the index only narrows)", async () => {
    const umlaut = await store.create({ url: "https://example.de/STRAẞE/ÄÖÜ-grüße" }, NOW);
    createSearchIndexer(t.db).indexNew();
    const indexPlan = sqliteLister(t.db, 1000);
    const scanPlan = sqliteLister(t.db, 0); // no index matches are ever few enough: always the scan
    for (const q of ["ÄÖÜ", "äöü", "grüße", "GRÜSSE", "straẞe", "example.de"]) {
      expect({ q, ids: allPages({ q, limit: 200 }, indexPlan).map((x) => x.id) }).toEqual({ q, ids: allPages({ q, limit: 200 }, scanPlan).map((x) => x.id) });
    }
    expect(allPages({ q: "ÄÖÜ" }, indexPlan).map((l) => l.id)).toEqual([umlaut.id]);
    await store.remove(umlaut.id, NOW);
  });

  test("titles are in the index: found by the index plan, an edited or fetched title re-indexed, a deleted link gone", async () => {
    const titled = await store.create({ url: "https://plain.example/x", title: "Marmoset Gazette" }, NOW);
    const untitled = await store.create({ url: "https://plain.example/y" }, NOW);
    createSearchIndexer(t.db).indexNew();
    const indexPlan = sqliteLister(t.db, 1000);
    expect(searchPlanner(t.db, 1000)("marmoset").sql).toContain("json_each");
    expect(allPages({ q: "marmoset" }, indexPlan).map((l) => l.id)).toEqual([titled.id]);
    await store.update(titled.id, { title: "Capybara Weekly" });
    expect(await store.fillTitle(untitled.id, "Tapir Times")).toBe(true);
    expect(allPages({ q: "capybara" }, indexPlan).map((l) => l.id)).toEqual([titled.id]);
    expect(allPages({ q: "tapir" }, indexPlan).map((l) => l.id)).toEqual([untitled.id]);
    expect(allPages({ q: "marmoset" }, indexPlan)).toEqual([]);
    await store.remove(titled.id, NOW);
    expect(allPages({ q: "capybara" }, indexPlan)).toEqual([]);
    t.db.run("INSERT INTO links_search (links_search, rank) VALUES ('integrity-check', 1)");
    await store.remove(untitled.id, NOW);
  });
});
