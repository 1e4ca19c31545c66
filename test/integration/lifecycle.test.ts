// The process as systemd sees it: flags, exit codes, graceful stop with queued visits, restart, backup.

import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { existsSync, readFileSync } from "node:fs";
import { createLink, onPostgres, startServer } from "../support/server.ts";
import { openStored } from "../support/stored.ts";
import { click, UA, waitForClicks } from "../support/clicks.ts";
import { cli } from "../support/admin.ts";

// cli: in a folder of its own, so that a run that gets as far as opening ./shortener.db leaves nothing behind.
const run = cli;

describe("command line", () => {
  test("--help lists the flags and the backup command; --version prints it", () => {
    const help = run(["--help"]);
    expect(help.code).toBe(0);
    for (const word of ["--port", "--db", "--base-url", "--trust-proxy", "--geoip-db", "--create-rate-limit", "backup"]) expect(help.out).toContain(word);
    const version = run(["--version"]);
    expect(version.code).toBe(0);
    // The binary carries the commit and build date stamped by scripts/lib/compile.ts; source has none.
    expect(version.out.trim()).toMatch(process.env.SHORTENER_BIN ? /^shortener \d+\.\d+\.\d+ \([0-9a-f]{7,}(-dirty)?, built \d{4}-\d{2}-\d{2}\)$/ : /^shortener \d+\.\d+\.\d+ \(from source, not built\)$/);
  });

  const BAD: [string[], Record<string, string>, string][] = [
    [["--nope"], {}, "--nope"],
    [["--port", "70000"], {}, "--port"],
    [["--port", "abc"], {}, "--port"],
    [["--base-url", "ftp://x"], {}, "--base-url"],
    [["--trust-proxy", "10.0.0.0/99"], {}, "--trust-proxy"],
    [["--create-rate-limit", "-1"], {}, "--create-rate-limit"],
    [[], { SHORTENER_PORT: "http" }, "SHORTENER_PORT"],
    [[], { SHORTENER_TRUST_PROXY: "10.0.0.0/99" }, "SHORTENER_TRUST_PROXY"],
    [["--db", "/no/such/folder/x.db"], {}, "/no/such/folder"],
    [[], { SHORTENER_DB: "/no/such/folder/x.db" }, "SHORTENER_DB"],
    [["--geoip-db", "/nonexistent/file.mmdb"], {}, "--geoip-db"],
  ];
  for (const [args, env, named] of BAD) {
    test(`bad ${[...args, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)].join(" ")} exits 2 naming ${named}`, () => {
      const r = run(args, env);
      expect(r.code).toBe(2);
      expect(r.err).toContain(named);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    });
  }

  test("--help and --version work whatever the configuration says, and create nothing", () => {
    for (const args of [["--version"], ["--help"], ["-v", "--port", "nope"]]) {
      const r = run(args, { SHORTENER_PORT: "xyz", SHORTENER_DB: "/no/such/folder/x.db", SHORTENER_LOG_FORMAT: "xml" });
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^shortener \d+\.\d+\.\d+/);
      expect(r.err).toBe("");
    }
  });

  test("a second instance on a port in use fails loudly", async () => {
    const first = await startServer();
    try {
      const second = run(["--port", String(first.port), "--host", "127.0.0.1", "--db", join(first.dir, "other.db")]);
      expect(second.code).not.toBe(0);
      expect(second.err).toContain(`cannot listen on 127.0.0.1:${first.port}`);
    } finally {
      await first.dispose();
    }
  });
});

