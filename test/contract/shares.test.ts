// Share links (the ShareRepository port of src/stats/shares.ts) on both engines: only the token's
// hash stored, found by hash, expired and revoked ones open nothing, a link's delete takes its
// shares, "last used" at most once a minute without the caller waiting.

import { expect, test } from "bun:test";
import { hashSecret } from "../../src/auth/keys.ts";
import { generateShareToken } from "../../src/stats/shares.ts";
import { countFor, forEachEngine, NOW } from "../support/contract-suite.ts";
import { eventually } from "../support/eventually.ts";

test("tokens are 43 base64url characters (256 random bits), all different", () => {
  const tokens = new Set(Array.from({ length: 1000 }, () => generateShareToken()));
  expect(tokens.size).toBe(1000);
  for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
});

forEachEngine("shares", (db) => {
  test("the database holds the token's hash, never the token; open() finds the share and its link's key", async () => {
    const { links, shares } = db().storage;
    const link = await links.create({ url: "https://example.com/", alias: "shared-one" }, NOW);
    const { token, share } = await shares.create({ linkSeq: link.seq, label: "board", expiresAt: null }, NOW);
    expect(share).toMatchObject({ linkSeq: link.seq, label: "board", createdAt: NOW, expiresAt: null, lastUsedAt: null });
    expect(await shares.open(token, NOW)).toEqual({ share, linkKey: "shared-one" });
    expect(await shares.open(token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"), NOW)).toBeNull();
    expect(await shares.open("", NOW)).toBeNull();
    const rows = await db().stored.all<{ token_hash: Uint8Array }>("SELECT token_hash FROM link_shares");
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0]!.token_hash).equals(Buffer.from(hashSecret(token)))).toBe(true);
    expect(JSON.stringify(await db().stored.all("SELECT * FROM link_shares")).includes(token)).toBe(false);
  });

  test("an expired share opens nothing; a revoked one neither, and only its own link's id revokes it", async () => {
    const { links, shares } = db().storage;
    const a = await links.create({ url: "https://example.com/a", alias: "share-a" }, NOW);
    const b = await links.create({ url: "https://example.com/b", alias: "share-b" }, NOW);
    const timed = await shares.create({ linkSeq: a.seq, label: "", expiresAt: NOW + 1000 }, NOW);
    expect(await shares.open(timed.token, NOW + 999)).not.toBeNull();
    expect(await shares.open(timed.token, NOW + 1000)).toBeNull();
    const kept = await shares.create({ linkSeq: a.seq, label: "kept", expiresAt: null }, NOW + 1);
    expect(await shares.revoke(b.seq, kept.share.id)).toBe(false);
    expect(await shares.open(kept.token, NOW)).not.toBeNull();
    expect((await shares.list(a.seq)).map((s) => s.label)).toEqual(["", "kept"]);
    expect(await shares.revoke(a.seq, kept.share.id)).toBe(true);
    expect(await shares.revoke(a.seq, kept.share.id)).toBe(false);
    expect(await shares.open(kept.token, NOW)).toBeNull();
    expect((await shares.list(a.seq)).map((s) => s.id)).toEqual([timed.share.id]);
    expect(await shares.list(b.seq)).toEqual([]);
  });

  test("deleting a link deletes its shares; a new link under the alias inherits none", async () => {
    const { links, shares } = db().storage;
    const link = await links.create({ url: "https://example.com/", alias: "gone-soon" }, NOW);
    const { token } = await shares.create({ linkSeq: link.seq, label: "", expiresAt: null }, NOW);
    expect(await links.remove("gone-soon", NOW)).toBe(true);
    expect(await countFor(db(), "link_shares", link.seq)).toBe(0);
    expect(await shares.open(token, NOW)).toBeNull();
  });

  test("last use is written at most once a minute per share, without the caller waiting for it", async () => {
    const { links, shares } = db().storage;
    const link = await links.create({ url: "https://example.com/", alias: "used" }, NOW);
    const { share } = await shares.create({ linkSeq: link.seq, label: "", expiresAt: null }, NOW);
    const lastUsed = async () => (await db().stored.get<{ at: number | null }>("SELECT last_used_at AS at FROM link_shares"))!.at;
    const settle = (expected: number) => eventually(lastUsed, (at) => at === expected, 5_000, 5);
    shares.touch(share.id, 100_000);
    expect(await settle(100_000)).toBe(100_000);
    shares.touch(share.id, 130_000);
    shares.touch(share.id, 160_001);
    expect(await settle(160_001)).toBe(160_001);
    expect((await shares.list(link.seq))[0]!.lastUsedAt).toBe(160_001);
  });
});
