// Sessions on a real SQLite file: only hashes stored, 30 days after the last use (injected clock).

import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createSessionStore, SESSION_IDLE_MS } from "../../src/auth/sessions.ts";
import { hashSecret } from "../../src/auth/keys.ts";
import { tempDatabase, type TempDb } from "../support/db.ts";

const T0 = Date.parse("2026-11-01T00:00:00Z");
const KEY_HASH = hashSecret("sk_00000000000000000000000000000000");
let t: TempDb;
afterEach(() => t?.dispose());

test("a session lives until 30 days after its last use; touching it moves that on", () => {
  t = tempDatabase();
  const sessions = createSessionStore(t.db);
  const token = sessions.start(KEY_HASH, T0);
  expect(token).toMatch(/^[0-9A-Za-z]{32}$/);
  expect(sessions.find(token, T0 + SESSION_IDLE_MS - 1)?.keyHash).toEqual(KEY_HASH);
  expect(sessions.find(token, T0 + SESSION_IDLE_MS)).toBeNull();
  const lastUsed = () => (t.db.query("SELECT last_used_at AS at FROM sessions").get() as { at: number }).at;
  sessions.touch(token, sessions.find(token, T0 + 10 * 86_400_000)!, T0 + 10 * 86_400_000);
  expect(lastUsed()).toBe(T0 + 10 * 86_400_000);
  sessions.touch(token, sessions.find(token, T0 + 10 * 86_400_000 + 60_000)!, T0 + 10 * 86_400_000 + 60_000);
  expect(lastUsed()).toBe(T0 + 10 * 86_400_000); // written at most hourly
  expect(sessions.find(token, T0 + SESSION_IDLE_MS + 86_400_000)).not.toBeNull();
  expect(sessions.find(token, T0 + 10 * 86_400_000 + SESSION_IDLE_MS)).toBeNull();
});

test("ending a session, unknown and malformed tokens", () => {
  t = tempDatabase();
  const sessions = createSessionStore(t.db);
  const token = sessions.start(KEY_HASH, T0);
  sessions.end(token);
  expect(sessions.find(token, T0)).toBeNull();
  expect(sessions.find("x".repeat(32), T0)).toBeNull();
  expect(sessions.find("'; DROP TABLE sessions; --", T0)).toBeNull();
  sessions.end("not a token");
});

test("only the token's hash is stored; idle sessions are purged when a new one starts", () => {
  t = tempDatabase();
  const sessions = createSessionStore(t.db);
  const old = sessions.start(KEY_HASH, T0);
  const token = sessions.start(KEY_HASH, T0 + SESSION_IDLE_MS + 1);
  expect((t.db.query("SELECT COUNT(*) AS n FROM sessions").get() as { n: number }).n).toBe(1);
  t.db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  const bytes = readFileSync(t.path);
  expect(bytes.includes(Buffer.from(token))).toBe(false);
  expect(bytes.includes(Buffer.from(old))).toBe(false);
});
