// The domains port (src/domains/repository.ts) in both engines, where links move with their domain
// (docs/several-domains.md: Renaming and removing): a new default swaps two domains' links even when
// both hold the same alias, a move or a rename never leaves an alias both live and retired, and the
// directory's read counts no link.

import { expect, test } from "bun:test";
import { DEFAULT_SETTINGS, type Domain } from "../../src/domains/domain.ts";
import { linkKey } from "../../src/domains/link-key.ts";
import { forEachEngine, NOW } from "../support/contract-suite.ts";

const domain = (name: string, isDefault = false): Domain => ({ ...DEFAULT_SETTINGS, name, isDefault, createdAt: NOW });

forEachEngine("domains", (db) => {
  test("a new default swaps the two domains' links, the same alias on both included, and their retired aliases", async () => {
    const { domains, links } = db().storage;
    await domains.add(domain("a.example", true));
    await domains.add(domain("b.example"));
    await links.create({ url: "https://one.example.net/", alias: "same" }, NOW);
    await links.create({ url: "https://two.example.net/", alias: "same", domain: "b.example" }, NOW);
    await links.create({ url: "https://two.example.net/gone", alias: "gone", domain: "b.example" }, NOW);
    expect(await links.remove(linkKey("b.example", "gone"), NOW)).toBe(true);
    const made = await domains.makeDefault("b.example");
    expect(typeof made === "object" && "name" in made ? made.isDefault : made).toBe(true);
    expect((await links.get("same"))?.url).toBe("https://two.example.net/");
    expect((await links.get(linkKey("a.example", "same")))?.url).toBe("https://one.example.net/");
    // The retired alias went with its domain: it is retired on the default now, free on a.example.
    await expect(Promise.resolve(links.create({ url: "https://x.example.net/", alias: "gone" }, NOW))).rejects.toThrow();
    expect((await links.create({ url: "https://x.example.net/", alias: "gone", domain: "a.example" }, NOW)).domain).toBe("a.example");
    const listed = await domains.settings();
    expect(listed.map((d) => [d.name, d.isDefault])).toEqual([["b.example", true], ["a.example", false]]);
  });

  test("a rename onto a name a removed domain left retired aliases under: the live link wins, never both", async () => {
    const { domains, links } = db().storage;
    await domains.add(domain("a.example", true));
    await domains.add(domain("old.example"));
    await links.create({ url: "https://old.example.net/", alias: "kept", domain: "old.example" }, NOW);
    expect(await links.remove(linkKey("old.example", "kept"), NOW)).toBe(true);
    expect(await domains.remove("old.example")).toBe("removed");
    await domains.add(domain("new.example"));
    await links.create({ url: "https://new.example.net/", alias: "kept", domain: "new.example" }, NOW);
    const renamed = await domains.rename("new.example", "old.example");
    expect(typeof renamed === "object" ? renamed.name : renamed).toBe("old.example");
    expect((await links.get(linkKey("old.example", "kept")))?.url).toBe("https://new.example.net/");
    const live = (await links.get(linkKey("old.example", "kept")))!.seq;
    const retired = async () => (await db().stored.all<{ seq: number }>("SELECT seq FROM retired_ids WHERE domain = 'old.example' AND id = 'kept'")).map((r) => Number(r.seq));
    expect(await retired()).toEqual([]);
    // Deleting it retires it under its own seq, which its events name.
    expect(await links.remove(linkKey("old.example", "kept"), NOW)).toBe(true);
    expect(await retired()).toEqual([live]);
  });
});
