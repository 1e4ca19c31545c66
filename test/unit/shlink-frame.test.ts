// The Shlink router's own refusals, with routes of the test's own (the parts' routes are tested in
// test/integration/shlink-*.test.ts): the key in ?apiKey= (Shlink's MissingAuthenticationException
// forQueryParam), bodies (JSON, urlencoded and multipart forms; 413 too large), a database away
// (503), our bug (Shlink's internal-server-error type, config/autoload/error-handler.global.php),
// health's fail (module/Rest/src/Action/HealthAction.php), and the CORS policy for "*".

import { expect, test } from "bun:test";
import type { AppDeps } from "../../src/app.ts";
import { corsPolicy } from "../../src/http/cors.ts";
import { createLastResort } from "../../src/http/front-door.ts";
import { shlinkApi } from "../../src/http/compat/shlink/shlink.ts";
import { HEALTH_ROUTES } from "../../src/http/compat/shlink/shlink-health.ts";
import { shlinkJson } from "../../src/http/compat/shlink/shlink-problem.ts";
import type { ShlinkDeps, ShlinkRoute } from "../../src/http/compat/shlink/shlink-route.ts";

const logged: string[] = [];
const log = { info: () => {}, error: (msg: string) => void logged.push(msg) };

const ROUTES: ShlinkRoute[] = [
  { method: "GET", path: "/by-param", auth: "api-key-param", handle: async () => shlinkJson(200, {}) },
  { method: "POST", path: "/echo", auth: "none", handle: async (call) => shlinkJson(200, await call.body()) },
  { method: "GET", path: "/storage-away", auth: "none", handle: () => Promise.reject(Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR" })) },
  { method: "GET", path: "/our-bug", auth: "none", handle: () => Promise.reject(new TypeError("undefined is not a function")) },
  { method: "GET", path: "/items/literal", auth: "none", handle: async () => shlinkJson(200, {}) },
  { method: "GET", path: "/items/:id", auth: "none", handle: async () => shlinkJson(200, {}) },
  { method: "DELETE", path: "/items/:id", auth: "none", handle: async () => shlinkJson(200, {}) },
];

const deps = {
  config: { compat: { yourls: false, kutt: false, shlink: true }, corsOrigins: ["https://app.example"] },
  directory: { defaultDomain: { key: "" } },
  log,
  lastResort: createLastResort(log),
  storage: { ping: () => Promise.reject(new Error("connection refused")) },
  version: "0.1.0",
} as unknown as ShlinkDeps;
const app = shlinkApi(deps, (_request, _server, answer) => answer(), [...ROUTES, ...HEALTH_ROUTES]);

async function ask(path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await app.handle(new Request(`http://s.example${path}`, init));
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === "" ? null : JSON.parse(text) };
}

test("a route keyed by ?apiKey= without one: missing-authentication naming the param", async () => {
  for (const path of ["/rest/v3/by-param", "/rest/v1/by-param?apiKey=", "/rest/v2/by-param?apiKey=%20"]) {
    const answer = await ask(path);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      type: "https://shlink.io/api/error/missing-authentication", title: "Invalid authorization", status: 401,
      detail: 'Expected authentication to be provided in "apiKey" query param', param: "apiKey",
    });
  }
});

test("bodies: a JSON object, a urlencoded form with tags[] (the GNOME extension's), a multipart form", async () => {
  const json = await ask("/rest/v3/echo", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ longUrl: "https://example.com/", tags: ["a"] }) });
  expect(json.body).toEqual({ longUrl: "https://example.com/", tags: ["a"] });
  const form = await ask("/rest/v2/echo", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "longUrl=https%3A%2F%2Fexample.com%2F&tags[]=a&tags[]=b" });
  expect(form.body).toEqual({ longUrl: "https://example.com/", tags: ["a", "b"] });
  const multipart = new FormData();
  multipart.append("longUrl", "https://example.com/");
  multipart.append("tags[]", "a");
  expect((await ask("/rest/v3/echo", { method: "POST", body: multipart })).body).toEqual({ longUrl: "https://example.com/", tags: ["a"] });
  expect((await ask("/rest/v3/echo", { method: "POST" })).body).toEqual({});
});

test("bad bodies are invalid-data; a file in a form names its field; none is a 5xx", async () => {
  for (const body of ["{nope", "[1,2]", '"text"', '{"a":"\\ud800"}']) {
    const answer = await ask("/rest/v3/echo", { method: "POST", headers: { "Content-Type": "application/json" }, body });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: "https://shlink.io/api/error/invalid-data", title: "Invalid data", status: 400, invalidElements: [] });
  }
  const withFile = new FormData();
  withFile.append("longUrl", new Blob(["x"]), "x.txt");
  expect((await ask("/rest/v3/echo", { method: "POST", body: withFile })).body).toMatchObject({ status: 400, invalidElements: ["longUrl"] });
});

