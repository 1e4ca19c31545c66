// The dashboard's sessions against a real server: sign in with a wrong and a right key, the
// cookie's attributes, the cookie in place of the key, the Origin rule for changes made with it,
// sign out, a revoked key ending its sessions; and the overview and daily counts behind the page.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { api, cli, makeKey } from "../support/admin.ts";
import { click, drained, UA } from "../support/clicks.ts";

let server: RunningServer;
let admin: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0", "--trust-proxy", "127.0.0.1"] });
  admin = makeKey(server.dbPath, "owner");
});
afterAll(() => server.dispose());

let address = 0;
/** Sign-in from an address of its own (the failed-attempt limit is per address). */
async function signIn(key: string, headers: Record<string, string> = {}) {
  return api(server.url, null, "POST", "/api/session", { key }, { "x-forwarded-for": `192.0.2.${++address}`, ...headers });
}
const cookieOf = (r: { headers: Headers }) => (r.headers.get("set-cookie") ?? "").split(";")[0]!;
const own = () => ({ origin: server.url });

describe("sign in", () => {
  test("a wrong key: 401 auth_invalid, no cookie", async () => {
    const r = await signIn("sk_" + "0".repeat(32));
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("auth_invalid");
    expect(r.headers.get("set-cookie")).toBeNull();
  });

  test("a right key: 200 with name and scope, and an HttpOnly SameSite=Strict cookie for 30 days", async () => {
    const r = await signIn(admin, own());
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ name: "owner", scope: "admin" });
    const set = r.headers.get("set-cookie")!;
    expect(set).toMatch(/^shortener_session=[0-9A-Za-z]{32}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=2592000$/);
    expect(set).not.toContain(admin.slice(3));
  });

  test("Secure when the service is reached over https (behind a trusted proxy)", async () => {
    const r = await signIn(admin, { "x-forwarded-proto": "https" });
    expect(r.headers.get("set-cookie")).toEndWith("; Secure");
  });

  test("Secure behind a TLS proxy declared to neither --trust-proxy nor --base-url: from the https Origin, or its X-Forwarded-Proto", async () => {
    const plain = await startServer(); // trusts no proxy, no --base-url: the service itself sees http
    try {
      const key = makeKey(plain.dbPath, "behind-tls");
      const host = new URL(plain.url).host;
      const overTls = await api(plain.url, null, "POST", "/api/session", { key }, { origin: `https://${host}` });
      expect(overTls.status).toBe(200);
      expect(overTls.headers.get("set-cookie")).toEndWith("; Secure");
      const cookie = cookieOf(overTls);
      // The dashboard's renewal (a GET, no Origin) keeps it Secure when the proxy says https...
      const renewed = await api(plain.url, null, "GET", "/api/session", undefined, { cookie, "x-forwarded-proto": "https" });
      expect(renewed.headers.get("set-cookie")).toContain("Max-Age=2592000");
      expect(renewed.headers.get("set-cookie")).toEndWith("; Secure");
      // ...and plain http stays plain: a Secure cookie would never come back over it.
      const overHttp = await api(plain.url, null, "POST", "/api/session", { key }, { origin: `http://${host}` });
      expect(overHttp.status).toBe(200);
      expect(overHttp.headers.get("set-cookie")).not.toContain("Secure");
      const httpRenewal = await api(plain.url, null, "GET", "/api/session", undefined, { cookie: cookieOf(overHttp) });
      expect(httpRenewal.headers.get("set-cookie")).toContain("Max-Age=2592000");
      expect(httpRenewal.headers.get("set-cookie")).not.toContain("Secure");
    } finally {
      await plain.dispose();
    }
  });

  test("from another site's page: 403, no cookie (login CSRF)", async () => {
    const r = await signIn(admin, { origin: "https://evil.example" });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("origin_mismatch");
    expect(r.headers.get("set-cookie")).toBeNull();
  });

  test("the failed-attempt limit applies to sign-in too (a right key still signs in)", async () => {
    const from = { "x-forwarded-for": "198.18.0.1" };
    for (let i = 0; i < 10; i++) expect((await api(server.url, null, "POST", "/api/session", { key: "wrong" }, from)).status).toBe(401);
    const limited = await api(server.url, null, "POST", "/api/session", { key: "wrong" }, from);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).not.toBeNull();
    expect((await api(server.url, null, "POST", "/api/session", { key: admin }, from)).status).toBe(200);
  });
});

