// Issue #21, case 7, against real servers: the session Origin check holds the scheme to what
// --base-url or a trusted proxy says; with --base-url, /metrics and the management API answer 421
// to a Host that is not the service's (a DNS-rebinding page in a local browser); every JSON answer
// (and the other non-HTML ones) carries X-Content-Type-Options: nosniff.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";

const BASE_HOST = "s.example.org";
let based: RunningServer; // --base-url https://s.example.org
let basedProxied: RunningServer; // --base-url, and a trusted proxy on 127.0.0.1
let proxied: RunningServer; // a trusted proxy on 127.0.0.1, no --base-url
let plain: RunningServer; // neither
const keys = new Map<RunningServer, string>();

beforeAll(async () => {
  [based, basedProxied, proxied, plain] = await Promise.all([
    startServer({ args: ["--create-rate-limit", "0", "--base-url", `https://${BASE_HOST}`] }),
    startServer({ args: ["--create-rate-limit", "0", "--base-url", `https://${BASE_HOST}`, "--trust-proxy", "127.0.0.1"] }),
    startServer({ args: ["--create-rate-limit", "0", "--trust-proxy", "127.0.0.1"] }),
    startServer({ args: ["--create-rate-limit", "0"] }),
  ]);
  for (const s of [based, basedProxied, proxied, plain]) keys.set(s, makeKey(s.dbPath, "owner"));
});
afterAll(async () => {
  await Promise.all([based, basedProxied, proxied, plain].map((s) => s.dispose()));
});

const keyOf = (s: RunningServer) => keys.get(s)!;
const hostOf = (s: RunningServer) => new URL(s.url).host;
const cookieOf = (r: { headers: Headers }) => (r.headers.get("set-cookie") ?? "").split(";")[0]!;
let address = 0;
/** A sign-in from an address of its own (behind the trusted proxy; the failed-attempt limit is per address). */
const signIn = (s: RunningServer, headers: Record<string, string>) =>
  api(s.url, null, "POST", "/api/session", { key: keyOf(s) }, { "x-forwarded-for": `192.0.2.${++address}`, ...headers });

describe("the session Origin check holds the scheme when it is known", () => {
  test("--base-url https: a sign-in from the http origin of the same host is 403, from the https one 200", async () => {
    const overHttp = await signIn(based, { origin: `http://${BASE_HOST}` });
    expect(overHttp.status).toBe(403);
    expect(overHttp.body.code).toBe("origin_mismatch");
    expect(overHttp.headers.get("set-cookie")).toBeNull();
    const overHttps = await signIn(based, { origin: `https://${BASE_HOST}` });
    expect(overHttps.status).toBe(200);
    expect(overHttps.headers.get("set-cookie")).toEndWith("; Secure");
  });

  test("a trusted proxy saying X-Forwarded-Proto: https: the http origin is 403, the https one 200 (Host and X-Forwarded-Host alike); where nobody says, the host alone decides", async () => {
    const host = hostOf(proxied);
    // Where nobody says the scheme (no --base-url, no X-Forwarded-Proto), both pass, as before:
    // behind a TLS proxy that is not declared, the browser's https origin is still this service.
    for (const s of [plain, proxied]) {
      for (const scheme of ["http", "https"]) {
        const r = await signIn(s, { origin: `${scheme}://${hostOf(s)}` });
        expect({ port: s.port, scheme, status: r.status }).toEqual({ port: s.port, scheme, status: 200 });
      }
      expect((await signIn(s, { origin: "https://evil.example" })).status).toBe(403);
    }
    expect((await signIn(proxied, { "x-forwarded-proto": "https", origin: `http://${host}` })).status).toBe(403);
    expect((await signIn(proxied, { "x-forwarded-proto": "https", origin: `https://${host}` })).status).toBe(200);
    const fwd = { "x-forwarded-proto": "https", "x-forwarded-host": "public.example.net" };
    const refused = await signIn(proxied, { ...fwd, origin: "http://public.example.net" });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("origin_mismatch");
    expect((await signIn(proxied, { ...fwd, origin: "https://public.example.net" })).status).toBe(200);
  });

  test("a change made with the session cookie: the http origin is 403 where the proxy says https, and nothing changes", async () => {
    expect((await createLink(proxied.url, { url: "https://example.com/scheme", custom_url: "scheme-target" })).status).toBe(201);
    const host = hostOf(proxied);
    const cookie = cookieOf(await signIn(proxied, { "x-forwarded-proto": "https", origin: `https://${host}` }));
    expect(cookie).toStartWith("shortener_session=");
    const overHttp = await api(proxied.url, null, "PATCH", "/api/links/scheme-target", { disabled: true }, { cookie, "x-forwarded-proto": "https", origin: `http://${host}` });
    expect(overHttp.status).toBe(403);
    expect(overHttp.body.code).toBe("origin_mismatch");
    expect((await api(proxied.url, keyOf(proxied), "GET", "/api/links/scheme-target")).body.data.disabled).toBe(false);
    const overHttps = await api(proxied.url, null, "PATCH", "/api/links/scheme-target", { disabled: true }, { cookie, "x-forwarded-proto": "https", origin: `https://${host}` });
    expect(overHttps.status).toBe(200);
    expect(overHttps.body.data.disabled).toBe(true);
  });
});

