// The Shlink surface's frame (docs/shlink-api.md): keys, CORS, problem documents, health and the
// hosts it answers on, against a real server on both engines. Shapes as Shlink 5.1 gives them
// (shlinkio/shlink): problems per docs/swagger/definitions/Error.json (type, title, detail, status
// required), the auth refusals of module/Rest/test-api/Middleware/AuthenticationTest.php, CORS as
// module/Rest/test-api/Middleware/CorsTest.php (preflight 204, Allow-Methods, Max-Age), health per
// docs/swagger/paths/health.json and module/Rest/src/Action/HealthAction.php.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cli, makeKey } from "../support/admin.ts";
import { onHost, serverWithDomains } from "../support/domains.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

/** The web client's page: named in Origin only, never contacted. */
const APP = "https://app.example";
const ELSEWHERE = "https://elsewhere.example";
const SHLINK_ERROR = "https://shlink.io/api/error/";

type Answer = { status: number; headers: Headers; body: any };

async function call(server: RunningServer, path: string, init: RequestInit & { host?: string } = {}): Promise<Answer> {
  const res = init.host ? await onHost(server, init.host, path, init) : await fetch(`${server.url}${path}`, { redirect: "manual", ...init });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === "" ? null : JSON.parse(text) };
}

/** A problem document as the web client reads one (shlink-web-component src/api-contract/utils.ts isProblemDetails). */
function expectProblem(answer: Answer, status: number, type: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
  expect(answer.body).toMatchObject({ type, status });
  expect(typeof answer.body.title).toBe("string");
  expect(typeof answer.body.detail).toBe("string");
}

