// Managing domains (docs/several-domains.md: Managing domains, Renaming and removing): /api/domains
// on a real server, on SQLite and (SHORTENER_TEST_ENGINE=postgres) PostgreSQL. Admins only for every
// change and the full list; the first domain added is the default; a rename moves its links' short
// URLs; a new default swaps the links' domains and the link cache forgets what it held; a removal
// is refused while links remain, unless they move, and a move that would clash names the aliases.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { api, cli, madeLink, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { rawRequest } from "../support/raw-http.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let admin: string;
let creator: string;

beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  admin = makeKey(server.dbPath, "admin");
  creator = makeKey(server.dbPath, "creator", "create");
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

/** A click on `alias` under `host`: its status and where it leads. */
async function click(host: string, alias: string): Promise<{ status: number; location: string | null }> {
  const res = await fetch(`${server.url}/${alias}`, { headers: { host }, redirect: "manual" });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get("location") };
}

test("every route that changes domains, and the full list, is refused without credentials (401) and to a create key (403)", async () => {
  const calls: [string, string, unknown?][] = [
    ["GET", "/api/domains"],
    ["POST", "/api/domains", { name: "x.example.org" }],
    ["PATCH", "/api/domains/x.example.org", { https: false }],
    ["DELETE", "/api/domains/x.example.org"],
  ];
  for (const [method, path, body] of calls) {
    const anonymous = await api(server.url, null, method, path, body);
    expect([method, path, anonymous.status, anonymous.body.code]).toEqual([method, path, 401, "auth_required"]);
    const created = await api(server.url, creator, method, path, body);
    expect([method, path, created.status, created.body.code]).toEqual([method, path, 403, "admin_only"]);
  }
  // Nothing was added by any of them.
  expect((await api(server.url, admin, "GET", "/api/domains")).body.domains).toEqual([]);
});

test("a wrong key and a revoked admin key are refused on every domains route (401 auth_invalid), and malformed bodies get a 400 in the API's shape", async () => {
  const revoked = makeKey(server.dbPath, "gone-admin");
  expect(cli(["key", "revoke", "gone-admin", "--db", server.dbPath]).code).toBe(0);
  const calls: [string, string, unknown?][] = [
    ["GET", "/api/domains"],
    ["POST", "/api/domains", { name: "y.example.org" }],
    ["PATCH", "/api/domains/y.example.org", { https: false }],
    ["DELETE", "/api/domains/y.example.org"],
  ];
  for (const [method, path, body] of calls) {
    for (const key of ["sk_notakeyofthisserviceatall00000000", revoked]) {
      const refused = await api(server.url, key, method, path, body);
      expect([method, path, refused.status, refused.body.code]).toEqual([method, path, 401, "auth_invalid"]);
    }
  }
  for (const body of ["{not json", { name: 42 }, { name: "y.example.org", robots: "sometimes" }, ["y.example.org"]]) {
    const bad = await api(server.url, admin, "POST", "/api/domains", body, typeof body === "string" ? { "content-type": "application/json" } : {});
    expect([bad.status, bad.body.success, typeof bad.body.code]).toEqual([400, false, "string"]);
  }
  expect((await api(server.url, admin, "GET", "/api/domains")).body.domains).toEqual([]);
});

test("the first domain added is the default, the next is not; names and settings are checked, a name is taken once", async () => {
  await madeLink(server.url, admin, "before-domains");
  const first = await api(server.url, admin, "POST", "/api/domains", { name: "S.Example.ORG." });
  expect(first.status).toBe(201);
  expect(first.body.domain).toMatchObject({ name: "s.example.org", isDefault: true, https: true, creators: null, links: 1 });
  const second = await api(server.url, admin, "POST", "/api/domains", { name: "go.example.net", https: false, robots: "none", fallbackRedirect: "https://example.com/gone" });
  expect(second.status).toBe(201);
  expect(second.body.domain).toMatchObject({ name: "go.example.net", isDefault: false, https: false, robots: "none", fallbackRedirect: "https://example.com/gone", links: 0 });

  const taken = await api(server.url, admin, "POST", "/api/domains", { name: "go.example.net" });
  expect([taken.status, taken.body.code, taken.body.field]).toEqual([409, "domain_taken", "name"]);
  const invalid = await api(server.url, admin, "POST", "/api/domains", { name: "https://x.example.org/path", rootRedirect: "ftp://example.com", robots: "some" });
  expect([invalid.status, invalid.body.code, invalid.body.field]).toEqual([400, "domain_invalid", "name"]);
  expect(invalid.body.errors.map((e: { field: string }) => e.field)).toEqual(["name", "rootRedirect", "robots"]);

  const listed = await api(server.url, admin, "GET", "/api/domains");
  expect(listed.body.domains.map((d: { name: string; isDefault: boolean }) => [d.name, d.isDefault])).toEqual([["s.example.org", true], ["go.example.net", false]]);
  // The link made before any domain is the default's, and answers on its host only.
  expect((await click("s.example.org", "before-domains")).status).toBe(302);
  expect((await click("go.example.net", "before-domains")).status).toBe(404);
});