describe("with --base-url, /metrics and the management API answer only the service's own Host", () => {
  async function get(s: RunningServer, path: string, headers: Record<string, string>, key: string | null = null) {
    return api(s.url, key, "GET", path, undefined, headers);
  }

  function expectMisdirected(r: { status: number; headers: Headers; body: any }, what: string) {
    expect({ what, status: r.status }).toEqual({ what, status: 421 });
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.body).toEqual({ success: false, error: expect.stringContaining("Host"), code: "host_mismatch" });
  }

  test("GET /metrics: Host evil.example is 421 JSON; the base URL's host (any spelling) or an address is 200; without --base-url any Host, as before", async () => {
    for (const s of [plain, proxied]) expect((await get(s, "/metrics", { host: "evil.example" })).status).toBe(200);
    const refused = await get(based, "/metrics", { host: "evil.example" });
    expectMisdirected(refused, "/metrics");
    expect(JSON.stringify(refused.body)).not.toContain("shortener_"); // nothing of the metrics leaks
    for (const host of [BASE_HOST, "S.Example.ORG", `${BASE_HOST}.`, `${BASE_HOST}:443`, hostOf(based), `localhost:${based.port}`]) {
      const r = await get(based, "/metrics", { host });
      expect({ host, status: r.status }).toEqual({ host, status: 200 });
      expect(r.body).toContain("shortener_build_info");
    }
    // Another port, or a name that merely contains the service's, is not the service.
    for (const host of [`${BASE_HOST}:8443`, `${BASE_HOST}.evil.example`, `evil-${BASE_HOST}`, `127.0.0.1.nip.io:${based.port}`]) {
      expectMisdirected(await get(based, "/metrics", { host }), host);
    }
  });

  test("GET /api/links with a valid admin key: Host evil.example is 421, the right Host 200; the other management routes too; without --base-url any Host, as before", async () => {
    for (const s of [plain, proxied]) {
      expect((await get(s, "/api/links", { host: "evil.example" }, keyOf(s))).status).toBe(200);
      expect((await get(s, "/api/overview", { host: "evil.example" }, keyOf(s))).status).toBe(200);
    }
    const admin = keyOf(based);
    expectMisdirected(await get(based, "/api/links", { host: "evil.example" }, admin), "/api/links");
    expect((await get(based, "/api/links", { host: BASE_HOST }, admin)).status).toBe(200);
    for (const path of ["/api/links/export", "/api/links/some-link", "/api/overview", "/api/session"]) {
      expectMisdirected(await get(based, path, { host: "evil.example" }, admin), path);
      expect((await get(based, path, { host: BASE_HOST }, admin)).status).not.toBe(421);
    }
    const signIn = await api(based.url, null, "POST", "/api/session", { key: admin }, { host: "evil.example", origin: "https://evil.example" });
    expectMisdirected(signIn, "POST /api/session");
    expect(signIn.headers.get("set-cookie")).toBeNull();
    expectMisdirected(await api(based.url, admin, "DELETE", "/api/links/some-link", undefined, { host: "evil.example" }), "DELETE /api/links/:id");
  });

  test("the public API, pages and redirects are not held to the rule: under the same Host, the management API is 421", async () => {
    const evil = { host: "evil.example" };
    expectMisdirected(await get(based, "/api/links?tag=x", evil, keyOf(based)), "/api/links under the Host the public routes are asked with");
    const made = await createLink(based.url, { url: "https://example.com/public", custom_url: "public-link" }, evil);
    expect(made.status).toBe(201);
    expect(made.body.data.shortUrl).toBe(`https://${BASE_HOST}/public-link`);
    expect((await get(based, "/api/stats?id=public-link", evil)).status).toBe(200);
    expect((await get(based, "/health", evil)).status).toBe(200);
    expect((await get(based, "/", evil)).status).toBe(200);
    expect((await fetch(`${based.url}/public-link`, { headers: evil, redirect: "manual" })).status).toBe(302);
  });

  test("behind a trusted proxy, X-Forwarded-Host is what counts", async () => {
    const admin = keyOf(basedProxied);
    expectMisdirected(await get(basedProxied, "/api/links", { host: BASE_HOST, "x-forwarded-host": "evil.example" }, admin), "XFH evil");
    expectMisdirected(await get(basedProxied, "/metrics", { host: BASE_HOST, "x-forwarded-host": "evil.example" }), "XFH evil /metrics");
    expect((await get(basedProxied, "/api/links", { host: "evil.example", "x-forwarded-host": BASE_HOST, "x-forwarded-proto": "https" }, admin)).status).toBe(200);
    // From a peer that is not trusted, X-Forwarded-Host is ignored: the Host decides.
    expectMisdirected(await get(based, "/api/links", { host: "evil.example", "x-forwarded-host": BASE_HOST }, keyOf(based)), "untrusted XFH");
  });
});

