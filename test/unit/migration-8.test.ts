// Migration 8 on a file of the previous release: the sessions of pasted keys stay signed in (the
// table is rebuilt so a session may belong to a user instead), keys and links keep what they had
// and belong to no user.

import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../../src/db/sqlite/schema.ts";
import { sqliteSessions } from "../../src/db/sqlite/sessions.ts";
import { hashSecret } from "../../src/auth/keys.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("schema 7 → 8: a key's session survives and reads as the key's; a row of both or neither owner is refused", () => {
  dir = mkdtempSync(join(tmpdir(), "shortener-m8-"));
  const path = join(dir, "s.db");
  const v7 = new Database(path, { create: true, strict: true });
  migrate(v7, 7);
  const token = hashSecret("session-token");
  const key = hashSecret("sk_key");
  v7.query("INSERT INTO sessions (token_hash, key_hash, created_at, last_used_at) VALUES (?, ?, 1000, 2000)").run(token, key);
  v7.run("INSERT INTO api_keys (name, scope, hash, created_at) VALUES ('ops', 'admin', x'01', 1000)");
  v7.run("INSERT INTO links (id, url, created_at, owner_key_id) VALUES ('old', 'https://example.com/', 1000, 1)");
  v7.close();

  const db = new Database(path, { strict: true });
  migrate(db, 8);
  const found = sqliteSessions(db).find(token, 0);
  expect(found).toEqual({ keyHash: expect.any(Uint8Array), createdAt: 1000, lastUsedAt: 2000 });
  expect(Buffer.from(found!.keyHash!).equals(Buffer.from(key))).toBe(true);
  expect(db.query("SELECT user_id FROM api_keys").get()).toEqual({ user_id: null });
  expect(db.query("SELECT owner_key_id, owner_user_id FROM links").get()).toEqual({ owner_key_id: 1, owner_user_id: null });
  expect(() => db.query("INSERT INTO sessions (token_hash, key_hash, user_id, created_at, last_used_at) VALUES (x'02', x'03', 1, 0, 0)").run()).toThrow(/CHECK/);
  expect(() => db.query("INSERT INTO sessions (token_hash, created_at, last_used_at) VALUES (x'04', 0, 0)").run()).toThrow(/CHECK/);
  db.close();
});
