// The owner's list (the LinkLister port of src/links/list.ts) on both engines: every sort through
// every page, cursors that hold while links are added, the status filter agreeing with the status
// rule, tag, owner and search filters. How SQLite plans a search is test/unit/sqlite-search.test.ts.

import { expect, test } from "bun:test";
import { decodeCursor, encodeCursor, type Cursor, type ListQuery, type ListSort } from "../../src/links/list.ts";
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
        tags: i % 4 === 0 ? ["four"] : i % 5 === 0 ? ["five", "x"] : [],
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

    test("search finds a destination after it was edited, and not the old one", async () => {
      await db().storage.links.update("link-001", { url: "https://edited.example/Haystack" });
      expect((await allPages({ q: "haystack" })).map((l) => l.id)).toEqual(["link-001"]);
      expect((await allPages({ q: "page/1" })).map((l) => l.id)).not.toContain("link-001");
    });
  },
  { shared: seedList },
);