test("the picker's list: anyone who may create reads the names they may create on; a restricted domain only for those it lists", async () => {
  const open = await api(server.url, creator, "GET", "/api/domains?for=create");
  expect(open.status).toBe(200);
  expect(open.body.domains).toEqual([{ name: "s.example.org", isDefault: true }, { name: "go.example.net", isDefault: false }]);
  const restricted = await api(server.url, admin, "PATCH", "/api/domains/go.example.net", { creators: { users: [], keys: [999] } });
  expect(restricted.status).toBe(200);
  expect(restricted.body.domain.creators).toEqual({ users: [], keys: [999] });
  expect((await api(server.url, creator, "GET", "/api/domains?for=create")).body.domains).toEqual([{ name: "s.example.org", isDefault: true }]);
  expect((await api(server.url, admin, "GET", "/api/domains?for=create")).body.domains.length).toBe(2);
  // A public create (no key) only on open domains.
  expect((await api(server.url, null, "GET", "/api/domains?for=create")).body.domains).toEqual([{ name: "s.example.org", isDefault: true }]);
  expect((await api(server.url, admin, "PATCH", "/api/domains/go.example.net", { creators: null })).body.domain.creators).toBeNull();
});

test("a new default swaps the links' domains (the link cache forgets), a rename moves short URLs, and a removal keeps links unless they move", async () => {
  await madeLink(server.url, admin, "shared");
  expect((await click("s.example.org", "shared")).status).toBe(302); // now cached under its key
  const made = await api(server.url, admin, "PATCH", "/api/domains/go.example.net", { isDefault: true });
  expect([made.status, made.body.domain.isDefault, made.body.domain.links]).toEqual([200, true, 0]);
  // The links that were the default's are s.example.org's now: not answered on the new default.
  expect((await click("go.example.net", "shared")).status).toBe(404);
  expect((await click("s.example.org", "shared")).location).toBe("https://example.com/shared");

  const renamed = await api(server.url, admin, "PATCH", "/api/domains/s.example.org", { name: "t.example.org", robots: "all" });
  expect([renamed.status, renamed.body.domain.name, renamed.body.domain.robots, renamed.body.domain.links]).toEqual([200, "t.example.org", "all", 2]);
  expect((await click("t.example.org", "shared")).location).toBe("https://example.com/shared");
  // The door's 421 (raw: the click route's contract is the door's part of the document).
  expect((await rawRequest(server.port, "GET /shared HTTP/1.1\r\nHost: s.example.org\r\nConnection: close\r\n\r\n")).status).toBe(421);

  const hasLinks = await api(server.url, admin, "DELETE", "/api/domains/t.example.org");
  expect([hasLinks.status, hasLinks.body.code]).toEqual([409, "domain_has_links"]);
  expect(hasLinks.body.error).toContain("2 links");
  expect(hasLinks.body.error).toContain("moveLinksTo");
  expect(hasLinks.body.error).toContain("/api/links?domain=t.example.org");

  // The same alias on the default: a move would make two links of one, and says which.
  await madeLink(server.url, admin, "shared", { url: "https://example.com/other" });
  const clash = await api(server.url, admin, "DELETE", "/api/domains/t.example.org?moveLinksTo=go.example.net");
  expect([clash.status, clash.body.code]).toEqual([409, "domain_clash"]);
  expect(clash.body.error).toContain("shared");
  expect((await api(server.url, admin, "DELETE", `/api/links/shared`)).status).toBe(200);

  const unknown = await api(server.url, admin, "DELETE", "/api/domains/t.example.org?moveLinksTo=nowhere.example");
  expect([unknown.status, unknown.body.code, unknown.body.field]).toEqual([400, "domain_unknown", "moveLinksTo"]);
  const defaultFirst = await api(server.url, admin, "DELETE", "/api/domains/go.example.net");
  expect([defaultFirst.status, defaultFirst.body.code]).toEqual([400, "bad_request"]);
});