describe("the session cookie in place of the key", () => {
  test("reads work with the cookie alone; GET /api/session says who is signed in", async () => {
    const cookie = cookieOf(await signIn(admin));
    expect((await api(server.url, null, "GET", "/api/links", undefined, { cookie })).status).toBe(200);
    const who = await api(server.url, null, "GET", "/api/session", undefined, { cookie });
    expect(who.body.data).toMatchObject({ signedIn: true, name: "owner", scope: "admin", createAccess: "public", statsAccess: "public" });
    expect(who.headers.get("set-cookie")).toContain("Max-Age=2592000");
    expect((await api(server.url, null, "GET", "/api/session")).body.data).toMatchObject({ signedIn: false });
  });

  test("GET /api/session renews a live session's cookie, clears an ended one's, and leaves it alone beside a bearer key", async () => {
    const cookie = cookieOf(await signIn(admin));
    const withKey = await api(server.url, admin, "GET", "/api/session", undefined, { cookie });
    expect(withKey.body.data).toMatchObject({ signedIn: true, name: "owner" });
    expect(withKey.headers.get("set-cookie")).toBeNull(); // the key answered; the browser's session stays
    expect((await api(server.url, null, "GET", "/api/links", undefined, { cookie })).status).toBe(200);
    expect((await api(server.url, null, "GET", "/api/session", undefined, { cookie })).headers.get("set-cookie")).toContain("Max-Age=2592000");
    expect((await api(server.url, null, "DELETE", "/api/session", undefined, { cookie, ...own() })).status).toBe(200);
    const ended = await api(server.url, null, "GET", "/api/session", undefined, { cookie });
    expect(ended.body.data).toMatchObject({ signedIn: false });
    expect(ended.headers.get("set-cookie")).toContain("Max-Age=0");
  });

  test("a change with the cookie needs this service's Origin: none or another is 403, and nothing changes", async () => {
    const cookie = cookieOf(await signIn(admin));
    await createLink(server.url, { url: "https://example.com/csrf", custom_url: "csrf-target" });
    for (const origin of [undefined, "https://evil.example", "null", `http://127.0.0.1:${server.port + 1}`]) {
      const headers: Record<string, string> = { cookie };
      if (origin !== undefined) headers.origin = origin;
      const r = await api(server.url, null, "PATCH", "/api/links/csrf-target", { disabled: true }, headers);
      expect(r.status).toBe(403);
      expect(r.body.code).toBe("origin_mismatch");
      expect((await api(server.url, null, "DELETE", "/api/links/csrf-target", undefined, headers)).status).toBe(403);
    }
    // A plain cross-site HTML form post (urlencoded create) with the cookie is refused as well.
    const form = await fetch(`${server.url}/api/create`, {
      method: "POST",
      headers: { cookie, origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "url=https%3A%2F%2Fevil.example%2F&custom_url=planted",
    });
    expect(form.status).toBe(403);
    expect((await fetch(`${server.url}/planted`, { redirect: "manual" })).status).toBe(404);
    expect((await api(server.url, admin, "GET", "/api/links/csrf-target")).body.data.disabled).toBe(false);
    const ok = await api(server.url, null, "PATCH", "/api/links/csrf-target", { disabled: true }, { cookie, ...own() });
    expect(ok.status).toBe(200);
    expect(ok.body.data.disabled).toBe(true);
  });

  test("a create with the cookie belongs to the signed-in key", async () => {
    const teamKey = makeKey(server.dbPath, "team", "create");
    const cookie = cookieOf(await signIn(teamKey));
    const made = await createLink(server.url, { url: "https://example.com/by-session", custom_url: "by-session" }, { cookie, ...own() });
    expect(made.status).toBe(201);
    expect((await api(server.url, teamKey, "GET", "/api/links")).body.data.links.map((l: { id: string }) => l.id)).toEqual(["by-session"]);
  });

  test("sign out ends the session on the server: the old cookie no longer works", async () => {
    const cookie = cookieOf(await signIn(admin));
    const out = await api(server.url, null, "DELETE", "/api/session", undefined, { cookie, ...own() });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    const after = await api(server.url, null, "GET", "/api/links", undefined, { cookie });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("auth_invalid");
    // A public route still works for a browser with a stale cookie: it is simply anonymous there.
    expect((await createLink(server.url, { url: "https://example.com/after" }, { cookie, ...own() })).status).toBe(201);
  });

  test("revoking the key ends its sessions", async () => {
    const key = makeKey(server.dbPath, "temp");
    const cookie = cookieOf(await signIn(key));
    expect((await api(server.url, null, "GET", "/api/links", undefined, { cookie })).status).toBe(200);
    expect(cli(["key", "revoke", "temp", "--db", server.dbPath]).code).toBe(0);
    expect((await api(server.url, null, "GET", "/api/links", undefined, { cookie })).status).toBe(401);
  });
});

describe("overview and daily counts", () => {
  test("GET /api/overview: links, clicks today / 7 / 30 days, per day, top 5; for the key's links only", async () => {
    const fresh = await startServer();
    try {
      const owner = makeKey(fresh.dbPath, "owner");
      const team = makeKey(fresh.dbPath, "team", "create");
      for (const [alias, clicks, key] of [["ov-a", 3, owner], ["ov-b", 5, owner], ["ov-c", 1, team]] as const) {
        await createLink(fresh.url, { url: `https://example.com/${alias}`, custom_url: alias }, { authorization: `Bearer ${key}` });
        for (let i = 0; i < clicks; i++) await click(fresh.url, alias, { "user-agent": UA.firefoxLinux });
      }
      await drained(fresh.url);
      const all = await api(fresh.url, owner, "GET", "/api/overview");
      expect(all.body.data).toMatchObject({ links: 3, clicksToday: 9, clicks7d: 9, clicks30d: 9 });
      expect(all.body.data.daily).toHaveLength(30);
      expect(all.body.data.daily.at(-1)).toBe(9);
      expect(all.body.data.top).toEqual([
        { id: "ov-b", domain: null, originalUrl: "https://example.com/ov-b", clicks: 5 },
        { id: "ov-a", domain: null, originalUrl: "https://example.com/ov-a", clicks: 3 },
        { id: "ov-c", domain: null, originalUrl: "https://example.com/ov-c", clicks: 1 },
      ]);
      const mine = await api(fresh.url, team, "GET", "/api/overview");
      expect(mine.body.data).toMatchObject({ links: 1, clicksToday: 1, top: [{ id: "ov-c", clicks: 1 }] });
      expect((await api(fresh.url, null, "GET", "/api/overview")).status).toBe(401);
      expect((await api(fresh.url, "sk_" + "1".repeat(32), "GET", "/api/overview")).status).toBe(401);
      const listed = await api(fresh.url, owner, "GET", "/api/links?include=daily&sort=totalClicks");
      expect(listed.body.data.links.map((l: { id: string; daily: number[] }) => [l.id, l.daily.length, l.daily.at(-1)])).toEqual([["ov-b", 30, 5], ["ov-a", 30, 3], ["ov-c", 30, 1]]);
      expect((await api(fresh.url, owner, "GET", "/api/links")).body.data.links[0].daily).toBeUndefined();
      expect((await api(fresh.url, owner, "GET", "/api/links?include=all")).body.field).toBe("include");
    } finally {
      await fresh.dispose();
    }
  });
});

test("the dashboard page: /links redirects to the best language; each language has one", async () => {
  const r = await fetch(`${server.url}/links`, { redirect: "manual", headers: { "accept-language": "nl" } });
  expect(r.status).toBe(302);
  expect(r.headers.get("location")).toBe("/nl/links");
  const page = await fetch(`${server.url}/nl/links`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
});
