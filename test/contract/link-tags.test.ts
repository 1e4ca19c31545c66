// Tags across links on both engines (src/links/tags.ts): LinkLister.tags counts each tag's links
// and clicks over the links an owner filter selects (on SQLite through the reader thread), and
// LinkStore.retag renames a tag on every link or takes tags off them, in one transaction of the
// link change script, writing a link.updated event of each changed link (docs/shlink-api.md: Tags).

import { expect, test } from "bun:test";
import { createLinkStore } from "../../src/links/store.ts";
import { linkEvents } from "../../src/events/link-events.ts";
import { createEventWants } from "../../src/events/wants.ts";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";
import type { OpenedEngine } from "../support/engines.ts";

/** Four links of three owners: a key's (7), a user's (3), nobody's; clicks on two, a bot's among them. */
async function seed(db: OpenedEngine): Promise<void> {
  const { links } = db.storage;
  const one = await links.create({ url: "https://example.com/1", alias: "one", ownerKeyId: 7, tags: ["red", "blue"] }, NOW);
  await links.create({ url: "https://example.com/2", alias: "two", ownerKeyId: 7, tags: ["red"] }, NOW);
  const three = await links.create({ url: "https://example.com/3", alias: "three", ownerUserId: 3, tags: ["red", "Green"] }, NOW);
  await links.create({ url: "https://example.com/4", alias: "four", tags: [] }, NOW);
  db.writer.record(visit(one));
  db.writer.record(visit(one, { isBot: true }));
  db.writer.record(visit(three));
  await db.writer.flush();
}

const tagsOf = async (db: OpenedEngine, id: string) => (await db.storage.links.get(id))!.tags;

forEachEngine("link tags", (db) => {
  test("tags(): each tag of the links the owner sees, in byte order, with their links and clicks (bots in clicks only)", async () => {
    await seed(db());
    const { lister } = db().storage;
    expect(await lister.tags(null)).toEqual([
      { tag: "Green", links: 1, clicks: 1, humanClicks: 1 },
      { tag: "blue", links: 1, clicks: 2, humanClicks: 1 },
      { tag: "red", links: 3, clicks: 3, humanClicks: 2 },
    ]);
    expect(await lister.tags({ keyId: 7 })).toEqual([
      { tag: "blue", links: 1, clicks: 2, humanClicks: 1 },
      { tag: "red", links: 2, clicks: 2, humanClicks: 1 },
    ]);
    expect(await lister.tags({ userId: 3 })).toEqual([
      { tag: "Green", links: 1, clicks: 1, humanClicks: 1 },
      { tag: "red", links: 1, clicks: 1, humanClicks: 1 },
    ]);
    expect(await lister.tags({ keyId: 99 })).toEqual([]);
  }, 60_000);

  test("retag(): a rename changes the tag on every link carrying it, and names those links", async () => {
    await seed(db());
    const { links } = db().storage;
    const outcome = await links.retag(["red"], "crimson");
    expect(typeof outcome === "string" ? outcome : outcome.changed.sort()).toEqual(["one", "three", "two"]);
    expect([await tagsOf(db(), "one"), await tagsOf(db(), "two"), await tagsOf(db(), "three"), await tagsOf(db(), "four")]).toEqual([["blue", "crimson"], ["crimson"], ["Green", "crimson"], []]);
    expect((await db().storage.lister.tags(null)).map((t) => t.tag)).toEqual(["Green", "blue", "crimson"]);
  }, 60_000);

  test("retag(): an unknown tag is not_found, a name some link carries taken (case counts), a rename onto itself changes nothing", async () => {
    await seed(db());
    const { links } = db().storage;
    expect(await links.retag(["purple"], "violet")).toBe("not_found");
    expect(await links.retag(["red"], "blue")).toBe("taken");
    expect(await links.retag(["red"], "red")).toEqual({ changed: [] });
    expect(await links.retag(["red"], "green")).toEqual(expect.objectContaining({ changed: expect.any(Array) }));
    expect([await tagsOf(db(), "one"), await tagsOf(db(), "three")]).toEqual([["blue", "green"], ["Green", "green"]]);
  }, 60_000);

  test("retag(): a removal takes every named tag off every link; a name no link carries is no error", async () => {
    await seed(db());
    const { links } = db().storage;
    const outcome = await links.retag(["red", "blue", "nowhere"], null);
    expect(typeof outcome === "string" ? outcome : outcome.changed.sort()).toEqual(["one", "three", "two"]);
    expect([await tagsOf(db(), "one"), await tagsOf(db(), "two"), await tagsOf(db(), "three")]).toEqual([[], [], ["Green"]]);
    expect(await links.retag(["nowhere"], null)).toEqual({ changed: [] });
  }, 60_000);

  test("retag(): each changed link writes a link.updated event of its tags, as an edit of them does", async () => {
    await seed(db());
    const events = linkEvents(createEventWants(["link.updated"]), () => null, () => NOW);
    const links = createLinkStore(db().adapters.links, db().adapters.budget, { events });
    await links.retag(["blue", "Green"], null);
    const written = await db().stored.all<{ data: string }>("SELECT data FROM events WHERE type = 'link.updated'");
    const told = written.map((e) => JSON.parse(e.data)).map((d) => [d.link.id, d.link.tags, d.changed]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(told).toEqual([["one", ["red"], ["tags"]], ["three", ["red"], ["tags"]]]);
  }, 60_000);
});
