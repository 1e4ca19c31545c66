// Who may call the management routes, against a real server: every route without a key, with a
// wrong key, a revoked key, and a create key on another key's link; the failed-attempt limit; a
// revoke from the command line while the service runs; keys never in the log.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { api, cli, makeKey } from "../support/admin.ts";

let server: RunningServer;
let admin: string;
let creatorA: string;
let creatorB: string;
let revoked: string;

beforeAll(async () => {
  // Behind a "proxy" (the test itself): each wrong attempt below comes from an address of its own,
  // so that the failed-attempt limit, tested on its own server, does not interfere.
  // --auth-header: the test is also the proxy that names users (Remote-User), for the users' part below.
  server = await startServer({ args: ["--create-rate-limit", "0", "--trust-proxy", "127.0.0.1", "--auth-header", "Remote-User"] });
  admin = makeKey(server.dbPath, "admin");
  creatorA = makeKey(server.dbPath, "team-a", "create");
  creatorB = makeKey(server.dbPath, "team-b", "create");
  revoked = makeKey(server.dbPath, "old", "admin");
  expect(cli(["key", "revoke", "old", "--db", server.dbPath]).code).toBe(0);
  expect((await api(server.url, creatorA, "POST", "/api/create", { url: "https://a.example/", custom_url: "owned-by-a" })).status).toBe(201);
  expect((await createLink(server.url, { url: "https://public.example/", custom_url: "public-one" })).status).toBe(201);
});
afterAll(() => server.dispose());

let addresses = 0;
const nextAddress = () => `198.51.100.${++addresses}`;

// Every management route, with a request that would succeed for an admin.
const ROUTES: { name: string; method: string; path: string; body?: unknown; headers?: Record<string, string> }[] = [
  { name: "list", method: "GET", path: "/api/links" },
  { name: "get", method: "GET", path: "/api/links/owned-by-a" },
  { name: "patch", method: "PATCH", path: "/api/links/owned-by-a", body: { tags: ["x"] } },
  { name: "delete", method: "DELETE", path: "/api/links/public-one" },
  { name: "export", method: "GET", path: "/api/links/export" },
  { name: "import", method: "POST", path: "/api/links/import", body: "url\nhttps://imported.example/\n", headers: { "content-type": "text/csv" } },
  { name: "move from (start)", method: "POST", path: "/api/imports", body: { from: "csv", csv: "url\nhttps://moved.example/\n" } },
  { name: "move from (progress)", method: "GET", path: "/api/imports/00000000-0000-0000-0000-000000000000" },
  { name: "webhook (add)", method: "POST", path: "/api/webhooks", body: { url: "https://hooks.example.com/x", events: ["link.created"] } },
  { name: "webhooks (list)", method: "GET", path: "/api/webhooks" },
  { name: "webhook (get)", method: "GET", path: "/api/webhooks/1" },
  { name: "webhook (change)", method: "PATCH", path: "/api/webhooks/1", body: { enabled: false } },
  { name: "webhook (delete)", method: "DELETE", path: "/api/webhooks/1" },
  { name: "webhook (deliveries)", method: "GET", path: "/api/webhooks/1/deliveries" },
  { name: "webhook (redeliver)", method: "POST", path: "/api/webhooks/1/deliveries/1/redeliver" },
  { name: "live clicks of every link", method: "GET", path: "/api/stats/live" },
  // Statistics beyond one link (docs/statistics.md): share links, exports, visits to no link, tags, domains, comparisons.
  { name: "share (make)", method: "POST", path: "/api/links/owned-by-a/shares", body: { label: "x" } },
  { name: "shares (list)", method: "GET", path: "/api/links/owned-by-a/shares" },
  { name: "share (revoke)", method: "DELETE", path: "/api/links/owned-by-a/shares/1" },
  { name: "visits (export)", method: "GET", path: "/api/visits/export" },
  { name: "visits to no link", method: "GET", path: "/api/orphan-visits" },
  { name: "visits to no link (export)", method: "GET", path: "/api/orphan-visits/export" },
  { name: "a tag's statistics", method: "GET", path: "/api/stats/tag?tag=x" },
  { name: "a domain's statistics", method: "GET", path: "/api/stats/domain" },
  { name: "compared statistics", method: "GET", path: "/api/stats/compare?ids=owned-by-a,public-one" },
];