describe("durability", () => {
  test("SIGTERM with visits queued: all are written, exit 0, and they survive a restart", async () => {
    const first = await startServer();
    await createLink(first.url, { url: "https://example.com/durable", custom_url: "durable" });
    const n = 300;
    const answered = await Promise.all(Array.from({ length: n }, () => click(first.url, "durable", { "user-agent": UA.firefoxLinux })));
    expect(answered.every((r) => r.status === 302)).toBe(true);
    expect(await first.stop()).toBe(0);
    const second = await startServer({ dir: first.dir });
    try {
      const body = await waitForClicks(second.url, "durable", n);
      expect(body.data.stats.totalClicks).toBe(n);
      expect(body.data.link.originalUrl).toBe("https://example.com/durable");
    } finally {
      await second.dispose();
    }
  });

  test.skipIf(onPostgres)("backup while serving writes a consistent copy", async () => {
    const server = await startServer();
    try {
      await createLink(server.url, { url: "https://example.com/backed-up", custom_url: "backed" });
      await click(server.url, "backed", { "user-agent": UA.chromeWindows });
      await waitForClicks(server.url, "backed", 1);
      const target = join(server.dir, "copy.db");
      const r = run(["backup", target, "--db", server.dbPath]);
      expect(r.code).toBe(0);
      const copy = new Database(target, { readonly: true });
      expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      expect(copy.query("SELECT url FROM links WHERE id = 'backed'").get()).toEqual({ url: "https://example.com/backed-up" });
      expect(copy.query("SELECT COUNT(*) AS n FROM visits").get()).toEqual({ n: 1 });
      // Today's visitor salt and keys stay behind (in the live file only while the day lasts); the
      // count made with them is kept.
      const live = new Database(server.dbPath, { readonly: true });
      const salt = Buffer.from((live.query("SELECT salt FROM visitor_salts").get() as { salt: Uint8Array }).salt);
      const keys = (live.query("SELECT visitors FROM visitors_seen").all() as { visitors: Uint8Array }[]).map((r) => Buffer.from(r.visitors));
      live.close();
      expect(keys.length).toBe(2); // the click's visitor, for its day and its hour
      expect(copy.query("SELECT (SELECT COUNT(*) FROM visitor_salts) AS salts, (SELECT COUNT(*) FROM visitors_seen) AS seen").get()).toEqual({ salts: 0, seen: 0 });
      expect(copy.query("SELECT SUM(uniques) AS n FROM daily_rollup").get()).toEqual({ n: 1 });
      copy.close();
      const bytes = Buffer.concat([target, `${target}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
      expect(bytes.includes(salt)).toBe(false);
      for (const key of keys) expect(bytes.includes(key)).toBe(false);
      expect(run(["backup", target, "--db", server.dbPath]).code).toBe(1); // never overwrites
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      await server.dispose();
    }
  });

  test.skipIf(!onPostgres)("backup of a PostgreSQL database: refused with the pointer to pg_dump (exit 2)", async () => {
    const server = await startServer();
    try {
      const r = run(["backup", join(server.dir, "copy.db"), "--db", server.dbPath]);
      expect(r.code).toBe(2);
      expect(r.err).toContain("pg_dump");
      expect(r.err).not.toContain(new URL(server.dbPath).password); // the URL's password is never printed
    } finally {
      await server.dispose();
    }
  });

  test("--log-format json: every line is one JSON object with time, level and msg", async () => {
    const server = await startServer({ args: ["--log-format", "json"] });
    // The launcher finds the port in the text; here it is inside the JSON "msg".
    await server.stop();
    const lines = server.output().trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ time: expect.any(String), level: "info", msg: expect.any(String) });
    expect(lines.some((l) => JSON.parse(l).msg.startsWith("listening on http://"))).toBe(true);
    await server.dispose();
  });

  test("/health reports ok with the version", async () => {
    const server = await startServer();
    try {
      const res = await fetch(`${server.url}/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "ok", db: "ok", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    } finally {
      await server.dispose();
    }
  });

  test("no client address is stored anywhere in the database", async () => {
    const server = await startServer({ args: ["--trust-proxy", "127.0.0.1"] });
    await createLink(server.url, { url: "https://example.com/private", custom_url: "private" });
    await click(server.url, "private", { "user-agent": UA.firefoxLinux, "x-forwarded-for": "203.0.113.77" });
    await waitForClicks(server.url, "private", 1);
    await server.stop();
    const db = await openStored(server);
    const dump = JSON.stringify(await db.all("SELECT * FROM visits")) + JSON.stringify(await db.all("SELECT * FROM dimension_rollup"));
    await db.close();
    await server.dispose();
    expect(dump).not.toContain("203.0.113");
    expect(dump).not.toContain("127.0.0.1");
  });
});