describe("X-Content-Type-Options: nosniff on every JSON answer (and the other non-HTML ones)", () => {
  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  };
  const SAMPLES: [string, string, string, () => RequestInit, number, string][] = [
    ["create 201", "POST", "/api/create", () => ({ body: form({ url: "https://example.com/nosniff" }) }), 201, "application/json"],
    ["create 400", "POST", "/api/create", () => ({ body: form({ url: "javascript:alert(1)" }) }), 400, "application/json"],
    ["stats 404", "GET", "/api/stats?id=no-such-link", () => ({}), 404, "application/json"],
    ["stats 400", "GET", "/api/stats", () => ({}), 400, "application/json"],
    ["/api/links 401", "GET", "/api/links", () => ({}), 401, "application/json"],
    ["/api/session 200", "GET", "/api/session", () => ({}), 200, "application/json"],
    ["/health", "GET", "/health", () => ({}), 200, "application/json"],
    ["unknown /api/x 404", "GET", "/api/x", () => ({}), 404, "application/json"],
    ["/api 404", "GET", "/api", () => ({}), 404, "application/json"],
    ["405", "PUT", "/api/links", () => ({}), 405, "application/json"],
    ["/api/openapi.json", "GET", "/api/openapi.json", () => ({}), 200, "application/json"],
    ["/metrics", "GET", "/metrics", () => ({}), 200, "text/plain"],
    ["robots.txt", "GET", "/robots.txt", () => ({}), 200, "text/plain"],
  ];
  test.each(SAMPLES)("%s", async (_name, method, path, init, status, type) => {
    const res = await fetch(`${plain.url}${path}`, { method, redirect: "manual", ...init() });
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toStartWith(type);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    await res.arrayBuffer();
  });

  test("with a key: a link as JSON, an export as JSON and as CSV", async () => {
    const admin = keyOf(plain);
    expect((await createLink(plain.url, { url: "https://example.com/sniff", custom_url: "sniff-link" })).status).toBe(201);
    for (const path of ["/api/links/sniff-link", "/api/links", "/api/overview", "/api/links/export?format=json", "/api/links/export?format=csv"]) {
      const r = await api(plain.url, admin, "GET", path);
      expect({ path, status: r.status, nosniff: r.headers.get("x-content-type-options") }).toEqual({ path, status: 200, nosniff: "nosniff" });
    }
  });
});