test("links moved to the default by a removal answer there; an unknown domain is 404", async () => {
  // "shared" was deleted on the default, so its alias is retired there: that move clashes too.
  const retired = await api(server.url, admin, "DELETE", "/api/domains/t.example.org?moveLinksTo=go.example.net");
  expect([retired.status, retired.body.code]).toEqual([409, "domain_clash"]);
  expect(await api(server.url, admin, "PATCH", "/api/domains/t.example.org", { name: "u.example.org" })).toMatchObject({ status: 200 });
  await api(server.url, admin, "POST", "/api/domains", { name: "w.example.org" });
  // Only before-domains and shared are on u.example.org; w has retired nothing.
  const moved = await api(server.url, admin, "DELETE", "/api/domains/u.example.org?moveLinksTo=w.example.org");
  expect([moved.status, moved.body]).toEqual([200, { success: true, name: "u.example.org", deleted: true, linksMoved: 2 }]);
  expect((await click("w.example.org", "before-domains")).location).toBe("https://example.com/before-domains");
  const missing = await api(server.url, admin, "PATCH", "/api/domains/u.example.org", { https: true });
  expect([missing.status, missing.body.code]).toEqual([404, "domain_not_found"]);
});

test("the certificate ask: 200 for a configured domain, whatever Host it is asked under; 404 for any other name; no credentials", async () => {
  const ask = async (domain: string, host = `127.0.0.1:${server.port}`) => {
    const res = await fetch(`${server.url}/api/domains/tls?domain=${encodeURIComponent(domain)}`, { headers: { host } });
    await res.arrayBuffer();
    return res.status;
  };
  // The directory is read again by requests every 10 s: a domain added here is known at once.
  expect(await ask("go.example.net")).toBe(200);
  expect(await ask("W.EXAMPLE.ORG")).toBe(200);
  expect(await ask("go.example.net", "w.example.org")).toBe(200);
  expect(await ask("u.example.org")).toBe(404);
  expect(await ask("evil.example")).toBe(404);
  expect(await ask("")).toBe(404);
  // A name none of the domains has, asked under such a host: 421 (the door), never a certificate.
  expect((await rawRequest(server.port, "GET /api/domains/tls?domain=go.example.net HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")).status).toBe(421);
});

test("with --base-url: its host is the default (listed before it has a row), adding it gives it settings, and no other domain may become the default", async () => {
  const based = await startServer({ args: ["--base-url", "https://main.example.org"] });
  try {
    const key = makeKey(based.dbPath, "admin");
    expect((await api(based.url, key, "GET", "/api/domains")).body.domains).toEqual([
      { name: "main.example.org", isDefault: true, https: true, rootRedirect: null, notFoundRedirect: null, fallbackRedirect: null, robots: null, creators: null, createdAt: null, links: null },
    ]);
    // Another domain first: not the default, since --base-url names it.
    expect((await api(based.url, key, "POST", "/api/domains", { name: "other.example.net" })).body.domain.isDefault).toBe(false);
    const main = await api(based.url, key, "POST", "/api/domains", { name: "main.example.org", robots: "none" });
    expect([main.status, main.body.domain.isDefault, main.body.domain.robots]).toEqual([201, true, "none"]);
    const refused = await api(based.url, key, "PATCH", "/api/domains/other.example.net", { isDefault: true });
    expect([refused.status, refused.body.code, refused.body.field]).toEqual([400, "bad_request", "isDefault"]);
    expect(refused.body.error).toContain("--base-url");
    const rename = await api(based.url, key, "PATCH", "/api/domains/main.example.org", { name: "new.example.org" });
    expect([rename.status, rename.body.field]).toEqual([400, "name"]);
    expect((await api(based.url, key, "GET", "/api/domains")).body.domains.map((d: { name: string; isDefault: boolean }) => [d.name, d.isDefault])).toEqual([
      ["main.example.org", true],
      ["other.example.net", false],
    ]);
  } finally {
    await based.dispose();
  }
});
