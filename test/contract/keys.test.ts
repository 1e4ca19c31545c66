// API keys (the KeyRepository port of src/auth/keys.ts) on both engines: only the hash stored,
// lookup by hash, unique names among keys in use, revocation, "last used" at most once a minute.

import { expect, test } from "bun:test";
import { generateKey, hashSecret, KeyNameTakenError } from "../../src/auth/keys.ts";
import { forEachEngine } from "../support/contract-suite.ts";
import { eventually } from "../support/eventually.ts";

test("keys are sk_ and 32 base62 characters (over 128 random bits), all different", () => {
  const keys = new Set(Array.from({ length: 1000 }, () => generateKey()));
  expect(keys.size).toBe(1000);
  for (const k of keys) expect(k).toMatch(/^sk_[0-9A-Za-z]{32}$/);
  expect(32 * Math.log2(62)).toBeGreaterThan(128);
});

forEachEngine("keys", (db) => {
  test("the database holds the key's hash, never the key; find() looks it up by hash", async () => {
    const { keys } = db().storage;
    const { key, record } = await keys.create("ci", "create", 1000);
    expect(record).toMatchObject({ name: "ci", scope: "create", createdAt: 1000, lastUsedAt: null, revokedAt: null });
    expect(await keys.find(key)).toMatchObject({ id: record.id, name: "ci", scope: "create" });
    expect(await keys.findByHash(hashSecret(key))).toEqual(record);
    expect(await keys.find(key.slice(0, -1) + (key.endsWith("a") ? "b" : "a"))).toBeNull();
    expect(await keys.find("not-a-key")).toBeNull();
    const rows = await db().stored.all<{ hash: Uint8Array; name: string }>("SELECT hash, name FROM api_keys");
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0]!.hash).equals(Buffer.from(hashSecret(key)))).toBe(true);
    const everything = JSON.stringify(await db().stored.all("SELECT * FROM api_keys"));
    expect(everything.includes(key.slice(3))).toBe(false);
  });

  test("a revoked key is no longer found; its name can be given to a new key; names in use are unique", async () => {
    const { keys } = db().storage;
    const { key } = await keys.create("deploy", "admin", 1);
    expect(async () => await keys.create("deploy", "admin", 2)).toThrow(KeyNameTakenError);
    expect(await keys.revoke("deploy", 3)).toBe(true);
    expect(await keys.revoke("deploy", 4)).toBe(false);
    expect(await keys.find(key)).toBeNull();
    const again = await keys.create("deploy", "create", 5);
    expect((await keys.find(again.key))?.scope).toBe("create");
    expect((await keys.list()).map((k) => [k.name, k.revokedAt])).toEqual([["deploy", 3], ["deploy", null]]);
  });

  test("last use is written at most once a minute per key, without the caller waiting for it", async () => {
    const { keys } = db().storage;
    const { record } = await keys.create("k", "admin", 0);
    const lastUsed = async () => (await db().stored.get<{ at: number | null }>("SELECT last_used_at AS at FROM api_keys"))!.at;
    // PostgreSQL writes it in the background: the stored value, once it is the expected one.
    const settle = (expected: number) => eventually(lastUsed, (at) => at === expected, 5_000, 5);
    keys.touch(record.id, 100_000);
    expect(await settle(100_000)).toBe(100_000);
    keys.touch(record.id, 130_000);
    keys.touch(record.id, 160_001);
    expect(await settle(160_001)).toBe(160_001);
    expect((await keys.list())[0]!.lastUsedAt).toBe(160_001);
  });
});
