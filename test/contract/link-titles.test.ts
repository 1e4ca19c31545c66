// A link's title on both engines (src/links/title.ts; docs/link-titles.md: Link titles): stored at
// create and in an import's slice, changed and cleared, filled only where none was given, found by
// the list's search; and a link's key found by its seq (the Kutt API's ids).

import { expect, test } from "bun:test";
import type { ListQuery } from "../../src/links/list.ts";
import { forEachEngine, NOW } from "../support/contract-suite.ts";

const query = (o: Partial<ListQuery>): ListQuery => ({ owner: null, ownerName: null, q: null, tag: null, status: null, sort: "createdAt", order: "desc", limit: 50, cursor: null, now: NOW, ...o });

forEachEngine("links: titles", (db) => {
  test("a title given at create is stored and read back; none is null", async () => {
    const { links } = db().storage;
    const titled = await links.create({ url: "https://example.com/a", alias: "titled", title: "Ünïcode – a page" }, NOW);
    const plain = await links.create({ url: "https://example.com/b", alias: "untitled" }, NOW);
    expect(titled.title).toBe("Ünïcode – a page");
    expect(plain.title).toBeNull();
    const restarted = (await db().reopen()).storage.links;
    expect((await restarted.get("titled"))!.title).toBe("Ünïcode – a page");
    expect((await restarted.get("untitled"))!.title).toBeNull();
  });

  test("an import's slice keeps each link's title", async () => {
    const { links } = db().storage;
    const made = await links.createAll([{ url: "https://example.com/1", alias: "slice-1", title: "First" }, { url: "https://example.com/2", alias: "slice-2" }], NOW);
    expect(made.map((l) => (typeof l === "string" ? l : l.title))).toEqual(["First", null]);
    expect((await links.get("slice-1"))!.title).toBe("First");
  });

  test("a change sets and clears the title", async () => {
    const { links } = db().storage;
    await links.create({ url: "https://example.com/c", alias: "changing" }, NOW);
    expect((await links.update("changing", { title: "Now named" }))!.title).toBe("Now named");
    expect((await links.update("changing", { title: null }))!.title).toBeNull();
  });

  test("fillTitle sets a title only where there is none, never over one a person gave", async () => {
    const { links } = db().storage;
    await links.create({ url: "https://example.com/d", alias: "fill-me" }, NOW);
    await links.create({ url: "https://example.com/e", alias: "named-by-hand", title: "Mine" }, NOW);
    expect(await links.fillTitle("fill-me", "Fetched")).toBe(true);
    expect(await links.fillTitle("fill-me", "Fetched again")).toBe(false);
    expect(await links.fillTitle("named-by-hand", "Fetched")).toBe(false);
    expect(await links.fillTitle("no-such-link", "Fetched")).toBe(false);
    expect((await links.get("fill-me"))!.title).toBe("Fetched");
    expect((await links.get("named-by-hand"))!.title).toBe("Mine");
  });

  test("the list's search finds a link by its title, in any letter case, before and after an edit", async () => {
    const { links, lister } = db().storage;
    await links.create({ url: "https://example.com/f", alias: "searched", title: "Quarterly Zebra Report" }, NOW);
    const found = async (q: string) => (await lister.page(query({ q }))).links.map((l) => l.id);
    expect(await found("zebra report")).toEqual(["searched"]);
    await links.update("searched", { title: "Annual Okapi Review" });
    expect(await found("okapi")).toEqual(["searched"]);
    expect(await found("zebra")).toEqual([]);
  });

  test("keyOfSeq: the key of a link by its seq, on another domain too; null for none", async () => {
    const { links, domains } = db().storage;
    await domains.add({ name: "go.example", isDefault: false, https: true, rootRedirect: null, notFoundRedirect: null, fallbackRedirect: null, robots: null, creators: null, createdAt: NOW });
    const home = await links.create({ url: "https://example.com/g", alias: "by-seq" }, NOW);
    const away = await links.create({ url: "https://example.com/h", alias: "by-seq", domain: "go.example" }, NOW);
    expect(await links.keyOfSeq(home.seq)).toBe("by-seq");
    expect(await links.keyOfSeq(away.seq)).toBe("by-seq@go.example");
    expect(await links.keyOfSeq(999_999)).toBeNull();
  });
});