test("a body over 16 KiB: 413, a problem of our type, with CORS headers", async () => {
  const answer = await ask("/rest/v3/echo", { method: "POST", headers: { "Content-Type": "application/json", Origin: "https://app.example" }, body: JSON.stringify({ title: "x".repeat(17 * 1024) }) });
  expect(answer.status).toBe(413);
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
  expect(answer.body).toEqual({ type: "urn:shortener:error:body_too_large", title: "body_too_large", status: 413, detail: expect.stringContaining("16384") });
  expect(answer.headers.get("access-control-allow-origin")).toBe("https://app.example");
});

test("the database away: 503 of ours, logged; our bug: 500 internal-server-error with a request id, logged, nothing of the error shown", async () => {
  const away = await ask("/rest/v3/storage-away", { headers: { Origin: "https://app.example" } });
  expect(away.status).toBe(503);
  expect(away.body).toMatchObject({ type: "urn:shortener:error:storage_unavailable", status: 503 });
  expect(away.headers.get("access-control-allow-origin")).toBe("https://app.example");
  const bug = await ask("/rest/v3/our-bug");
  expect(bug.status).toBe(500);
  expect(bug.body).toMatchObject({ type: "https://shlink.io/api/error/internal-server-error", status: 500 });
  expect(bug.body.detail).toContain(bug.headers.get("x-request-id")!);
  expect(JSON.stringify(bug.body)).not.toContain("undefined is not a function");
  expect(logged).toEqual(["request failed: storage unavailable", "request failed"]);
});

test("a path a literal and a parameter route share: each method named once, in Allow and in a preflight", async () => {
  const method = await ask("/rest/v3/items/literal", { method: "PUT" });
  expect(method.status).toBe(405);
  expect(method.headers.get("allow")).toBe("GET, DELETE");
  const preflight = await ask("/rest/v3/items/literal", { method: "OPTIONS", headers: { Origin: "https://app.example", "Access-Control-Request-Method": "DELETE" } });
  expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, DELETE");
});

test("health when the database does not answer: 503 fail, still version 5.1.0", async () => {
  const answer = await ask("/rest/v3/health");
  expect(answer.status).toBe(503);
  expect(answer.headers.get("content-type")).toBe("application/health+json");
  expect(answer.body).toMatchObject({ status: "fail", version: "5.1.0" });
});

test('CORS "*": any origin, never with credentials, no Vary; a preflight echoes header names only', () => {
  const cors = corsPolicy("*", { allowHeaders: ["X-Api-Key"], maxAgeSeconds: 60 });
  const request = new Request("http://s.example/rest/v3/tags", { method: "OPTIONS", headers: { Origin: "https://any.example", "Access-Control-Request-Headers": "X-Api-Key, x-a, x a, x-b," } });
  const preflight = cors.preflight(request, ["GET", "PUT"]);
  expect(preflight.status).toBe(204);
  expect(Object.fromEntries(preflight.headers)).toEqual({
    allow: "GET, PUT", "access-control-allow-origin": "*", "access-control-allow-methods": "GET, PUT", "access-control-allow-headers": "X-Api-Key, x-a, x-b", "access-control-max-age": "60",
  });
  const answered = cors.withCors(new Request("http://s.example/rest/v3/tags", { headers: { Origin: "null" } }), new Response("{}"));
  expect(answered.headers.get("access-control-allow-origin")).toBe("*");
  expect(answered.headers.get("access-control-allow-credentials")).toBeNull();
  expect(answered.headers.get("vary")).toBeNull();
  // Chromium's Private Network Access preflight: allowed for an allowed origin only.
  const privateNetwork = { "Access-Control-Request-Method": "GET", "Access-Control-Request-Private-Network": "true" };
  const listed = corsPolicy(["https://app.example"], { allowHeaders: [], maxAgeSeconds: 60 });
  const ask = (origin: string) => listed.preflight(new Request("http://10.0.0.2/rest/v3/health", { method: "OPTIONS", headers: { Origin: origin, ...privateNetwork } }), ["GET"]);
  expect(ask("https://app.example").headers.get("access-control-allow-private-network")).toBe("true");
  expect(ask("https://elsewhere.example").headers.get("access-control-allow-private-network")).toBeNull();
  // No origins: nothing at all, and nothing to vary on.
  const none = corsPolicy([], { allowHeaders: [], maxAgeSeconds: 60 }).withCors(new Request("http://s.example/", { headers: { Origin: "https://any.example" } }), new Response("{}"));
  expect([...none.headers.keys()].filter((h) => h.startsWith("access-control") || h === "vary")).toEqual([]);
});
