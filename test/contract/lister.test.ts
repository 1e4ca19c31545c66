// The owner's list (the LinkLister port of src/links/list.ts) on both engines: every sort through
// every page, cursors that hold while links are added, the status filter agreeing with the status
// rule, tag, owner and search filters. How SQLite plans a search is test/unit/sqlite-search.test.ts.

import { expect, test } from "bun:test";
import { decodeCursor, encodeCursor, LIST_SORTS, PEER_SORTS, type Cursor, type ListQuery, type ListSort, type PeerSort } from "../../src/links/list.ts";
import { linkStatus, LINK_STATUSES, type Link } from "../../src/links/link.ts";
import type { OpenedEngine } from "../support/engines.ts";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";

async function seedList(db: OpenedEngine): Promise<void> {
  const { links } = db.storage;
  for (let i = 0; i < 250; i++) {
    // Several links share a creation time, click count and last click, so ties must be broken.
    const link = await links.create(
      {
        url: i % 50 === 0 ? `https://rare-${i}.example/Needle` : `https://site${i % 7}.example/page/${i}`,
        alias: `link-${String(i).padStart(3, "0")}`,
        ownerKeyId: i % 3 === 0 ? 7 : null,
        tags: [...(i % 4 === 0 ? ["four"] : i % 5 === 0 ? ["five", "x"] : []), ...(i % 6 === 0 ? ["six"] : [])],
        // Titles that tie, none (sorted as the empty title), and letters whose bytes order them apart from their case.
        title: [null, "Zed", "alpha", "Beta", "Öl", "alpha", null][i % 7],
        expiresAt: i % 9 === 0 ? NOW + 1000 : null,
        maxClicks: i % 11 === 0 ? 2 : null,
      },
      NOW - Math.floor(i / 3) * 60_000,
    );
    if (i % 13 === 0) await links.update(link.id, { disabled: true });
    if (i % 17 === 0) await links.setBlocked([link.seq], []);
    for (let c = 0; c < i % 6; c++) db.writer.record(visit(link, { ts: NOW - (i % 4) * 1000, isBot: c === 0 }));
  }
  await db.writer.flush();
}

const query = (o: Partial<ListQuery>): ListQuery => ({ owner: null, ownerName: null, q: null, tag: null, status: null, sort: "createdAt", order: "desc", limit: 50, cursor: null, now: NOW, ...o });
const value = (l: Link, sort: ListSort) => (sort === "createdAt" ? l.createdAt : sort === "totalClicks" ? l.totalClicks : (l.lastClickAt ?? 0));
/** Text by its UTF-16 units: the bytes' order of UTF-8 for every character the seed holds. */
const bytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const COMPARE: Record<ListSort | PeerSort, (a: Link, b: Link) => number> = {
  createdAt: (a, b) => a.createdAt - b.createdAt,
  totalClicks: (a, b) => a.totalClicks - b.totalClicks,
  lastClickAt: (a, b) => value(a, "lastClickAt") - value(b, "lastClickAt"),
  url: (a, b) => bytes(a.url, b.url),
  alias: (a, b) => bytes(a.id, b.id),
  title: (a, b) => bytes(a.title ?? "", b.title ?? ""),
  humanClicks: (a, b) => a.humanClicks - b.humanClicks,
};
const has = (l: Link, ...tags: string[]) => tags.map((t) => l.tags.includes(t));
const T1 = NOW - 40 * 60_000;
const T2 = NOW - 20 * 60_000;
/** Each peer filter alone and with others, and which links it must list (read from every link). */
const SELECTS_ALL_OR_NONE = new Set(["tags all, one nobody has", "tags: none named", "excludeExpired before any expires"]);
const PEER_FILTERS: [string, Partial<ListQuery>, (l: Link) => boolean][] = [
  ["tags any", { tags: { names: ["four", "six"], mode: "any" } }, (l) => has(l, "four", "six").some(Boolean)],
  ["tags all (a name twice)", { tags: { names: ["four", "six", "four"], mode: "all" } }, (l) => has(l, "four", "six").every(Boolean)],
  ["tags all, one name", { tags: { names: ["x"], mode: "all" } }, (l) => has(l, "x")[0]!],
  ["tags all, one nobody has", { tags: { names: ["six", "nobody"], mode: "all" } }, () => false],
  ["tags: none named", { tags: { names: [], mode: "any" } }, () => true],
  ["excludeTags any", { excludeTags: { names: ["four", "six"], mode: "any" } }, (l) => !has(l, "four", "six").some(Boolean)],
  ["excludeTags all", { excludeTags: { names: ["five", "six"], mode: "all" } }, (l) => !has(l, "five", "six").every(Boolean)],
  ["tag, tags any and excludeTags all", { tag: "six", tags: { names: ["four", "five"], mode: "any" }, excludeTags: { names: ["x", "five"], mode: "all" } }, (l) => has(l, "six")[0]! && has(l, "four")[0]!],
  ["createdFrom (at it included)", { createdFrom: T2 }, (l) => l.createdAt >= T2],
  ["createdBefore (at it left out)", { createdBefore: T2 }, (l) => l.createdAt < T2],
  ["created from and before", { createdFrom: T1, createdBefore: T2 }, (l) => l.createdAt >= T1 && l.createdAt < T2],
  ["excludeMaxClicksReached", { excludeMaxClicksReached: true }, (l) => l.maxClicks === null || l.totalClicks < l.maxClicks],
  ["excludeExpired (at expiresAt: expired)", { excludeExpired: true, now: NOW + 1000 }, (l) => l.expiresAt === null || l.expiresAt > NOW + 1000],
  ["excludeExpired before any expires", { excludeExpired: true }, () => true],
  [
    "everything at once",
    { q: "site", owner: { keyId: 7 }, tags: { names: ["six", "four"], mode: "any" }, excludeTags: { names: ["five"], mode: "any" }, createdFrom: NOW - 70 * 60_000, excludeMaxClicksReached: true, excludeExpired: true, now: NOW + 1000 },
    (l) => l.url.includes("site") && l.ownerKeyId === 7 && has(l, "six", "four").some(Boolean) && !has(l, "five")[0] && l.createdAt >= NOW - 70 * 60_000 && (l.maxClicks === null || l.totalClicks < l.maxClicks) && (l.expiresAt === null || l.expiresAt > NOW + 1000),
  ],
];