describe("--cors-origin lists the web client's origin; a short domain b.example", () => {
  let server: RunningServer;
  let admin: string;
  let creator: string;
  beforeAll(async () => {
    server = await serverWithDomains([{ name: "s.example", isDefault: true }, { name: "b.example" }], [], { args: ["--cors-origin", APP] });
    admin = makeKey(server.dbPath, "admin");
    creator = makeKey(server.dbPath, "creator", "create");
  }, 60_000);
  afterAll(() => server?.dispose());

  test("no key: 401 missing-authentication naming X-Api-Key; a wrong one: invalid-api-key; v1, v2 and v3 alike", async () => {
    for (const v of ["v1", "v2", "v3"]) {
      const missing = await call(server, `/rest/${v}/mercure-info`);
      expectProblem(missing, 401, `${SHLINK_ERROR}missing-authentication`);
      expect(missing.body).toEqual({
        type: `${SHLINK_ERROR}missing-authentication`, title: "Invalid authorization", status: 401,
        detail: 'Expected one of the following authentication headers, ["X-Api-Key"], but none were provided', expectedHeaders: ["X-Api-Key"],
      });
      const wrong = await call(server, `/rest/${v}/mercure-info`, { headers: { "X-Api-Key": "sk_nope" } });
      expect(wrong.body).toEqual({ type: `${SHLINK_ERROR}invalid-api-key`, title: "Invalid API key", status: 401, detail: "Provided API key does not exist or is invalid." });
      // A key in Authorization (our own API's place) is not Shlink's: still missing.
      expectProblem(await call(server, `/rest/${v}/mercure-info`, { headers: { Authorization: `Bearer ${admin}` } }), 401, `${SHLINK_ERROR}missing-authentication`);
    }
  });

  test("a right key, admin or create: mercure-info is 501 mercure-not-configured (module/Rest/src/Exception/MercureException.php)", async () => {
    for (const key of [admin, creator]) {
      const answer = await call(server, "/rest/v3/mercure-info", { headers: { "X-Api-Key": key } });
      expect(answer.status).toBe(501);
      expect(answer.body).toEqual({ type: `${SHLINK_ERROR}mercure-not-configured`, title: "Mercure integration not configured", status: 501, detail: "This Shlink instance is not integrated with a mercure hub." });
    }
  });

  test("health: 200 pass, version 5.1.0 (docs/shlink-api.md: Version), no key, at /rest/health and /rest/v{1,2,3}/health", async () => {
    for (const path of ["/rest/health", "/rest/v1/health", "/rest/v2/health", "/rest/v3/health"]) {
      const answer = await call(server, path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("application/health+json");
      expect(answer.body).toEqual({ status: "pass", version: "5.1.0", links: { about: expect.any(String), project: expect.any(String) } });
      expect(answer.headers.get("x-shortener-version")).toMatch(/^\d+\.\d+\.\d+/);
    }
    // HEAD too, as any GET route.
    expect((await fetch(`${server.url}/rest/v3/health`, { method: "HEAD" })).status).toBe(200);
  });

  test("health answers on a short domain's host, with CORS (the web client asks each domain: domainsList.ts); the rest is the main domain's", async () => {
    const health = await call(server, "/rest/v3/health", { host: "b.example", headers: { Origin: APP } });
    expect(health.status).toBe(200);
    expect(health.body.status).toBe("pass");
    expect(health.headers.get("access-control-allow-origin")).toBe(APP);
    const preflight = await call(server, "/rest/v3/health", { host: "b.example", method: "OPTIONS", headers: { Origin: APP, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-api-key" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET");
    const elsewhere = await call(server, "/rest/v3/mercure-info", { host: "b.example", headers: { Origin: APP, "X-Api-Key": admin } });
    expectProblem(elsewhere, 404, `${SHLINK_ERROR}not-found`);
    expect(elsewhere.headers.get("access-control-allow-origin")).toBe(APP);
    // A host no domain has: our 421, as a problem document.
    expectProblem(await call(server, "/rest/v3/health", { host: "c.example" }), 421, "urn:shortener:error:host_unknown");
  });

  test("a host no domain has: the 421 problem carries CORS for the allowed origin (the browser shows it); a preflight there is answered", async () => {
    for (const [path, init] of [["/rest/v3/health", {}], ["/rest/v3/short-urls", { headers: { "X-Api-Key": admin } }], ["/rest", {}]] as const) {
      const refused = await call(server, path, { ...init, host: "c.example", headers: { ...((init as RequestInit).headers as Record<string, string>), Origin: APP } });
      expectProblem(refused, 421, "urn:shortener:error:host_unknown");
      expect([path, refused.headers.get("access-control-allow-origin")]).toEqual([path, APP]);
    }
    // A preflight that is not 2xx fails in the browser and hides the 421 the request then gets.
    const preflight = await call(server, "/rest/v3/short-urls", { host: "c.example", method: "OPTIONS", headers: { Origin: APP, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-api-key" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(APP);
    // An origin not listed earns nothing there either.
    const other = await call(server, "/rest/v3/health", { host: "c.example", headers: { Origin: ELSEWHERE } });
    expect(other.status).toBe(421);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("/rest and /rest/ are no route: Shlink's not-found problem (not the link 404 page), on the main and a short domain", async () => {
    for (const path of ["/rest", "/rest/"]) {
      const main = await call(server, path, { headers: { Origin: APP } });
      expectProblem(main, 404, `${SHLINK_ERROR}not-found`);
      expect(main.headers.get("access-control-allow-origin")).toBe(APP);
      expectProblem(await call(server, path, { host: "b.example" }), 404, `${SHLINK_ERROR}not-found`);
    }
  });

  test("an allowed origin: its echo, credentials and Vary: Origin, on answers and on errors (401, 404, 405, 501)", async () => {
    const asked: [string, RequestInit, number][] = [
      ["/rest/v3/health", {}, 200],
      ["/rest/v3/mercure-info", {}, 401],
      ["/rest/v3/no-such-route", { headers: { "X-Api-Key": admin } }, 404],
      ["/rest/v4/health", {}, 404],
      ["/rest/v3/health", { method: "POST" }, 405],
      ["/rest/v3/mercure-info", { headers: { "X-Api-Key": admin } }, 501],
    ];
    for (const [path, init, status] of asked) {
      const answer = await call(server, path, { ...init, headers: { ...(init.headers as Record<string, string>), Origin: APP } });
      expect(answer.status).toBe(status);
      expect(answer.headers.get("access-control-allow-origin")).toBe(APP);
      expect(answer.headers.get("access-control-allow-credentials")).toBe("true");
      expect(answer.headers.get("vary")).toContain("Origin");
      if (status >= 400) expect(answer.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  test("unknown route: not-found; a route's other method: 405 with Allow, as a problem of ours", async () => {
    const unknown = await call(server, "/rest/v3/short-urls-nope", { headers: { "X-Api-Key": admin } });
    expectProblem(unknown, 404, `${SHLINK_ERROR}not-found`);
    expect(unknown.body.title).toBe("Not Found");
    const method = await call(server, "/rest/v2/health", { method: "DELETE" });
    expectProblem(method, 405, "urn:shortener:error:method_not_allowed");
    expect(method.headers.get("allow")).toBe("GET");
  });

  test("preflight from the allowed origin: 204, the route's methods, X-Api-Key and Content-Type and what was asked, max age", async () => {
    for (const v of ["v1", "v2", "v3"]) {
      const answer = await call(server, `/rest/${v}/mercure-info`, {
        method: "OPTIONS",
        headers: { Origin: APP, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-api-key, content-type, x-requested-with, bad(name)" },
      });
      expect(answer.status).toBe(204);
      expect(answer.body).toBeNull();
      expect(answer.headers.get("access-control-allow-origin")).toBe(APP);
      expect(answer.headers.get("access-control-allow-credentials")).toBe("true");
      expect(answer.headers.get("access-control-allow-methods")).toBe("GET");
      expect(answer.headers.get("access-control-allow-headers")).toBe("X-Api-Key, Content-Type, x-requested-with");
      expect(answer.headers.get("access-control-max-age")).toBe("3600");
    }
    // A path no route has gets every method (as Shlink's CorsTest 'invalid route'): the request then reads our not-found.
    const unknown = await call(server, "/rest/v3/nothing/here", { method: "OPTIONS", headers: { Origin: APP, "Access-Control-Request-Method": "GET" } });
    expect(unknown.status).toBe(204);
    expect(unknown.headers.get("access-control-allow-methods")).toBe("GET, POST, PUT, PATCH, DELETE");
  });

  test("an origin not listed: no CORS headers on answers, errors or preflights (the browser refuses)", async () => {
    for (const init of [{}, { method: "OPTIONS", headers: { "Access-Control-Request-Method": "GET" } }] as RequestInit[]) {
      for (const path of ["/rest/v3/health", "/rest/v3/mercure-info"]) {
        const answer = await call(server, path, { ...init, headers: { ...(init.headers as Record<string, string>), Origin: ELSEWHERE } });
        for (const name of ["access-control-allow-origin", "access-control-allow-credentials", "access-control-allow-methods", "access-control-allow-headers"]) {
          expect(answer.headers.get(name)).toBeNull();
        }
        expect(answer.headers.get("vary")).toContain("Origin");
      }
    }
    // Without Origin (not a browser's cross-origin call): nothing either.
    expect((await call(server, "/rest/v3/health")).headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("no --cors-origin (the default)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 60_000);
  afterAll(() => server?.dispose());

  test("no origin is allowed: answers, errors and preflights carry no CORS headers", async () => {
    const answers = [
      await call(server, "/rest/v3/health", { headers: { Origin: APP } }),
      await call(server, "/rest/v3/mercure-info", { headers: { Origin: APP } }),
      await call(server, "/rest/v3/health", { method: "OPTIONS", headers: { Origin: APP, "Access-Control-Request-Method": "GET" } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 204]);
    for (const answer of answers) {
      expect(answer.headers.get("access-control-allow-origin")).toBeNull();
      expect(answer.headers.get("access-control-allow-methods")).toBeNull();
    }
    expect(answers[2]!.headers.get("allow")).toBe("GET");
  });

  test("a revoked key is invalid-api-key on a reading and a changing route, and nothing is changed", async () => {
    const gone = makeKey(server.dbPath, "gone-admin");
    expect(cli(["key", "revoke", "gone-admin", "--db", server.dbPath]).code).toBe(0);
    const headers = { "X-Api-Key": gone, "Content-Type": "application/json" };
    expectProblem(await call(server, "/rest/v3/short-urls", { headers }), 401, "https://shlink.io/api/error/invalid-api-key");
    const create = await call(server, "/rest/v3/short-urls", { method: "POST", headers, body: JSON.stringify({ longUrl: "https://example.com/", customSlug: "by-revoked" }) });
    expectProblem(create, 401, "https://shlink.io/api/error/invalid-api-key");
    expect((await fetch(`${server.url}/by-revoked`, { redirect: "manual" })).status).toBe(404);
  });
});

describe("--cors-origin '*' and --base-url: our 421 and 429 as problem documents with CORS headers", () => {
  let server: RunningServer;
  let admin: string;
  beforeAll(async () => {
    server = await startServer({ args: ["--cors-origin", "*", "--base-url", "http://s.example"] });
    admin = makeKey(server.dbPath, "admin");
  }, 60_000);
  afterAll(() => server?.dispose());

  test("a name that is not ours (DNS rebinding) is 421 for a key route; health still answers there", async () => {
    const refused = await call(server, "/rest/v3/mercure-info", { host: "rebound.example", headers: { Origin: APP, "X-Api-Key": admin } });
    expectProblem(refused, 421, "urn:shortener:error:host_mismatch");
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    // "*" never with credentials (browsers refuse the pair): no Allow-Credentials, and no Vary.
    expect(refused.headers.get("access-control-allow-credentials")).toBeNull();
    expect(refused.headers.get("vary") ?? "").not.toContain("Origin");
    expect((await call(server, "/rest/v3/health", { host: "rebound.example" })).status).toBe(200);
  });

  test("failed keys past the limit: 429 of ours with Retry-After (last: it holds this address for a minute)", async () => {
    let last: Answer | null = null;
    for (let i = 0; i < 15 && last?.status !== 429; i++) last = await call(server, "/rest/v3/mercure-info", { headers: { Origin: ELSEWHERE, "X-Api-Key": `sk_wrong${i}` } });
    expectProblem(last!, 429, "urn:shortener:error:auth_rate_limited");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("--compat yourls,kutt (Shlink left out)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ args: ["--compat", "yourls,kutt", "--cors-origin", APP] });
  }, 60_000);
  afterAll(() => server?.dispose());

  test("/rest/v3/health is our ordinary 404 page, as any unknown path, with no CORS headers", async () => {
    const unknown = await fetch(`${server.url}/no/such-page`);
    const unknownBody = await unknown.text();
    for (const init of [{}, { method: "OPTIONS", headers: { "Access-Control-Request-Method": "GET" } }] as RequestInit[]) {
      const res = await fetch(`${server.url}/rest/v3/health`, { ...init, headers: { ...(init.headers as Record<string, string>), Origin: APP } });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe(unknown.headers.get("content-type"));
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      if (init.method === undefined) expect(await res.text()).toBe(unknownBody);
    }
  });
});
