// Who may create and who may read statistics (--create-access, --stats-access), and an admin key
// handed over by systemd ($CREDENTIALS_DIRECTORY/admin-key), against real servers.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { api, cli, makeKey } from "../support/admin.ts";

describe("--create-access key, --stats-access key", () => {
  let server: RunningServer;
  let admin: string;
  let teamA: string;
  let teamB: string;
  beforeAll(async () => {
    server = await startServer({ args: ["--create-access", "key", "--stats-access", "key", "--create-rate-limit", "1"] });
    admin = makeKey(server.dbPath, "admin");
    teamA = makeKey(server.dbPath, "a", "create");
    teamB = makeKey(server.dbPath, "b", "create");
  });
  afterAll(() => server.dispose());

  test("a create without a key is 401 auth_required; with a key it works and is not rate limited", async () => {
    const anonymous = await createLink(server.url, { url: "https://example.com/" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, code: "auth_required" });
    expect(anonymous.headers.get("www-authenticate")).toStartWith("Bearer");
    // --create-rate-limit 1: a second public create would be 429; key holders are not limited.
    for (const alias of ["priv-one", "priv-two", "priv-three"]) {
      expect((await createLink(server.url, { url: "https://example.com/p", custom_url: alias }, { authorization: `Bearer ${teamA}` })).status).toBe(201);
    }
    expect((await createLink(server.url, { url: "https://example.com/" }, { authorization: "Bearer sk_wrong" })).body.code).toBe("auth_invalid");
  });

  test("a browser whose session has ended is told so (not asked for a key) on create and stats", async () => {
    const signIn = await api(server.url, null, "POST", "/api/session", { key: teamA });
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    expect((await api(server.url, null, "DELETE", "/api/session", undefined, { cookie, origin: server.url })).status).toBe(200);
    const create = await createLink(server.url, { url: "https://example.com/stale" }, { cookie, origin: server.url });
    const stats = await api(server.url, null, "GET", "/api/stats?id=priv-one", undefined, { cookie });
    for (const r of [create, stats]) {
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ success: false, code: "auth_invalid", error: expect.stringContaining("session has ended") });
    }
  });

  test("stats: 401 without a key, 404 for another create key, 200 for the owner and for admin", async () => {
    const none = await api(server.url, null, "GET", "/api/stats?id=priv-one");
    expect(none.status).toBe(401);
    expect(none.body.code).toBe("auth_required");
    expect((await api(server.url, null, "GET", "/api/stats?id=no-such-link")).status).toBe(401); // existence is not revealed
    expect((await api(server.url, teamB, "GET", "/api/stats?id=priv-one")).status).toBe(404);
    expect((await api(server.url, teamA, "GET", "/api/stats?id=priv-one")).body.data.link.id).toBe("priv-one");
    expect((await api(server.url, admin, "GET", "/api/stats?id=priv-one")).status).toBe(200);
  });

  test("the stats page is a 401 page (the same for unknown links) without credentials", async () => {
    for (const id of ["priv-one", "unknown-link"]) {
      const page = await fetch(`${server.url}/en/stats/${id}`);
      expect(page.status).toBe(401);
      expect(await page.text()).toContain("These statistics are private");
    }
  });

  test("redirects stay public", async () => {
    expect((await fetch(`${server.url}/priv-one`, { redirect: "manual" })).status).toBe(302);
  });
});

describe("defaults: basic usage needs no credentials (the spec)", () => {
  test("create, stats and the stats page without a key; a create key's link remembers its owner", async () => {
    const server = await startServer();
    try {
      expect((await createLink(server.url, { url: "https://example.com/", custom_url: "open-one" })).status).toBe(201);
      expect((await api(server.url, null, "GET", "/api/stats?id=open-one")).status).toBe(200);
      expect((await fetch(`${server.url}/en/stats/open-one`)).status).toBe(200);
      const key = makeKey(server.dbPath, "mine", "create");
      expect((await createLink(server.url, { url: "https://example.com/", custom_url: "keyed-one" }, { authorization: `Bearer ${key}` })).status).toBe(201);
      const mine = await api(server.url, key, "GET", "/api/links");
      expect(mine.body.data.links.map((l: { id: string }) => l.id)).toEqual(["keyed-one"]);
    } finally {
      await server.dispose();
    }
  });
});

describe("systemd credential admin-key", () => {
  test("its content is an admin key; it is never written to the database", async () => {
    const creds = mkdtempSync(join(tmpdir(), "shortener-creds-"));
    const secret = cli(["key", "generate"]).out.trim();
    writeFileSync(join(creds, "admin-key"), `${secret}\n`);
    const server = await startServer({ env: { CREDENTIALS_DIRECTORY: creds } });
    try {
      expect(server.output()).toContain("admin key from the systemd credential");
      expect((await createLink(server.url, { url: "https://example.com/", custom_url: "cred-made" }, { authorization: `Bearer ${secret}` })).status).toBe(201);
      const list = await api(server.url, secret, "GET", "/api/links");
      expect(list.status).toBe(200);
      expect(list.body.data.links.map((l: { id: string }) => l.id)).toEqual(["cred-made"]);
      expect((await api(server.url, secret.slice(0, -1), "GET", "/api/links")).status).toBe(401);
      expect(cli(["key", "list", "--db", server.dbPath]).out.trim().split("\n")).toHaveLength(1); // the header: no key rows
      expect(server.output()).not.toContain(secret.slice(3));
    } finally {
      await server.dispose();
      rmSync(creds, { recursive: true, force: true });
    }
  });

  test.each(["tiny", "a".repeat(24), "x".repeat(31)])("a credential too short to be safe (%s) stops the start (exit 2, one line)", (secret) => {
    const creds = mkdtempSync(join(tmpdir(), "shortener-creds-"));
    writeFileSync(join(creds, "admin-key"), `${secret}\n`);
    try {
      const r = cli(["--port", "0"], { CREDENTIALS_DIRECTORY: creds });
      expect(r.code).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toContain("admin-key");
      expect(r.err).not.toContain(secret);
    } finally {
      rmSync(creds, { recursive: true, force: true });
    }
  });

  test("past the failed-attempt limit a credential not in the key format is refused unchecked; a generated key still passes", async () => {
    const creds = mkdtempSync(join(tmpdir(), "shortener-creds-"));
    const secret = "my-own-admin-secret-of-40-characters-xyz";
    writeFileSync(join(creds, "admin-key"), `${secret}\n`);
    const server = await startServer({ env: { CREDENTIALS_DIRECTORY: creds } });
    try {
      const key = makeKey(server.dbPath, "generated");
      expect((await api(server.url, secret, "GET", "/api/links")).status).toBe(200); // below the limit it works
      for (let i = 0; i < 10; i++) expect((await api(server.url, `${secret.slice(0, -1)}${i}`, "GET", "/api/links")).status).toBe(401);
      // Guesses past the limit learn nothing, not even from the right one.
      const right = await api(server.url, secret, "GET", "/api/links");
      expect(right.status).toBe(429);
      expect(right.body.code).toBe("auth_rate_limited");
      expect((await api(server.url, null, "POST", "/api/session", { key: secret })).status).toBe(429);
      // 190 random bits cannot be guessed: the owner's generated key is never locked out.
      expect((await api(server.url, key, "GET", "/api/links")).status).toBe(200);
    } finally {
      await server.dispose();
      rmSync(creds, { recursive: true, force: true });
    }
  });
});

test("bad --create-access / --stats-access values exit 2 naming the flag", () => {
  for (const flag of ["--create-access", "--stats-access"]) {
    const r = cli([flag, "private"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(flag);
  }
});