describe("every management route refuses", () => {
  for (const route of ROUTES) {
    test(`${route.name}: no key → 401 auth_required with WWW-Authenticate: Bearer`, async () => {
      const r = await api(server.url, null, route.method, route.path, route.body, route.headers);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ success: false, code: "auth_required" });
      expect(r.headers.get("www-authenticate")).toStartWith("Bearer");
    });
    test(`${route.name}: a wrong key and a revoked key → 401 auth_invalid`, async () => {
      for (const key of ["sk_" + "x".repeat(32), revoked, "Basic abc"]) {
        const r = await api(server.url, key, route.method, route.path, route.body, { ...route.headers, "x-forwarded-for": nextAddress() });
        expect(r.status).toBe(401);
        expect(r.body).toMatchObject({ success: false, code: "auth_invalid" });
      }
    });
  }
  test("nothing was changed by the refused requests", async () => {
    const links = (await api(server.url, admin, "GET", "/api/links")).body.data.links;
    expect(links.map((l: { id: string }) => l.id).sort()).toEqual(["owned-by-a", "public-one"]);
    expect(links.find((l: { id: string }) => l.id === "owned-by-a").tags).toEqual([]);
  });
});

describe("a create key sees and changes only its own links", () => {
  test("another key's link and a public link are 404 for get, patch and delete, and stay unchanged", async () => {
    for (const id of ["owned-by-a", "public-one"]) {
      for (const [method, body] of [["GET", undefined], ["PATCH", { disabled: true }], ["DELETE", undefined]] as const) {
        const r = await api(server.url, creatorB, method, `/api/links/${id}`, body);
        expect(r.status).toBe(404);
        expect(r.body).toMatchObject({ success: false, code: "not_found" });
      }
    }
    const a = await api(server.url, admin, "GET", "/api/links/owned-by-a");
    expect(a.body.data).toMatchObject({ disabled: false, status: "active" });
    expect((await fetch(`${server.url}/public-one`, { redirect: "manual" })).status).toBe(302);
  });

  test("its list and export hold only its links; its own link it may edit", async () => {
    const listA = await api(server.url, creatorA, "GET", "/api/links");
    expect(listA.body.data.links.map((l: { id: string }) => l.id)).toEqual(["owned-by-a"]);
    expect((await api(server.url, creatorB, "GET", "/api/links")).body.data.links).toEqual([]);
    const exportB = await api(server.url, creatorB, "GET", "/api/links/export?format=json");
    expect(exportB.body).toEqual([]);
    const patched = await api(server.url, creatorA, "PATCH", "/api/links/owned-by-a", { tags: ["mine"] });
    expect(patched.status).toBe(200);
    expect(patched.body.data.tags).toEqual(["mine"]);
  });

  test("what it imports is its own", async () => {
    const r = await api(server.url, creatorB, "POST", "/api/links/import", "url,custom_url\nhttps://b.example/,imported-by-b\n", { "content-type": "text/csv" });
    expect(r.body.data.created).toHaveLength(1);
    expect((await api(server.url, creatorB, "GET", "/api/links/imported-by-b")).status).toBe(200);
    expect((await api(server.url, creatorA, "GET", "/api/links/imported-by-b")).status).toBe(404);
    expect((await api(server.url, admin, "GET", "/api/links/imported-by-b")).status).toBe(200);
  });
});

describe("users: someone else's links, and a disabled user on every route", () => {
  // Users named by the proxy's header (the test is the trusted proxy); their keys act as they do.
  const as = (name: string, extra: Record<string, string> = {}) => ({ "Remote-User": name, origin: server.url, ...extra });
  let danasKey = "";
  beforeAll(async () => {
    // The first user there ever was is the admin: an admin makes sure dana and erik are plain members.
    expect((await api(server.url, null, "GET", "/api/session", undefined, as("first-admin"))).body.data.scope).toBe("admin");
    for (const name of ["dana", "erik"]) expect((await api(server.url, null, "GET", "/api/session", undefined, as(name))).body.data.scope).toBe("create");
    danasKey = cli(["key", "create", "danas-key", "--user", "dana", "--db", server.dbPath]).out.trim();
    expect((await api(server.url, null, "POST", "/api/create", { url: "https://dana.example/", custom_url: "danas-link" }, as("dana"))).status).toBe(201);
  });

  test("erik's get, patch and delete of dana's link are 404; dana's key and dana's browser reach it", async () => {
    for (const [method, body] of [["GET", undefined], ["PATCH", { disabled: true }], ["DELETE", undefined]] as const) {
      expect((await api(server.url, null, method, "/api/links/danas-link", body, as("erik"))).status).toBe(404);
    }
    expect((await api(server.url, danasKey, "GET", "/api/links/danas-link")).body.data.owner).toBe("dana");
    expect((await api(server.url, null, "GET", "/api/links/danas-link", undefined, as("dana"))).status).toBe(200);
  });

  test("disabled: every management route refuses dana, by her key and by the proxy's word, with 403 user_disabled", async () => {
    expect(cli(["user", "disable", "dana", "--db", server.dbPath]).code).toBe(0);
    const routes = [...ROUTES.map((r) => ({ ...r, path: r.path.replace("owned-by-a", "danas-link").replace("public-one", "danas-link") })), { name: "overview", method: "GET", path: "/api/overview" }, { name: "create", method: "POST", path: "/api/create", body: { url: "https://x.example/" } }];
    for (const route of routes) {
      for (const [key, headers] of [[danasKey, {}], [null, as("dana")]] as const) {
        const r = await api(server.url, key, route.method, route.path, route.body, { ...route.headers, ...headers });
        expect({ route: route.name, status: r.status, code: r.body.code }).toEqual({ route: route.name, status: 403, code: "user_disabled" });
      }
    }
    expect((await api(server.url, admin, "GET", "/api/links/danas-link")).body.data.disabled).toBe(false);
  });
});

