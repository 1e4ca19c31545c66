// Signing in by an auth proxy's headers, through a real Caddy (test/support/caddy.ts) with
// forward_auth, on either engine: the proxy's user is believed from the trusted proxy and ignored
// from anyone else; groups make admins and keep others out; a disabled user is refused on the next
// request; a change needs this service's Origin. And `--auth-header tailscale` from loopback only.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { onPostgres, startServer, type RunningServer } from "../support/server.ts";
import { api, cli } from "../support/admin.ts";
import { getFrom, startCaddy, type RunningCaddy } from "../support/caddy.ts";

let server: RunningServer;
let caddy: RunningCaddy;

beforeAll(async () => {
  server = await startServer({
    args: ["--trust-proxy", "127.0.0.1", "--auth-header", "Remote-User", "--auth-admin-group", "admins", "--auth-allowed-group", "staff", "--create-access", "key"],
  });
  caddy = await startCaddy(`127.0.0.1:${server.port}`);
});
afterAll(async () => {
  await caddy?.stop();
  await server?.dispose();
});

const as = (user: string, extra: Record<string, string> = {}) => ({ cookie: `test_user=${user}`, ...extra });

describe("through Caddy's forward_auth", () => {
  test("without the proxy's sign-in, Caddy answers 401 and the service is never asked", async () => {
    expect((await api(caddy.url, null, "GET", "/api/session")).status).toBe(401);
  });

  test("alice (admins) is signed in by the headers: GET /api/session says who, via header", async () => {
    const r = await api(caddy.url, null, "GET", "/api/session", undefined, as("alice"));
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ signedIn: true, name: "alice", scope: "admin", via: "header", user: { name: "alice", email: "alice@example.test", admin: true, source: "header" } });
  });

  test("bob (staff) owns what he makes and sees only that; alice sees everyone's", async () => {
    const make = (user: string, id: string) => api(caddy.url, null, "POST", "/api/create", { url: `https://example.com/${id}`, custom_url: id }, as(user, { origin: caddy.url }));
    expect((await make("alice", "proxy-alice")).status).toBe(201);
    const made = await make("bob", "proxy-bob");
    expect(made.status).toBe(201);
    const list = async (user: string) => (await api(caddy.url, null, "GET", "/api/links", undefined, as(user))).body.data.links.map((l: any) => `${l.id}:${l.owner}`);
    expect(await list("bob")).toEqual(["proxy-bob:bob"]);
    expect(await list("alice")).toEqual(expect.arrayContaining(["proxy-alice:alice", "proxy-bob:bob"]));
    expect((await api(caddy.url, null, "GET", "/api/links/proxy-alice", undefined, as("bob"))).status).toBe(404);
    expect((await api(caddy.url, null, "DELETE", "/api/links/proxy-alice", undefined, as("bob", { origin: caddy.url }))).status).toBe(404);
  });

  test("a change without this service's Origin is refused (the proxy's cookie would carry it cross-site)", async () => {
    const r = await api(caddy.url, null, "PATCH", "/api/links/proxy-bob", { disabled: true }, as("bob", { origin: "https://evil.example" }));
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("origin_mismatch");
  });

  test("carol, outside --auth-allowed-group, is refused with group_not_allowed", async () => {
    const r = await api(caddy.url, null, "GET", "/api/links", undefined, as("carol"));
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("group_not_allowed");
  });

  test("Authentik's groups, separated by |, are a list like Authelia's commas", async () => {
    const r = await api(server.url, null, "GET", "/api/session", undefined, { "Remote-User": "erin", "Remote-Groups": "staff|admins" });
    expect(r.body.data).toMatchObject({ signedIn: true, name: "erin", scope: "admin" });
  });

  test("user disable takes effect on the next request; enable lets them in again", async () => {
    expect(cli(["user", "disable", "bob", "--db", server.dbPath]).code).toBe(0);
    const r = await api(caddy.url, null, "GET", "/api/links", undefined, as("bob"));
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("user_disabled");
    expect(cli(["user", "enable", "bob", "--db", server.dbPath]).code).toBe(0);
    expect((await api(caddy.url, null, "GET", "/api/links", undefined, as("bob"))).status).toBe(200);
    expect(cli(["user", "list", "--db", server.dbPath]).out).toMatch(/alice\s+header\s+alice@example.test\s+admin/);
  });
});

