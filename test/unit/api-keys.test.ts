// API keys on a real SQLite file: format, only the hash stored, lookup by hash, revocation.

import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createKeyStore, generateKey, hashSecret, KeyNameTakenError } from "../../src/auth/keys.ts";
import { tempDatabase, type TempDb } from "../support/db.ts";

let t: TempDb;
afterEach(() => t?.dispose());

test("keys are sk_ and 32 base62 characters (over 128 random bits), all different", () => {
  const keys = new Set(Array.from({ length: 1000 }, () => generateKey()));
  expect(keys.size).toBe(1000);
  for (const k of keys) expect(k).toMatch(/^sk_[0-9A-Za-z]{32}$/);
  expect(32 * Math.log2(62)).toBeGreaterThan(128);
});

test("the database holds the key's hash, never the key; find() looks it up by hash", () => {
  t = tempDatabase();
  const store = createKeyStore(t.db);
  const { key, record } = store.create("ci", "create", 1000);
  expect(record).toMatchObject({ name: "ci", scope: "create", createdAt: 1000, lastUsedAt: null, revokedAt: null });
  expect(store.find(key)).toMatchObject({ id: record.id, name: "ci", scope: "create" });
  expect(store.find(key.slice(0, -1) + (key.endsWith("a") ? "b" : "a"))).toBeNull();
  expect(store.find("not-a-key")).toBeNull();
  const row = t.db.query("SELECT hash FROM api_keys").get() as { hash: Uint8Array };
  expect(Buffer.from(row.hash).equals(Buffer.from(hashSecret(key)))).toBe(true);
  t.db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  expect(readFileSync(t.path).includes(Buffer.from(key.slice(3)))).toBe(false);
});

test("a revoked key is no longer found; its name can be given to a new key; names in use are unique", () => {
  t = tempDatabase();
  const store = createKeyStore(t.db);
  const { key } = store.create("deploy", "admin", 1);
  expect(() => store.create("deploy", "admin", 2)).toThrow(KeyNameTakenError);
  expect(store.revoke("deploy", 3)).toBe(true);
  expect(store.revoke("deploy", 4)).toBe(false);
  expect(store.find(key)).toBeNull();
  const again = store.create("deploy", "create", 5);
  expect(store.find(again.key)?.scope).toBe("create");
  expect(store.list().map((k) => [k.name, k.revokedAt])).toEqual([["deploy", 3], ["deploy", null]]);
});

test("last use is written at most once a minute per key", () => {
  t = tempDatabase();
  const store = createKeyStore(t.db);
  const { record } = store.create("k", "admin", 0);
  store.touch(record.id, 100_000);
  store.touch(record.id, 130_000);
  expect(store.list()[0]!.lastUsedAt).toBe(100_000);
  store.touch(record.id, 160_001);
  expect(store.list()[0]!.lastUsedAt).toBe(160_001);
});
