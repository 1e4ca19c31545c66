// The disk refusing writes. How it is made real without flakiness: the database lives on its own
// small tmpfs (`mount -t tmpfs -o size=1m`, root only), which a filler file then fills to ENOSPC,
// and deleting the filler is "the disk recovers". SQLite sees a genuine SQLITE_FULL.
// Not possible this way: a read-only database *at run time* — `mount -o remount,ro` is refused
// while the service holds the file open for writing, and chmod does not affect an open descriptor.
// That case is covered below by SQLite's real SQLITE_READONLY on a read-only connection (unit
// level) and by a database on a read-only bind mount at start (integration).

import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLink, onPostgres, startServer, type RunningServer } from "../support/server.ts";
import { click, waitForClicks } from "../support/clicks.ts";
import { api, makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import { sqliteLinks } from "../../src/db/sqlite/links.ts";
import { createLinkStore, localClickBudget } from "../../src/links/store.ts";
import { createLink as createLinkDirect } from "../../src/links/create.ts";
import { storageUnavailable } from "../../src/http/storage-failure.ts";
import { createLogger } from "../../src/log.ts";

function tryMount(args: string[]): boolean {
  try {
    execFileSync("mount", args, { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

const mountDir = mkdtempSync(join(tmpdir(), "shortener-full-"));
const mounted = tryMount(["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountDir]);
afterAll(() => {
  if (mounted) execFileSync("umount", ["-l", mountDir]);
  rmSync(mountDir, { recursive: true, force: true });
});

/** Writes a file until the filesystem says ENOSPC. */
function fill(path: string): void {
  const fd = openSync(path, "w");
  const block = Buffer.alloc(16 * 1024, 7);
  try {
    for (;;) writeSync(fd, block);
  } catch (err) {
    if ((err as { code?: string }).code !== "ENOSPC") throw err;
  } finally {
    closeSync(fd);
  }
}

const within10s = <T,>(probe: () => Promise<T>, ok: (v: T) => boolean) => eventually(probe, ok, 10_000, 50);

// SQLite's own file on a disk: on PostgreSQL the server's disk is the server's (postgres-outage.test.ts
// covers a server that goes away).
describe.skipIf(!mounted || onPostgres)("disk full (tmpfs filled to ENOSPC; needs root to mount)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dir: mountDir, args: ["--create-rate-limit", "0"] });
  });
  afterAll(() => server.stop());
  // A test that fails while the disk is full must not leave it full for the next one.
  afterEach(() => rmSync(join(mountDir, "filler"), { force: true }));

  test("creates get 503 storage_unavailable with a log line, redirects keep working, and all recovers when space returns", async () => {
    expect((await createLink(server.url, { url: "https://example.com/kept", custom_url: "kept" })).status).toBe(201);
    const filler = join(mountDir, "filler");
    fill(filler);

    // The WAL may still have reusable room for a few inserts; keep creating until the disk says no.
    const acknowledged: string[] = [];
    let refused: Awaited<ReturnType<typeof createLink>> | null = null;
    for (let i = 0; i < 400 && refused === null; i++) {
      const res = await createLink(server.url, { url: `https://example.com/${"p".repeat(1500)}/${i}` });
      if (res.status === 201) acknowledged.push(res.body.data.shortUrl.split("/").pop());
      else refused = res;
    }
    expect(refused).not.toBeNull();
    expect(refused!.status).toBe(503);
    expect(refused!.body).toMatchObject({ success: false, code: "storage_unavailable", error: expect.any(String) });
    // The line is on the service's stderr, which can reach us after its 503 does.
    expect(await within10s(async () => server.output(), (out) => /storage unavailable.*SQLITE_FULL/.test(out))).toMatch(/storage unavailable.*SQLITE_FULL/);

    // Redirects answer from memory, and their visits wait in the queue.
    for (let i = 0; i < 20; i++) expect((await click(server.url, "kept")).status).toBe(302);
    for (const id of acknowledged) expect((await click(server.url, id, {}, "HEAD")).status).toBe(302);
    const degraded = await within10s(() => fetch(`${server.url}/health`), (r) => r.status === 503);
    expect(degraded.status).toBe(503);

    // The disk recovers: creates work again, and the queued clicks reach the file.
    rmSync(filler);
    const again = await within10s(() => createLink(server.url, { url: "https://example.com/after", custom_url: "after-full" }), (r) => r.status !== 503);
    expect(again.status).toBe(201);
    expect((await within10s(() => fetch(`${server.url}/health`), (r) => r.status === 200)).status).toBe(200);
    expect((await waitForClicks(server.url, "kept", 20)).data.stats.totalClicks).toBe(20);
  }, 30_000);

  // A request's "last used" write (of its key, or of its session) is best effort: a disk that
  // refuses it must not turn the request itself into a 500.
  test("reads with a key and with a session cookie still answer 200 while the disk is full; an import stops with its outcome", async () => {
    const reader = makeKey(server.dbPath, "reader"); // not used before the disk fills: its first use writes last_used_at
    const browser = makeKey(server.dbPath, "browser");
    const signIn = await api(server.url, null, "POST", "/api/session", { key: browser });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    // A session's use is written when its last one is an hour old: make it so.
    const db = new Database(server.dbPath);
    db.run("PRAGMA busy_timeout = 5000");
    expect(db.query("UPDATE sessions SET last_used_at = last_used_at - 7200000").run().changes).toBe(1);
    db.close();

    const filler = join(mountDir, "filler");
    fill(filler);
    try {
      let refused = false;
      for (let i = 0; i < 400 && !refused; i++) refused = (await createLink(server.url, { url: `https://example.com/${"q".repeat(1500)}/${i}` })).status === 503;
      expect(refused).toBe(true); // the disk refuses writes now, the WAL's spare room included

      const keyed = await api(server.url, reader, "GET", "/api/links");
      expect(keyed.status).toBe(200);
      expect(keyed.body.success).toBe(true);
      const byCookie = await api(server.url, null, "GET", "/api/links", undefined, { cookie });
      expect(byCookie.status).toBe(200);
      expect(byCookie.body.success).toBe(true);

      // An import the disk stops says how far it got: the one error body with data (the contract
      // preload holds it to its own schema).
      const imported = await api(server.url, reader, "POST", "/api/links/import", "url\nhttps://example.com/i1\nhttps://example.com/i2\n", { "content-type": "text/csv" });
      expect(imported.status).toBe(503);
      const { stoppedAtRow, created } = imported.body.data;
      expect(imported.body).toMatchObject({ success: false, code: "storage_unavailable" });
      expect(stoppedAtRow).toBeGreaterThanOrEqual(1);
      expect(created).toHaveLength(stoppedAtRow - 1);
    } finally {
      rmSync(filler);
    }
  }, 30_000);
});

describe.skipIf(onPostgres)("read-only database", () => {
  test("SQLite's SQLITE_READONLY on create becomes 503 storage_unavailable (not a 500)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shortener-ro-"));
    const path = join(dir, "shortener.db");
    openDatabase(path).close(); // a real schema
    const ro = new Database(path, { readonly: true });
    try {
      let thrown: unknown = null;
      try {
        await createLinkDirect(createLinkStore(sqliteLinks(ro), localClickBudget()), { fields: { url: "https://example.com/" }, creator: null, ownHosts: [], allowLocal: false, isBlocked: () => false, now: Date.now() });
      } catch (err) {
        thrown = err;
      }
      expect((thrown as { code?: string }).code).toStartWith("SQLITE_READONLY");
      const res = storageUnavailable(thrown, createLogger("text"), "test create");
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ success: false, code: "storage_unavailable" });
    } finally {
      ro.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The process cannot open its database on a read-only filesystem at start: it says so in one line
  // naming the file (exit 1), like every other startup failure, not with a stack trace.
  test("a database on a read-only filesystem at start: one clear line naming the file, exit 1, no stack trace", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shortener-rodir-"));
    const roDir = mkdtempSync(join(tmpdir(), "shortener-robind-"));
    const first = await startServer({ dir });
    expect((await createLink(first.url, { url: "https://example.com/ro", custom_url: "ro-link" })).status).toBe(201);
    await first.stop();
    execFileSync("mount", ["--bind", dir, roDir]);
    execFileSync("mount", ["-o", "remount,bind,ro", roDir]);
    try {
      const err = await startServer({ dir: roDir }).then(
        async (s) => {
          await s.stop();
          return "";
        },
        (e: Error) => e.message,
      );
      expect(err).toContain(join(roDir, "shortener.db"));
      expect(err).not.toContain("at openDatabase");
    } finally {
      execFileSync("umount", ["-l", roDir]);
      rmSync(roDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