// Sessions and users are read from the database on every request (no cache), so a disable reaches
// every instance at once; with PostgreSQL several instances share one database.
test.skipIf(!onPostgres)("a disable reaches another instance on the same PostgreSQL database at once", async () => {
  const other = await startServer({ database: server.dbPath, args: ["--trust-proxy", "127.0.0.1", "--auth-header", "Remote-User", "--auth-allowed-group", "staff"] });
  try {
    const dan = { "Remote-User": "dan", "Remote-Groups": "staff" };
    expect((await api(other.url, null, "GET", "/api/links", undefined, dan)).status).toBe(200);
    expect((await api(server.url, null, "GET", "/api/links", undefined, dan)).status).toBe(200);
    expect(cli(["user", "disable", "dan", "--db", server.dbPath]).code).toBe(0);
    for (const instance of [server, other]) {
      const r = await api(instance.url, null, "GET", "/api/links", undefined, dan);
      expect(r.status).toBe(403);
      expect(r.body.code).toBe("user_disabled");
    }
  } finally {
    await other.dispose();
  }
});

describe("the same headers, not from the trusted proxy", () => {
  const forged = { "Remote-User": "alice", "Remote-Groups": "admins,staff" };

  test("sent straight to the service from another address, they are ignored: not signed in, 401", async () => {
    expect((await getFrom("127.0.0.9", `${server.url}/api/session`, forged)).body.data.signedIn).toBe(false);
    const links = await getFrom("127.0.0.9", `${server.url}/api/links`, forged);
    expect(links.status).toBe(401);
    expect(links.body.code).toBe("auth_required");
  });

  test("sent to Caddy by the client, they are replaced by the auth endpoint's answer", async () => {
    const r = await api(caddy.url, null, "GET", "/api/session", undefined, as("bob", forged));
    expect(r.body.data).toMatchObject({ name: "bob", scope: "create" });
  });

  test("sent to Caddy for a user whose answer has no groups, they are dropped, not passed on", async () => {
    // dave's auth answer names no groups: the client's forged "admins,staff" would let him in as an admin.
    const r = await api(caddy.url, null, "GET", "/api/session", undefined, as("dave", { ...forged, "Remote-Email": "boss@example.test" }));
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("group_not_allowed");
  });
});

describe("--auth-header tailscale", () => {
  let tailnet: RunningServer;
  beforeAll(async () => {
    tailnet = await startServer({ args: ["--auth-header", "tailscale"] });
  });
  afterAll(() => tailnet.dispose());

  test("Tailscale-User-Login from loopback (tailscale serve) signs in; the first user is the admin", async () => {
    const r = await api(tailnet.url, null, "GET", "/api/session", undefined, { "Tailscale-User-Login": "ann@example.com" });
    expect(r.body.data).toMatchObject({ signedIn: true, name: "ann@example.com", scope: "admin", user: { source: "tailscale", admin: true } });
    const second = await api(tailnet.url, null, "GET", "/api/session", undefined, { "Tailscale-User-Login": "ben@example.com" });
    expect(second.body.data).toMatchObject({ name: "ben@example.com", scope: "create" });
  });

  test("from any other address the header is ignored", async () => {
    const r = await getFrom("127.0.0.9", `${tailnet.url}/api/session`, { "Tailscale-User-Login": "ann@example.com" });
    expect(r.body.data.signedIn).toBe(false);
  });

  test("--auth-header without --trust-proxy is a start-up error", () => {
    const r = cli(["--auth-header", "Remote-User"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("needs --trust-proxy");
  });
});
