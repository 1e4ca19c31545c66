// The app's route list is the one table of routes: the Allow header of a 405, the metrics' route
// labels and the reserved words are all held to it here.

import { expect, test } from "bun:test";
import { createApp, type AppDeps } from "../../src/app.ts";
import { routeTable } from "../../src/http/route-table.ts";
import { isReserved, RESERVED_WORDS } from "../../src/links/alias.ts";

// Built, not served: app.routes is what Elysia would match.
const app = createApp({ version: "0.0.0", config: { compat: { yourls: true, kutt: true, shlink: true } } } as AppDeps);
const table = routeTable(app.routes);

test("every top-level path the app answers is a reserved word, so no link can hide it", () => {
  const firstSegments = new Set(app.routes.map((r) => r.path.split("/")[1] ?? "").filter((s) => s !== "" && !s.startsWith(":") && s !== "*"));
  expect(firstSegments.size).toBeGreaterThan(10); // api, assets, health, metrics, stats, links, the languages, …
  expect([...firstSegments].filter((s) => !isReserved(s))).toEqual([]);
  expect(RESERVED_WORDS.every((w) => w === w.toLowerCase())).toBe(true);
});

test.each([
  ["/api/create", "POST"],
  ["/api/stats", "GET, HEAD"],
  ["/api/links", "GET, HEAD"],
  ["/api/links/some-id", "GET, HEAD, PATCH, DELETE"],
  ["/api/links/import", "GET, HEAD, POST, PATCH, DELETE"], // GET, PATCH and DELETE reach /api/links/:id (a 404 there)
  ["/api/session", "GET, HEAD, POST, DELETE"],
  ["/api/overview", "GET, HEAD"],
  ["/api/nothing", null],
  ["/api/links/a/b", null],
])("Allow of %p: %p (what the router answers at that path)", (path, allow) => {
  expect(table.allowed(path)).toBe(allow);
});

test.each([
  ["/", "/"],
  ["/de", "/:lang"],
  ["/de/", "/:lang"],
  ["/fr/links", "/:lang/links"],
  ["/ja/stats/abc", "/:lang/stats/:id"],
  ["/stats/abc", "/stats/:id"],
  ["/links", "/links"],
  ["/api/links/abc", "/api/links/:id"],
  ["/api/links/export", "/api/links/export"],
  ["/api/whatever/deep", "/api/*"],
  ["/assets/app-123.css", "/assets/:file"],
  ["/health", "/health"],
  ["/robots.txt", "/robots.txt"],
  ["/abc123", "/:id"],
  ["/abc123/qr", "/:id/qr"],
  ["/xx/stats/abc", "other"],
  ["/nope/nope", "other"],
])("the metrics label of %p is %p, never the id in it", (path, route) => {
  expect(table.routeOf(path)).toBe(route);
});
