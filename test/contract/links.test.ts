// The links port (LinkRepository and ClickBudget of src/links/store.ts) on both engines, through
// the domain's link store: what a click is let through to, click limits, edits seen by the next
// click, deletion that clears every table of the link and retires its id for ever.

import { expect, test } from "bun:test";
import { ID_ALPHABET } from "../../src/links/id.ts";
import { createLinkStore } from "../../src/links/store.ts";
import { LINK_DATA_TABLES } from "../../src/db/shared/tables.ts";
import { countFor, forEachEngine, NOW, visit } from "../support/contract-suite.ts";

forEachEngine("links: admit", (db) => {
  test("a plain link: its URL, with no rules to check; an unknown id: null", async () => {
    const { links } = db().storage;
    const plain = await links.create({ url: "https://example.com/", alias: "plain" }, NOW);
    expect(await links.admit("plain", true, NOW)).toEqual({ seq: plain.seq, url: "https://example.com/", rules: null, route: null, card: null });
    expect(await links.admit("nope", true, NOW)).toBeNull();
  });

  test("a link read from the database (not cached) admits the same; SQLite answers without a promise", async () => {
    const fresh = await db().storage.links.create({ url: "https://example.com/x", alias: "fresh", expiresAt: NOW + 1000 }, NOW);
    const restarted = (await db().reopen()).storage.links; // an empty cache
    const miss = restarted.admit("fresh", true, NOW);
    expect(await miss).toEqual({
      seq: fresh.seq,
      url: "https://example.com/x",
      route: null,
      card: null,
      rules: { gone: null, expiresAt: NOW + 1000, maxClicks: null, clicks: 0, validFrom: null, expired: { gone: "expired" } },
    });
    const hit = restarted.admit("fresh", true, NOW);
    expect(await hit).toEqual(await miss);
    expect(restarted.cacheStats()).toEqual({ hits: 1, misses: 1 });
    // SQLite keeps the click path synchronous: neither a miss nor a hit makes a promise.
    expect(miss instanceof Promise).toBe(db().engine !== "sqlite");
    expect(hit instanceof Promise).toBe(false);
  });

  test("expiry at the boundary (injected clock): let through until the instant, gone from it", async () => {
    const { links } = db().storage;
    await links.create({ url: "https://example.com/", alias: "timed", expiresAt: NOW + 1000 }, NOW);
    expect(await links.admit("timed", true, NOW + 999)).toMatchObject({ url: "https://example.com/" });
    expect(await links.admit("timed", true, NOW + 1000)).toEqual({ gone: "expired" });
    expect(await links.admit("timed", false, NOW + 5000)).toEqual({ gone: "expired" });
  });

  test("max_clicks: exactly that many clicks are let through; HEAD (click=false) does not count", async () => {
    const { links } = db().storage;
    await links.create({ url: "https://example.com/", alias: "three", maxClicks: 3 }, NOW);
    for (let i = 0; i < 5; i++) expect(await links.admit("three", false, NOW)).toMatchObject({ url: "https://example.com/" });
    const verdicts = [];
    for (let i = 0; i < 10; i++) verdicts.push("gone" in (await links.admit("three", true, NOW))! ? "410" : "302");
    expect(verdicts).toEqual(["302", "302", "302", "410", "410", "410", "410", "410", "410", "410"]);
    expect(links.clicksAnswered("three")).toBe(3);
  });

  test("max_clicks holds for clicks arriving at once", async () => {
    const { links } = db().storage;
    await links.create({ url: "https://example.com/", alias: "rush", maxClicks: 7 }, NOW);
    const verdicts = await Promise.all(Array.from({ length: 40 }, () => links.admit("rush", true, NOW)));
    expect(verdicts.filter((v) => v !== null && !("gone" in v))).toHaveLength(7);
  });

  test("the click budget starts from the clicks already recorded (a restart does not reset it)", async () => {
    const budget = await db().storage.links.create({ url: "https://example.com/", alias: "budget", maxClicks: 5 }, NOW);
    for (let i = 0; i < 4; i++) db().writer.record(visit(budget));
    await db().writer.flush();
    const restarted = (await db().reopen()).storage.links; // a new process: empty cache and budget
    expect(await restarted.admit("budget", true, NOW)).toMatchObject({ url: "https://example.com/" });
    expect(await restarted.admit("budget", true, NOW)).toEqual({ gone: "expired" });
  });

  test("disable, edit and re-enable: the next admit sees each change", async () => {
    const { links } = db().storage;
    await links.create({ url: "https://example.com/old", alias: "edit" }, NOW);
    expect(await links.admit("edit", true, NOW)).toMatchObject({ url: "https://example.com/old" });
    await links.update("edit", { disabled: true });
    expect(await links.admit("edit", true, NOW)).toEqual({ gone: "disabled" });
    await links.update("edit", { disabled: false, url: "https://example.com/new" });
    expect(await links.admit("edit", true, NOW)).toMatchObject({ url: "https://example.com/new" });
    await links.update("edit", { maxClicks: 1 });
    expect(await links.admit("edit", true, NOW)).toMatchObject({ url: "https://example.com/new" });
    expect(await links.admit("edit", true, NOW)).toEqual({ gone: "expired" });
    await links.update("edit", { maxClicks: null }); // the count is kept, the limit is gone
    expect(await links.admit("edit", true, NOW)).toMatchObject({ url: "https://example.com/new" });
  });

  test("a click limit cleared and set again counts every click since (the recorded total), not the old count", async () => {
    const { links } = db().storage;
    const again = await links.create({ url: "https://example.com/", alias: "again", maxClicks: 2 }, NOW);
    expect(await links.admit("again", true, NOW)).toMatchObject({ url: "https://example.com/" });
    expect(await links.admit("again", true, NOW)).toMatchObject({ url: "https://example.com/" });
    await links.update("again", { maxClicks: null });
    for (let i = 0; i < 12; i++) {
      expect(await links.admit("again", true, NOW)).toMatchObject({ url: "https://example.com/" }); // unlimited now
      db().writer.record(visit(again));
    }
    await db().writer.flush(); // 12 clicks recorded (the first 2 never reached this writer: 12 is the total)
    await links.update("again", { maxClicks: 5 });
    expect(await links.admit("again", true, NOW)).toEqual({ gone: "expired" });
  });

  test("editing a blocked link's destination to an allowed one lifts the block at once", async () => {
    const { links } = db().storage;
    const link = await links.create({ url: "https://bad.example/", alias: "reformed" }, NOW);
    await links.setBlocked([link.seq], []);
    expect(await links.admit("reformed", true, NOW)).toEqual({ gone: "blocked" });
    await links.update("reformed", { url: "https://good.example/" }); // it passed the blocklist to get here
    expect(await links.admit("reformed", true, NOW)).toMatchObject({ url: "https://good.example/" });
    expect((await links.get("reformed"))?.blocked).toBe(false);
  });

  test("a blocked link is gone until the blocklist no longer matches it", async () => {
    const { links } = db().storage;
    const link = await links.create({ url: "https://example.com/", alias: "blk" }, NOW);
    expect(await links.admit("blk", true, NOW)).toMatchObject({ url: "https://example.com/" });
    await links.setBlocked([link.seq], []);
    expect(await links.admit("blk", true, NOW)).toEqual({ gone: "blocked" });
    expect((await links.get("blk"))?.blocked).toBe(true);
    await links.setBlocked([], [link.seq]);
    expect(await links.admit("blk", true, NOW)).toMatchObject({ url: "https://example.com/" });
    const walked = [];
    for await (const d of links.destinations()) walked.push(d);
    expect(walked).toEqual([{ seq: link.seq, url: "https://example.com/", blocked: false, also: [] }]);
  });

  test("behaviour: stored, read back, changed and cleared the same way; the blocklist walk sees every URL a link can send to", async () => {
    const { links } = db().storage;
    const rules = [
      { conditions: [{ type: "device" as const, value: "mobile" as const }], url: "https://m.example.com/" },
      { conditions: [{ type: "query" as const, key: "v" }], variants: [{ url: "https://a.example/", weight: 1 }, { url: "https://b.example/", weight: 3 }] },
    ];
    const behaviour = {
      rules, variants: [{ url: "https://c.example/", weight: 2 }, { url: "https://d.example/", weight: 5 }], passwordHash: await Bun.password.hash("pw", { algorithm: "argon2id" }),
      redirectType: 307 as const, validFrom: NOW - 1000, fallbackUrl: "https://example.com/fallback", crawlable: true,
    };
    await links.create({ url: "https://example.com/ruled", alias: "ruled", ...behaviour }, NOW);
    const restarted = (await db().reopen()).storage.links;
    expect(await restarted.get("ruled")).toMatchObject(behaviour);
    const target = await restarted.admit("ruled", true, NOW);
    expect(target).toMatchObject({ url: "https://example.com/ruled", route: { status: 307, passwordHash: behaviour.passwordHash } });
    expect(await restarted.crawlable()).toEqual(["ruled"]);
    const walked = [];
    for await (const d of restarted.destinations()) walked.push(d);
    expect(walked[0]!.also.sort()).toEqual(["https://a.example/", "https://b.example/", "https://c.example/", "https://d.example/", "https://example.com/fallback", "https://m.example.com/"]);
    // Cleared: a plain link again, with no route on its clicks.
    await restarted.update("ruled", { rules: null, variants: null, passwordHash: null, redirectType: 302, validFrom: null, fallbackUrl: null, crawlable: false });
    expect(await restarted.get("ruled")).toMatchObject({ rules: null, variants: null, passwordHash: null, redirectType: 302, validFrom: null, fallbackUrl: null, crawlable: false });
    expect(await restarted.admit("ruled", true, NOW)).toEqual({ seq: (await restarted.get("ruled"))!.seq, url: "https://example.com/ruled", rules: null, route: null, card: null });
    expect(await restarted.crawlable()).toEqual([]);
  });

  test("validFrom: before it a link is like an unknown id; a fallback answers for expired and disabled, never for blocked", async () => {
    const { links } = db().storage;
    await links.create({ url: "https://example.com/later", alias: "later", validFrom: NOW + 60_000 }, NOW);
    expect(await links.admit("later", true, NOW)).toBeNull();
    expect(await links.admit("later", true, NOW + 60_000)).toMatchObject({ url: "https://example.com/later" });
    const fb = await links.create({ url: "https://example.com/fb", alias: "fallen", fallbackUrl: "https://example.com/else", maxClicks: 1 }, NOW);
    expect(await links.admit("fallen", true, NOW)).toMatchObject({ url: "https://example.com/fb" });
    // The fallback's visitors are recorded under the link's seq (src/http/redirect.ts): the verdict carries it.
    expect(await links.admit("fallen", true, NOW)).toEqual({ gone: "expired", fallback: "https://example.com/else", seq: fb.seq });
    await links.update("fallen", { disabled: true });
    expect(await links.admit("fallen", true, NOW)).toEqual({ gone: "disabled", fallback: "https://example.com/else", seq: fb.seq });
    await links.setBlocked([fb.seq], []);
    expect(await links.admit("fallen", true, NOW)).toEqual({ gone: "blocked" });
  });

  test("a change made by another process is seen once it is told (forget), not before", async () => {
    const { links } = db().storage;
    await links.create({ url: "https://example.com/one", alias: "moved" }, NOW);
    expect(await links.admit("moved", true, NOW)).toMatchObject({ url: "https://example.com/one" });
    const other = (await db().reopen()).storage.links;
    await other.update("moved", { url: "https://example.com/two" });
    // PostgreSQL tells every instance by itself (NOTIFY); the cache is dropped by forget() either way.
    links.forget("moved");
    expect(await links.admit("moved", true, NOW)).toMatchObject({ url: "https://example.com/two" });
  });
});

