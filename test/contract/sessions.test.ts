// Sessions (the SessionRepository port of src/auth/sessions.ts) on both engines: only hashes
// stored, a session lives 30 days after its last use (injected clock), idle ones purged.

import { expect, test } from "bun:test";
import { createSessionStore, SESSION_IDLE_MS } from "../../src/auth/sessions.ts";
import { hashSecret } from "../../src/auth/keys.ts";
import { forEachEngine } from "../support/contract-suite.ts";
import { eventually } from "../support/eventually.ts";

const T0 = Date.parse("2026-11-01T00:00:00Z");
const DAY = 86_400_000;
const KEY_HASH = hashSecret("sk_00000000000000000000000000000000");

forEachEngine("sessions", (db) => {
  const lastUsed = async () => (await db().stored.get<{ at: number }>("SELECT last_used_at AS at FROM sessions"))!.at;
  // Written in the background on PostgreSQL: the stored value, once it is the expected one.
  const settle = (expected: number) => eventually(lastUsed, (at) => at === expected, 5_000, 5);

  test("a session lives until 30 days after its last use; touching it moves that on, at most hourly", async () => {
    // The adapter's own write, counted on its way.
    const repo = db().adapters.sessions;
    let writes = 0;
    const sessions = createSessionStore({ ...repo, setLastUsed: (hash, now) => (writes++, repo.setLastUsed(hash, now)) });
    const token = await sessions.start({ keyHash: KEY_HASH }, T0);
    expect(token).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(Buffer.from((await sessions.find(token, T0 + SESSION_IDLE_MS - 1))!.keyHash!).equals(Buffer.from(KEY_HASH))).toBe(true);
    expect(await sessions.find(token, T0 + SESSION_IDLE_MS)).toBeNull();
    sessions.touch(token, (await sessions.find(token, T0 + 10 * DAY))!, T0 + 10 * DAY);
    expect(await settle(T0 + 10 * DAY)).toBe(T0 + 10 * DAY);
    sessions.touch(token, (await sessions.find(token, T0 + 10 * DAY + 60_000))!, T0 + 10 * DAY + 60_000);
    expect(writes).toBe(1); // written at most hourly
    expect(await lastUsed()).toBe(T0 + 10 * DAY);
    expect(await sessions.find(token, T0 + SESSION_IDLE_MS + DAY)).not.toBeNull();
    expect(await sessions.find(token, T0 + 10 * DAY + SESSION_IDLE_MS)).toBeNull();
  });

  test("ending a session, unknown and malformed tokens", async () => {
    const { sessions } = db().storage;
    const token = await sessions.start({ keyHash: KEY_HASH }, T0);
    await sessions.end(token);
    expect(await sessions.find(token, T0)).toBeNull();
    expect(await sessions.find("x".repeat(32), T0)).toBeNull();
    expect(await sessions.find("'; DROP TABLE sessions; --", T0)).toBeNull();
    await sessions.end("not a token");
  });

  test("only the token's hash is stored; idle sessions are purged when a new one starts", async () => {
    const { sessions } = db().storage;
    const old = await sessions.start({ keyHash: KEY_HASH }, T0);
    const token = await sessions.start({ keyHash: KEY_HASH }, T0 + SESSION_IDLE_MS + 1);
    const rows = await db().stored.all<{ token_hash: Uint8Array }>("SELECT token_hash FROM sessions");
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0]!.token_hash).equals(Buffer.from(hashSecret(token)))).toBe(true);
    const everything = JSON.stringify(await db().stored.all("SELECT * FROM sessions"));
    expect(everything.includes(token) || everything.includes(old)).toBe(false);
  });
});
