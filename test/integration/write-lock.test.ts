// A create that finds SQLite's write lock taken (by the recorder thread, a backup, another process)
// waits for it without blocking the event loop: clicks and stats keep being answered meanwhile.
// Here a second connection of the test holds the lock, on the real server's real file. On
// PostgreSQL the same holds for a lock on the links table (a migration, an operator's LOCK TABLE):
// a create waits at most lock_timeout (5 s), then the client gets a 503.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { holdWriteLock } from "../support/write-lock.ts";
import { api, makeKey } from "../support/admin.ts";

let server: RunningServer;
let clickId = "";
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  const made = await createLink(server.url, { url: "https://example.org/lock", custom_url: "lock-held" });
  expect(made.status).toBe(201);
  clickId = "lock-held";
});
afterAll(() => server.dispose());

test("a create waits for a held write lock while clicks and stats are still answered, then succeeds", async () => {
  const other = await holdWriteLock(server);
  let released = false;
  const create = createLink(server.url, { url: "https://example.org/after-lock" }).then((r) => ({ ...r, afterRelease: released }));

  // While the lock is held and the create is waiting: the event loop answers other requests.
  const answeredWhileHeld: number[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${server.url}/${clickId}`, { redirect: "manual" });
    if (!released) answeredWhileHeld.push(res.status);
  }
  const stats = await fetch(`${server.url}/api/stats?id=${clickId}`);
  expect(stats.status).toBe(200);
  // Kept: gives a create that did not wait time to finish while the lock is held (an absence, with
  // no fact to wait on: the service does not say that a write is waiting for the lock).
  await Bun.sleep(300);
  expect(answeredWhileHeld).toEqual(Array(10).fill(302));

  released = true;
  await other.release(true);
  const result = await create;
  expect(result.status).toBe(201);
  expect(result.afterRelease).toBe(true); // it did wait for the lock
  const shortUrl = String(result.body.data.shortUrl);
  expect((await fetch(shortUrl, { redirect: "manual" })).headers.get("location")).toBe("https://example.org/after-lock");
});

test("a lock held past the create's patience (5 s): a JSON 503 storage_unavailable, and the server stays up", async () => {
  const other = await holdWriteLock(server);
  try {
    const result = await createLink(server.url, { url: "https://example.org/never" });
    expect(result.status).toBe(503);
    expect(result.body).toMatchObject({ success: false, code: "storage_unavailable" });
    expect((await fetch(`${server.url}/${clickId}`, { redirect: "manual" })).status).toBe(302);
  } finally {
    await other.release(false);
  }
  expect((await createLink(server.url, { url: "https://example.org/again" })).status).toBe(201);
}, 20_000);

test("a sign-out that finds the write lock held waits for it, then ends the session (it answered 503 at once)", async () => {
  const key = makeKey(server.dbPath, "signs-out");
  const signIn = await api(server.url, null, "POST", "/api/session", { key });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
  const other = await holdWriteLock(server);
  let released = false;
  const signOut = api(server.url, null, "DELETE", "/api/session", undefined, { cookie, origin: server.url }).then((r) => ({ ...r, afterRelease: released }));
  // Kept, as above: time for a sign-out that did not wait to finish while the lock is held.
  await Bun.sleep(300);
  released = true;
  await other.release(true);
  const result = await signOut;
  expect(result.status).toBe(200);
  // PostgreSQL's held lock is on the links table, which a sign-out does not touch.
  if (server.engine === "sqlite") expect(result.afterRelease).toBe(true);
  expect((await api(server.url, null, "GET", "/api/session", undefined, { cookie })).body.data.signedIn).toBe(false);
});