// docs/security.md: a revoked key fails on its next request. No window of time is asserted (starting
// the command alone took 1.5-3 s on a loaded machine): the request after the revoke is refused.
test("a revoke from the command line while the service runs: the key's next request is refused", async () => {
  const key = makeKey(server.dbPath, "short-lived");
  expect((await api(server.url, key, "GET", "/api/links")).status).toBe(200);
  const r = cli(["key", "revoke", "short-lived", "--db", server.dbPath]);
  expect(r.code).toBe(0);
  expect((await api(server.url, key, "GET", "/api/links")).status).toBe(401);
}, 30_000);

test("key list shows name, scope and last use, never a key; the service never logs a key", async () => {
  const list = cli(["key", "list", "--db", server.dbPath]);
  expect(list.code).toBe(0);
  expect(list.out).toMatch(/^NAME\s+SCOPE\s+USER\s+CREATED\s+LAST USED\s+STATE/);
  expect(list.out).toMatch(/^admin\s+admin\s+\S+\s+\d{4}-\d\d-\d\dT/m); // used above
  expect(list.out).toMatch(/^team-b\s+create\s+\S+\s+\d{4}-\d\d-\d\dT/m);
  expect(list.out).toMatch(/^old\s+admin\s+.*revoked/m);
  for (const key of [admin, creatorA, creatorB, revoked]) {
    expect(list.out).not.toContain(key.slice(3));
    expect(server.output()).not.toContain(key.slice(3));
  }
  expect(server.output()).toMatch(/^management key=team-a action=update id=owned-by-a result="ok tags"$/m);
  expect(server.output()).toMatch(/^auth failed reason=auth_invalid path=\/api\/links$/m);
});

describe("the failed-attempt limit (its own server: the count is per address)", () => {
  test("ten failures a minute are 401, the eleventh 429 with Retry-After; the owner's right key still works", async () => {
    const fresh = await startServer();
    try {
      const good = makeKey(fresh.dbPath, "good");
      for (let i = 0; i < 10; i++) expect((await api(fresh.url, "sk_wrong", "GET", "/api/links")).status).toBe(401);
      for (let i = 0; i < 5; i++) {
        const r = await api(fresh.url, "sk_wrong", "GET", "/api/links");
        expect(r.status).toBe(429);
        expect(r.body).toMatchObject({ success: false, code: "auth_rate_limited" });
        expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
      // Someone behind the same address cannot lock the owner out.
      expect((await api(fresh.url, good, "GET", "/api/links")).status).toBe(200);
      // Only the first refusal of the minute is logged: a flood of bad keys does not flood the log.
      expect(fresh.output().match(/reason=auth_rate_limited/g)).toHaveLength(1);
      // A request without credentials is not an attempt: it still gets the plain 401.
      expect((await api(fresh.url, null, "GET", "/api/links")).status).toBe(401);
      // Redirects and public creates are not affected.
      expect((await createLink(fresh.url, { url: "https://example.com/", custom_url: "still-works" })).status).toBe(201);
      expect((await fetch(`${fresh.url}/still-works`, { redirect: "manual" })).status).toBe(302);
    } finally {
      await fresh.dispose();
    }
  });
});

describe("key command line", () => {
  test("create prints the key alone on stdout; notes go to stderr", () => {
    const r = cli(["key", "create", "solo", "--scope", "create", "--db", server.dbPath]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^sk_[0-9A-Za-z]{32}\n$/);
    expect(r.err).toContain('created create key "solo"');
  });
  test.each([
    [["key", "create", "solo"], 1, "exists"],
    [["key", "create", "bad name"], 2, "key name"],
    [["key", "create", "x", "--scope", "root"], 2, "--scope"],
    [["key", "revoke", "nobody"], 1, "no key"],
    [["key", "list", "extra"], 2, "takes no name"],
    [["key"], 2, "needs an action"],
    [["--scope", "admin"], 2, "--scope"],
  ])("%p exits %p naming %p", (args, code, named) => {
    const r = cli([...(args as string[]), "--db", server.dbPath]);
    expect(r.code).toBe(code as number);
    expect(r.err).toContain(named as string);
    expect(r.out).toBe("");
  });
  test("generate prints a random secret and stores nothing", () => {
    const before = cli(["key", "list", "--db", server.dbPath]).out;
    const r = cli(["key", "generate"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^sk_[0-9A-Za-z]{32}\n$/);
    expect(cli(["key", "list", "--db", server.dbPath]).out).toBe(before);
  });
});
