// GET /api/openapi.json: a valid OpenAPI 3.1 document (checked by a maintained validator) that
// names every API route the app has; and one walk through every operation, each response held to
// its schema by the contract preload (test/support/contract.ts).

import { eventually } from "../support/eventually.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createApp, type AppDeps } from "../../src/app.ts";
import { OPERATIONS } from "../../src/http/openapi/document.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { api, importedThroughApi, makeKey } from "../support/admin.ts";
import { contractSeen } from "../support/contract.ts";
import { drained } from "../support/clicks.ts";
import { CookieWalker, serviceWithProvider } from "../support/oidc-provider.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--allow-schemes", "tg"] });
});
afterAll(() => server.dispose());

test("the document is a valid OpenAPI 3.1 document", async () => {
  const res = await fetch(`${server.url}/api/openapi.json`);
  expect(res.status).toBe(200);
  const doc = await res.json();
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
  const result = await new Validator().validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

test("every API route of the app is in the document, and nothing else", () => {
  // The app is only built here (not served): its routes are what Elysia would match.
  const app = createApp({ version: "0.0.0", config: { compat: { yourls: true, kutt: true, shlink: true } } } as AppDeps);
  const routed = new Set<string>();
  for (const r of app.routes) {
    if (r.method === "ALL" || r.method === "HEAD") continue; // the 404/405 catch-alls; HEAD mirrors GET
    if (r.path.startsWith("/api/v2/")) continue; // the Kutt API: Kutt's reference is its own (docs/kutt-api.md)
    const path = r.path.replace(/:(\w+)/g, "{$1}");
    if (path.startsWith("/api/") || path === "/health" || path === "/metrics" || path === "/{id}" || path === "/{id}/qr") routed.add(`${r.method} ${path}`);
  }
  const documented = new Set(OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`));
  expect([...routed].sort()).toEqual([...documented].sort());
});

test("one walk through every operation: every answer matches its schema", async () => {
  const key = makeKey(server.dbPath, "walker");
  const auth = { authorization: `Bearer ${key}` };
  expect((await createLink(server.url, { url: "https://example.com/walk", custom_url: "walk", tags: "a,b", max_clicks: "3" }, auth)).status).toBe(201);
  expect((await createLink(server.url, { url: "nope" })).status).toBe(400);
  expect((await fetch(`${server.url}/walk`, { redirect: "manual" })).status).toBe(302);
  expect((await fetch(`${server.url}/nothing-here`, { redirect: "manual" })).status).toBe(404);
  // A link with a redirect code and a password of its own: the header, and the page's form.
  expect((await createLink(server.url, { url: "https://example.com/perm", custom_url: "perm", redirect_type: "301", password: "pw" }, auth)).status).toBe(201);
  expect((await fetch(`${server.url}/perm`, { redirect: "manual", headers: { "x-link-password": "pw" } })).status).toBe(301);
  expect((await fetch(`${server.url}/perm`, { redirect: "manual", headers: { "x-link-password": "wrong" } })).status).toBe(403);
  expect((await fetch(`${server.url}/perm`, { method: "POST", body: new URLSearchParams({ password: "pw" }), redirect: "manual" })).status).toBe(303);
  // A link into an app (--allow-schemes tg): its page, from a GET and from the password form.
  expect((await createLink(server.url, { url: "tg://resolve?domain=walk", custom_url: "app-walk", password: "pw" }, auth)).status).toBe(201);
  expect((await fetch(`${server.url}/app-walk`, { redirect: "manual", headers: { "x-link-password": "pw" } })).status).toBe(200);
  expect((await fetch(`${server.url}/app-walk`, { method: "POST", body: new URLSearchParams({ password: "pw" }), redirect: "manual" })).status).toBe(200);
  await drained(server.url);
  expect((await api(server.url, null, "GET", "/api/stats?id=walk")).status).toBe(200);
  expect((await fetch(`${server.url}/walk/qr?format=svg`)).status).toBe(200);
  expect((await api(server.url, null, "GET", "/api/stats?id=nothing-here")).status).toBe(404);
  expect((await api(server.url, key, "GET", "/api/links?include=daily")).status).toBe(200);
  expect((await api(server.url, null, "GET", "/api/links")).status).toBe(401);
  expect((await api(server.url, key, "GET", "/api/links/walk")).status).toBe(200);
  // Above the single link (docs/statistics.md: Tags and domains): while walk still carries its tags.
  expect((await api(server.url, key, "GET", "/api/stats/tag?tag=a")).status).toBe(200);
  expect((await api(server.url, key, "GET", "/api/stats/domain")).status).toBe(200);
  expect((await api(server.url, key, "GET", "/api/stats/compare?ids=walk,perm")).status).toBe(200);
  expect((await api(server.url, key, "PATCH", "/api/links/walk", { disabled: true, tags: null })).status).toBe(200);
  expect((await fetch(`${server.url}/walk`, { redirect: "manual" })).status).toBe(410);
  expect((await api(server.url, key, "GET", "/api/links/export?format=json")).status).toBe(200);
  expect((await api(server.url, key, "GET", "/api/links/export?format=csv")).status).toBe(200);
  expect((await api(server.url, key, "POST", "/api/links/import", "url,custom_url\nhttps://example.com/i,walk-imported\nbad,x\n", { "content-type": "text/csv" })).status).toBe(200);
  expect((await api(server.url, key, "GET", "/api/overview")).status).toBe(200);
  // The exports of visits, a link's and to no link (/nothing-here above was one).
  expect((await api(server.url, key, "GET", "/api/visits/export?format=jsonl")).status).toBe(200);
  expect((await api(server.url, key, "GET", "/api/orphan-visits")).status).toBe(200);
  expect((await api(server.url, key, "GET", "/api/orphan-visits/export")).status).toBe(200);
  const moving = await importedThroughApi(server.url, key, { from: "csv", csv: "url,custom_url\nhttps://example.com/m,walk-moved\n" });
  expect([moving.started.status, moving.job.state]).toEqual([202, "done"]);
  const signIn = await api(server.url, null, "POST", "/api/session", { key });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
  expect((await api(server.url, null, "GET", "/api/session", undefined, { cookie })).status).toBe(200);
  expect((await api(server.url, null, "DELETE", "/api/session", undefined, { cookie, origin: server.url })).status).toBe(200);
  await webhookRound(key);
  // Share links (docs/statistics.md: Sharing statistics): made, listed, read with the token, revoked.
  const shared = await api(server.url, key, "POST", "/api/links/walk/shares", { label: "walk", expiresAt: null });
  expect(shared.status).toBe(201);
  expect((await api(server.url, key, "GET", "/api/links/walk/shares")).status).toBe(200);
  expect((await api(server.url, null, "GET", `/api/stats/shared/${shared.body.data.token}`)).status).toBe(200);
  expect((await api(server.url, key, "DELETE", `/api/links/walk/shares/${shared.body.data.id}`)).status).toBe(200);
  expect((await api(server.url, null, "GET", `/api/stats/shared/${shared.body.data.token}`)).status).toBe(404);
  expect((await api(server.url, key, "DELETE", "/api/links/walk")).status).toBe(200);
  expect((await fetch(`${server.url}/health`)).status).toBe(200);
  expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
  expect((await fetch(`${server.url}/api/openapi.json`)).status).toBe(200);
  await oidcRound();
  await domainRound(key);
  // Each operation's success was checked against its schema at least once, here or before.
  for (const op of OPERATIONS) {
    const success = Object.keys(op.responses).map(Number).find((s) => s < 400)!;
    expect({ op: `${op.method.toUpperCase()} ${op.path} ${success}`, seen: (contractSeen.get(`${op.method.toUpperCase()} ${op.path} ${success}`) ?? 0) > 0 }).toEqual({
      op: `${op.method.toUpperCase()} ${op.path} ${success}`,
      seen: true,
    });
  }
}, 30_000);

/** Every domain route: two added, listed (both ways), one changed, asked for its certificate, removed (last: the default keeps its name). */
async function domainRound(key: string): Promise<void> {
  expect((await api(server.url, key, "POST", "/api/domains", { name: "walk.example.org" })).status).toBe(201);
  expect((await api(server.url, key, "POST", "/api/domains", { name: "walk.example.net", robots: "none" })).status).toBe(201);
  expect((await api(server.url, key, "GET", "/api/domains")).body.domains.length).toBe(2);
  expect((await api(server.url, key, "GET", "/api/domains?for=create")).body.domains.length).toBe(2);
  expect((await api(server.url, key, "PATCH", "/api/domains/walk.example.net", { https: false, creators: { users: [], keys: [1] } })).status).toBe(200);
  expect((await api(server.url, null, "GET", "/api/domains/tls?domain=walk.example.net")).status).toBe(200);
  expect((await api(server.url, null, "GET", "/api/domains/tls?domain=elsewhere.example.net")).status).toBe(404);
  expect((await api(server.url, key, "DELETE", "/api/domains/walk.example.net")).status).toBe(200);
}

/** Every webhook route, and both live streams (opened, their first event read, closed). */
async function webhookRound(key: string): Promise<void> {
  // A public name that is never resolved here: its deliveries fail and wait in the log, which is what the walk needs.
  const made = await api(server.url, key, "POST", "/api/webhooks", { url: "https://hooks.example.com/walk", events: ["link.created"] });
  expect(made.status).toBe(201);
  const id = made.body.data.id as number;
  expect((await api(server.url, key, "GET", "/api/webhooks")).status).toBe(200);
  expect((await api(server.url, key, "GET", `/api/webhooks/${id}`)).status).toBe(200);
  expect((await api(server.url, key, "PATCH", `/api/webhooks/${id}`, { tag: null })).status).toBe(200);
  expect((await createLink(server.url, { url: "https://example.com/hooked", custom_url: "walk-hooked" }, { authorization: `Bearer ${key}` })).status).toBe(201);
  const log = await eventually(() => api(server.url, key, "GET", `/api/webhooks/${id}/deliveries`), (r) => r.body.data.deliveries.length > 0);
  expect((await api(server.url, key, "POST", `/api/webhooks/${id}/deliveries/${log.body.data.deliveries[0].id}/redeliver`)).status).toBe(202);
  expect((await api(server.url, key, "DELETE", `/api/webhooks/${id}`)).status).toBe(200);
  for (const path of ["/api/stats/live?id=walk", "/api/stats/live"]) {
    // Aborted, not cancelled: the contract check holds a clone, and a cancel waits for both.
    const abort = new AbortController();
    const stream = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal });
    expect([stream.status, stream.headers.get("content-type")]).toEqual([200, "text/event-stream; charset=utf-8"]);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toStartWith("event: ready");
    abort.abort();
  }
}

/** The OpenID sign-in's two routes, through a real provider (test/integration/oidc.test.ts tries them all). */
async function oidcRound(): Promise<void> {
  const { base, stop } = await serviceWithProvider();
  try {
    const walker = new CookieWalker();
    const start = await walker.go(`${base}/api/session/oidc`);
    expect(start.status).toBe(302);
    const callback = await walker.signInAtProvider(start.headers.get("location")!, "alice", `${base}/api/session/oidc/callback`);
    expect((await walker.go(callback)).status).toBe(200);
  } finally {
    await stop();
  }
}