forEachEngine("links: delete", (db) => {
  test("removes the link, its rows in every link table and its tags; the id answers gone and is retired", async () => {
    const { links } = db().storage;
    // Brought by an import, so that their rows in import_links (what the import remembers) are there too.
    const imported = (id: string, tags: string[]) => ({ key: id, id, createdAt: NOW, disabled: false, link: { url: "https://example.com/", alias: id, tags } });
    expect(await db().storage.imports.addLinks("test import", [imported("doomed", ["a", "b"]), imported("kept", [])])).toEqual([]);
    const [doomed, kept] = [(await links.get("doomed"))!, (await links.get("kept"))!];
    for (const link of [doomed, kept]) db().writer.record(visit(link, { utmSource: "x" }));
    // And a share link each (docs/statistics.md: Sharing statistics): the delete takes the doomed one's.
    for (const link of [doomed, kept]) await db().storage.shares.create({ linkSeq: link.seq, label: "", expiresAt: null }, NOW);
    await db().writer.flush();
    for (const table of LINK_DATA_TABLES) expect(await countFor(db(), table, doomed.seq)).toBeGreaterThan(0);
    expect(await links.remove("doomed", NOW)).toBe(true);
    for (const table of LINK_DATA_TABLES) {
      expect(await countFor(db(), table, doomed.seq)).toBe(0);
      expect(await countFor(db(), table, kept.seq)).toBeGreaterThan(0);
    }
    expect((await db().stored.get<{ n: number }>("SELECT COUNT(*) AS n FROM link_tags"))!.n).toBe(0);
    expect(await links.get("doomed")).toBeNull();
    expect(await links.admit("doomed", true, NOW)).toEqual({ gone: "deleted" });
    expect(await (await db().reopen()).storage.links.admit("doomed", true, NOW)).toEqual({ gone: "deleted" }); // after a restart too
    expect(async () => await links.create({ url: "https://example.com/new", alias: "doomed" }, NOW)).toThrow(/doomed/);
    expect(await links.remove("doomed", NOW)).toBe(false);
  });

  test("clicks still queued for a deleted link are not written back", async () => {
    const { links } = db().storage;
    const late = await links.create({ url: "https://example.com/", alias: "late" }, NOW);
    db().writer.record(visit(late));
    await links.remove("late", NOW);
    db().writer.record(visit(late));
    await db().writer.flush();
    expect(db().writer.stats()).toMatchObject({ written: 0, discarded: 2 });
    expect((await db().stored.get<{ n: number }>("SELECT COUNT(*) AS n FROM daily_rollup"))!.n).toBe(0);
  });

  test("the generator never hands out a retired id: it draws again", async () => {
    // Random bytes that spell "2222222" first, then "3333333".
    const queue = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    let calls = 0;
    const scripted = (n: number) => {
      calls++;
      return Uint8Array.from({ length: n }, () => queue.shift() ?? 2);
    };
    const links = createLinkStore(db().adapters.links, db().adapters.budget, { random: scripted });
    expect(ID_ALPHABET[0]).toBe("2");
    const first = await links.create({ url: "https://example.com/1" }, NOW);
    expect(first.id).toBe("2222222");
    await links.remove("2222222", NOW);
    queue.unshift(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0); // the retired id again
    const second = await links.create({ url: "https://example.com/2" }, NOW);
    expect(second.id).toBe("3333333");
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  test("a taken generated id is drawn again; an alias taken or retired is refused by name", async () => {
    const { links } = db().storage;
    await links.create({ url: "https://example.com/", alias: "2222222" }, NOW);
    const queue = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2];
    const scripted = (n: number) => Uint8Array.from({ length: n }, () => queue.shift() ?? 3);
    const generated = await createLinkStore(db().adapters.links, db().adapters.budget, { random: scripted }).create({ url: "https://example.com/g" }, NOW);
    expect(generated.id).toBe("4444444");
    expect(async () => await links.create({ url: "https://example.com/", alias: "2222222" }, NOW)).toThrow(/2222222/);
  });
});

forEachEngine("links: create and read", (db) => {
  test("create returns exactly what a read of the row gives (it is built, not read back)", async () => {
    const { links } = db().storage;
    const made = [
      await links.create({ url: "https://example.com/a", alias: "full", ownerKeyId: 3, expiresAt: NOW + 5, maxClicks: 4, tags: ["zeta", "alpha", "zeta"] }, NOW),
      await links.create({ url: "https://example.com/b" }, NOW + 1),
    ];
    for (const link of made) expect(await links.get(link.id)).toEqual(link);
    expect(made[0]!.tags).toEqual(["alpha", "zeta"]);
  });

  test("an update maps each field (and the tags) and answers the link; an unknown id answers null", async () => {
    const { links } = db().storage;
    await links.create({ url: "https://example.com/a", alias: "mapped", tags: ["old"] }, NOW);
    const changed = await links.update("mapped", { url: "https://example.com/b", expiresAt: NOW + 60_000, maxClicks: 9, disabled: true, tags: ["b", "a"] });
    expect(changed).toMatchObject({ id: "mapped", url: "https://example.com/b", expiresAt: NOW + 60_000, maxClicks: 9, disabled: true, tags: ["a", "b"] });
    expect(await links.get("mapped")).toEqual(changed);
    const cleared = await links.update("mapped", { expiresAt: null, maxClicks: null, disabled: false, tags: [] });
    expect(cleared).toMatchObject({ expiresAt: null, maxClicks: null, disabled: false, tags: [] });
    expect(await links.update("unknown", { disabled: true })).toBeNull();
    expect(await links.get("no such id!")).toBeNull(); // not even the shape of an id
  });

  test("the recorder keeps total, human and last-click figures on the link", async () => {
    const { links } = db().storage;
    const tot = await links.create({ url: "https://example.com/", alias: "tot" }, NOW);
    db().writer.record(visit(tot, { ts: NOW + 10 }));
    db().writer.record(visit(tot, { ts: NOW + 30, isBot: true }));
    db().writer.record(visit(tot, { ts: NOW + 20 }));
    await db().writer.flush();
    expect(await links.get("tot")).toMatchObject({ totalClicks: 3, humanClicks: 2, lastClickAt: NOW + 30 });
  });
});

// An import's slice (src/ops/links/import.ts): many links, one transaction (docs/performance.md:
// Imports and clicks).
forEachEngine("links: createAll", (db) => {
  test("each link as create would make it, in order; an alias taken (before, or earlier in the slice) or retired is refused alone", async () => {
    const { links } = db().storage;
    await links.create({ url: "https://example.com/old", alias: "before" }, NOW);
    await links.create({ url: "https://example.com/gone", alias: "gone" }, NOW);
    await links.remove("gone", NOW);
    const outcomes = await links.createAll(
      [
        { url: "https://example.com/1", alias: "first", tags: ["b", "a"] },
        { url: "https://example.com/2", alias: "before" },
        { url: "https://example.com/3" },
        { url: "https://example.com/4", alias: "first" },
        { url: "https://example.com/5", alias: "gone" },
        { url: "https://example.com/6", maxClicks: 2 },
      ],
      NOW,
    );
    expect(outcomes.map((o) => (typeof o === "string" ? o : o.url))).toEqual(["https://example.com/1", "taken", "https://example.com/3", "taken", "retired", "https://example.com/6"]);
    for (const made of outcomes) if (typeof made !== "string") expect(await links.get(made.id)).toEqual(made);
    expect(outcomes[0]).toMatchObject({ id: "first", tags: ["a", "b"], createdAt: NOW });
    expect(await links.admit("before", true, NOW)).toMatchObject({ url: "https://example.com/old" });
    const restarted = (await db().reopen()).storage.links; // committed, not only cached
    expect(await restarted.admit((outcomes[2] as { id: string }).id, true, NOW)).toMatchObject({ url: "https://example.com/3" });
  });

  test("one transaction: a storage failure on a later link leaves none of the slice written", async () => {
    const { links } = db().storage;
    // A NULL url breaks the table's NOT NULL: a failure of the storage, not a refusal.
    const broken = { url: null as unknown as string, alias: "broken" };
    await expect(Promise.resolve().then(() => links.createAll([{ url: "https://example.com/a", alias: "sliced" }, broken], NOW))).rejects.toThrow();
    expect(await links.get("sliced")).toBeNull();
    expect(await links.admit("sliced", true, NOW)).toBeNull();
    expect(await links.createAll([{ url: "https://example.com/a", alias: "sliced" }], NOW)).toMatchObject([{ id: "sliced" }]);
  });
});