forEachEngine(
  "lister",
  (db) => {
    const allPages = async (o: Partial<ListQuery>): Promise<Link[]> => {
      const out: Link[] = [];
      let cursor: Cursor | null = null;
      do {
        const page = await db().storage.lister.page(query({ ...o, cursor }));
        out.push(...page.links);
        cursor = page.next;
      } while (cursor !== null);
      return out;
    };
    /** Every link, oldest first, through the export path. */
    const everyLink = async (): Promise<Link[]> => {
      const out: Link[] = [];
      for await (const l of db().storage.lister.all(null)) out.push(l);
      return out;
    };

    test("totals(): the links each filter selects, counted, and their clicks summed, as the pages list them", async () => {
      const filters: Partial<ListQuery>[] = [{}, { q: "needle" }, { q: "SITE3" }, { tag: "four" }, { status: "active" }, { status: "expired" }, { owner: { keyId: 7 } }, { q: "site1", tag: "five", status: "active" }];
      for (const f of filters) {
        const listed = await allPages(f);
        const { sort, order, limit, cursor, ...filter } = query(f);
        expect({ f, totals: await db().storage.lister.totals(filter) }).toEqual({ f, totals: { links: listed.length, clicks: listed.reduce((sum, l) => sum + l.totalClicks, 0) } });
      }
    });

    test("all(): every link once, oldest first, each as a read of it gives", async () => {
      const all = await everyLink();
      expect(all).toHaveLength(250);
      expect(all.map((l) => l.id)).toEqual([...all].sort((a, b) => a.createdAt - b.createdAt || a.seq - b.seq).map((l) => l.id));
      expect(await db().storage.links.get("link-044")).toEqual(all.find((l) => l.id === "link-044")!);
    });

    for (const sort of ["createdAt", "totalClicks", "lastClickAt"] as const) {
      for (const order of ["asc", "desc"] as const) {
        test(`${sort} ${order}: every link exactly once, in order, ties broken the same way`, async () => {
          const pages = await allPages({ sort, order, limit: 37 });
          expect(pages).toHaveLength(250);
          expect(new Set(pages.map((l) => l.id)).size).toBe(250);
          const expected = [...(await everyLink())].sort((a, b) => (value(a, sort) - value(b, sort) || a.seq - b.seq) * (order === "asc" ? 1 : -1));
          expect(pages.map((l) => l.id)).toEqual(expected.map((l) => l.id));
        });
      }
    }

    test("links added while paging (newest first) neither repeat nor shift later pages", async () => {
      const { links, lister } = db().storage;
      const first = await lister.page(query({ limit: 40 }));
      const added = await links.create({ url: "https://new.example/", alias: "added-late" }, NOW + 1);
      const rest: Link[] = [];
      let cursor = first.next;
      while (cursor !== null) {
        const page = await lister.page(query({ limit: 40, cursor }));
        rest.push(...page.links);
        cursor = page.next;
      }
      const seen = [...first.links, ...rest].map((l) => l.id);
      expect(seen).toHaveLength(250);
      expect(seen).not.toContain(added.id);
      await links.remove(added.id, NOW);
    });

    test("a cursor is opaque, and one made for another sort is refused", async () => {
      const c = (await db().storage.lister.page(query({ limit: 5 }))).next!;
      expect(decodeCursor(encodeCursor(c), "createdAt", "desc")).toEqual(c);
      expect(decodeCursor(encodeCursor(c), "totalClicks", "desc")).toBeNull();
      expect(decodeCursor("garbage", "createdAt", "desc")).toBeNull();
    });

    test("status: the SQL filter agrees with the status rule for every link", async () => {
      const links = await everyLink();
      for (const status of LINK_STATUSES) {
        const expected = links.filter((l) => linkStatus({ ...l, clicks: l.totalClicks }, NOW) === status).map((l) => l.id).sort();
        expect((await allPages({ status })).map((l) => l.id).sort()).toEqual(expected);
        expect(expected.length).toBeGreaterThan(0);
      }
    });

    test("tag and owner filters", async () => {
      expect((await allPages({ tag: "five" })).map((l) => l.id).sort()).toEqual((await everyLink()).filter((l) => l.tags.includes("five")).map((l) => l.id).sort());
      const owned = await allPages({ owner: { keyId: 7 } });
      expect(owned.every((l) => l.ownerKeyId === 7)).toBe(true);
      expect(owned).toHaveLength(84);
    });

    test.each(["needle", "NEEDLE", "site3", "site", "link-24", "le", "%", "_", "nothing-matches-this"])("search %p matches the id or destination, case-insensitively", async (q) => {
      const expected = (await everyLink()).filter((l) => l.id.toLowerCase().includes(q.toLowerCase()) || l.url.toLowerCase().includes(q.toLowerCase())).map((l) => l.id).sort();
      expect((await allPages({ q })).map((l) => l.id).sort()).toEqual(expected);
    });

    /** Every page by offset until a short one; no page of them hands out a cursor. */
    const offsetPages = async (o: Partial<ListQuery>, limit = 37): Promise<Link[]> => {
      const out: Link[] = [];
      for (let offset = 0; ; offset += limit) {
        const page = await db().storage.lister.page(query({ ...o, limit, offset }));
        expect(page.next).toBeNull();
        out.push(...page.links);
        if (page.links.length < limit) return out;
      }
    };
    const ordered = (links: Link[], sort: ListSort | PeerSort, order: "asc" | "desc") =>
      [...links].sort((a, b) => (COMPARE[sort](a, b) || a.seq - b.seq) * (order === "asc" ? 1 : -1)).map((l) => l.id);

    for (const sort of [...PEER_SORTS, ...LIST_SORTS]) {
      for (const order of ["asc", "desc"] as const) {
        test(`offset pages by ${sort} ${order}: every link exactly once, in order, ties broken by seq`, async () => {
          const all = await everyLink();
          // The order has ties to break (a sort by alias has none within one domain).
          if (sort !== "alias" && sort !== "url") expect(new Set(all.map((l) => COMPARE[sort](l, all[0]!))).size).toBeLessThan(all.length);
          expect((await offsetPages({ sort, order })).map((l) => l.id)).toEqual(ordered(all, sort, order));
        });
      }
    }

    test("an offset page: past the end is empty; a limit of every link is one page", async () => {
      const { lister } = db().storage;
      expect((await lister.page(query({ sort: "title", offset: 250, limit: 10 }))).links).toEqual([]);
      const whole = await lister.page(query({ sort: "url", order: "asc", offset: 0, limit: Number.MAX_SAFE_INTEGER }));
      expect(whole.links.map((l) => l.id)).toEqual(ordered(await everyLink(), "url", "asc"));
      expect((await lister.page(query({ sort: "humanClicks", offset: 248, limit: 5 }))).links).toHaveLength(2);
    });

    test("a page at an offset and after a cursor at once, a peer sort by cursor, a negative offset: refused", async () => {
      const { lister } = db().storage;
      const cursor = (await lister.page(query({ limit: 5 }))).next!;
      for (const bad of [{ offset: 5, cursor }, { sort: "title" as const }, { sort: "url" as const, offset: -1 }, { offset: 1.5 }]) {
        await expect((async () => lister.page(query(bad)))()).rejects.toThrow();
      }
    });

    test.each(PEER_FILTERS)("%s: cursor pages, offset pages and totals agree with the rule", async (name, filter, rule) => {
      const all = await everyLink();
      const expected = all.filter(rule).map((l) => l.id).sort();
      if (!SELECTS_ALL_OR_NONE.has(name)) {
        expect(expected.length).toBeGreaterThan(0);
        expect(expected.length).toBeLessThan(all.length);
      }
      expect((await allPages(filter)).map((l) => l.id).sort()).toEqual(expected);
      const byTitle = await offsetPages({ ...filter, sort: "title", order: "desc" }, 11);
      expect(byTitle.map((l) => l.id)).toEqual(ordered(all.filter(rule), "title", "desc"));
      const { sort, order, limit, cursor, ...counted } = query(filter);
      const clicks = all.filter(rule).reduce((sum, l) => sum + l.totalClicks, 0);
      expect(await db().storage.lister.totals(counted)).toEqual({ links: expected.length, clicks });
    });

    test("search finds a destination after it was edited, and not the old one", async () => {
      await db().storage.links.update("link-001", { url: "https://edited.example/Haystack" });
      expect((await allPages({ q: "haystack" })).map((l) => l.id)).toEqual(["link-001"]);
      expect((await allPages({ q: "page/1" })).map((l) => l.id)).not.toContain("link-001");
    });
  },
  { shared: seedList },
);
