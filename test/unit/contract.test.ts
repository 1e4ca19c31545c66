// The contract checker (test/support/contract.ts) itself: it must catch a response that breaks the
// OpenAPI table, or every suite's "checked against the contract" would mean nothing.

import { describe, expect, test } from "bun:test";
import { contractProblem, contractSeen } from "../support/contract.ts";
import { operationFor } from "../../src/http/openapi/document.ts";

const seen = new Map<string, number>(); // not contractSeen: these made-up answers prove nothing about the API
const check = (method: string, path: string, response: Response, host = "127.0.0.1") => contractProblem(method, new URL(`http://${host}:8080${path}`), response, seen);
const reply = (status: number, body: unknown, type = "application/json") =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: type === "" ? {} : { "content-type": type } });

const created = { success: true, data: { shortUrl: "http://s.example/abc1234", statsUrl: "http://s.example/en/stats/abc1234" } };
const outcome = { created: [{ row: 1, id: "abc1234", domain: null, shortUrl: "http://s.example/abc1234" }], failed: [{ row: 2, code: "alias_taken", error: "taken" }] };
const stopped = { success: false, error: "storage unavailable", code: "storage_unavailable", data: { ...outcome, stoppedAtRow: 3 } };

describe("answers that keep the contract pass", () => {
  test.each([
    ["a create", "POST", "/api/create", () => reply(201, created)],
    ["a 400 with every field problem", "POST", "/api/create", () => reply(400, { success: false, error: "bad", code: "url_invalid", field: "url", errors: [{ code: "url_invalid", field: "url", error: "bad" }] })],
    ["an import the disk stopped, with its data", "POST", "/api/links/import", () => reply(503, stopped)],
    ["DELETE /api/links/export, answered by the {id} route", "DELETE", "/api/links/export", () => reply(404, { success: false, error: "no link export", code: "not_found" })],
    ["a redirect (no body)", "GET", "/abc1234", () => reply(302, "", "")],
  ] as const)("%s", async (_, method, path, response) => {
    expect(await check(method, path, response())).toBeNull();
  });

  test("another host is not the API's to judge", async () => {
    expect(await check("POST", "/api/create", reply(500, "oops", "text/plain"), "example.com")).toBeNull();
  });
});

describe("answers that break it are caught", () => {
  test.each([
    ["a required field missing", "POST", "/api/create", () => reply(201, { success: true, data: { shortUrl: "http://s.example/a" } }), /\/data\/statsUrl/],
    ["a field the schema does not have", "POST", "/api/create", () => reply(201, { success: true, data: { ...created.data, extra: 1 } }), /\/data\/extra/],
    ["an undocumented status", "POST", "/api/create", () => reply(500, { success: false, error: "internal error", code: "internal" }), /status 500 is not documented for POST \/api\/create/],
    ["an unknown error code", "GET", "/api/links/abc1234", () => reply(404, { success: false, error: "gone", code: "vanished" }), /\/code/],
    ["data on an error that is not the import's 503", "POST", "/api/create", () => reply(503, stopped), /\/data/],
    ["the import's 503 without stoppedAtRow", "POST", "/api/links/import", () => reply(503, { ...stopped, data: outcome }), /\/data\/stoppedAtRow/],
    ["HTML where JSON is documented", "GET", "/api/links", () => reply(200, "<p>hi</p>", "text/html"), /text\/html instead of application\/json/],
    ["a body that is not JSON", "GET", "/api/links", () => reply(200, "{", "application/json"), /not JSON/],
    ["DELETE /api/links/export held to the {id} route's schema", "DELETE", "/api/links/export", () => reply(200, { success: true, data: { id: "export" } }), /\/data\/deleted/],
    ["JSON where a click's 404 page is documented", "GET", "/abc1234", () => reply(404, { success: false, error: "x", code: "not_found" }), /content type application\/json is not documented/],
  ] as const)("%s", async (_, method, path, response, why) => {
    expect(await check(method, path, response())).toMatch(why);
  });
});

test("operationFor: the exact route of the method, else its template, else none", () => {
  expect(operationFor("GET", "/api/links/export")?.operationId).toBe("exportLinks");
  expect(operationFor("HEAD", "/api/links/export")?.operationId).toBe("exportLinks");
  expect(operationFor("DELETE", "/api/links/export")?.operationId).toBe("deleteLink");
  expect(operationFor("PATCH", "/api/links/import")?.operationId).toBe("updateLink");
  expect(operationFor("POST", "/api/links/export")).toBeNull(); // no POST route fits: the 405 catch-all
  expect(operationFor("GET", "/api/links/a/b")).toBeNull();
});

test("what this checker saw here is counted apart from the API's own answers", async () => {
  // Test files share one process: contractSeen may already hold real answers of other files.
  const api = contractSeen.get("POST /api/create 201") ?? 0;
  const mine = seen.get("POST /api/create 201") ?? 0;
  expect(await check("POST", "/api/create", reply(201, created))).toBeNull();
  expect(seen.get("POST /api/create 201")).toBe(mine + 1);
  expect(contractSeen.get("POST /api/create 201") ?? 0).toBe(api);
});
