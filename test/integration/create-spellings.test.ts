// POST /api/create takes exactly the fields it documents (docs/api.md: Create a short link), on either
// engine: JSON under the spec's names or the management API's camelCase ones, forms under the
// spec's only; an unknown name, a JSON spelling in a form, or both spellings of one field is a 400
// that names it, and no link is made. An expiry in the past is refused whatever its spelling.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click } from "../support/clicks.ts";

let server: RunningServer;
let key: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  key = makeKey(server.dbPath, "owner");
});
afterAll(() => server.dispose());

const PAST = "2020-01-01T00:00:00Z";
const create = (body: Record<string, unknown>) => api(server.url, key, "POST", "/api/create", body);
const get = (id: string) => api(server.url, key, "GET", `/api/links/${id}`);
const form = (fields: Record<string, string>, type: "multipart" | "urlencoded") => {
  const body = type === "multipart" ? new FormData() : new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return fetch(`${server.url}/api/create`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body });
};

describe("an expiry in the past", () => {
  test("expires_at (JSON or form) or expiresAt (JSON) in the past: 400 expires_past naming the field as sent, and no link", async () => {
    for (const name of ["expires_at", "expiresAt"]) {
      const id = `past-${name.replace("_", "-")}`;
      const r = await create({ url: "https://example.com/past", custom_url: id, [name]: PAST });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, code: "expires_past", field: name });
      expect((await get(id)).status).toBe(404);
    }
    const r = await form({ url: "https://example.com/past", custom_url: "past-form", expires_at: PAST }, "multipart");
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ code: "expires_past", field: "expires_at" });
  });
});

describe("camelCase in JSON", () => {
  test("maxClicks: the limit applies (the second click finds the link expired)", async () => {
    expect((await create({ url: "https://example.com/once", customUrl: "camel-once", maxClicks: 1 })).status).toBe(201);
    expect((await get("camel-once")).body.data).toMatchObject({ id: "camel-once", maxClicks: 1 });
    expect((await click(server.url, "camel-once")).status).toBe(302);
    expect((await click(server.url, "camel-once")).status).toBe(410);
  });

  test("expiresAt in the future is stored; every camelCase field is read as its spec name is", async () => {
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const r = await create({ url: "https://example.com/camel", customUrl: "camel-all", expiresAt: at, maxClicks: "5", redirectType: 307, validFrom: PAST, fallbackUrl: "https://example.com/after" });
    expect(r.status).toBe(201);
    expect((await get("camel-all")).body.data).toMatchObject({ expiresAt: at, maxClicks: 5, redirectType: 307, validFrom: "2020-01-01T00:00:00.000Z", fallbackUrl: "https://example.com/after" });
  });

  test("a problem names the field as it was sent", async () => {
    const r = await create({ url: "https://example.com/", customUrl: "x", maxClicks: 0 });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: any) => `${e.code}:${e.field}`)).toEqual(["alias_invalid:customUrl", "max_clicks_invalid:maxClicks"]);
  });
});

describe("names a create does not take", () => {
  for (const [name, value] of [["expires", PAST], ["disabled", true], ["password_hash", "x"], ["maxclicks", 1]] as const) {
    test(`JSON ${name}: 400 bad_request naming it, and no link`, async () => {
      const id = `unknown-${name.replace("_", "-")}`;
      const r = await create({ url: "https://example.com/", custom_url: id, [name]: value });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("bad_request");
      expect(r.body.error).toStartWith(`unknown field ${name}: `);
      expect((await get(id)).status).toBe(404);
    });
  }

  for (const type of ["multipart", "urlencoded"] as const) {
    test(`a ${type} form with maxClicks (a JSON spelling) or an unknown name: 400 naming it, and no link`, async () => {
      const camel = await form({ url: "https://example.com/", custom_url: `form-camel-${type}`, maxClicks: "1" }, type);
      expect(camel.status).toBe(400);
      expect(((await camel.json()) as any).error).toBe("maxClicks is a JSON spelling: a form takes max_clicks");
      const unknown = await form({ url: "https://example.com/", custom_url: `form-unknown-${type}`, expiry: PAST }, type);
      expect(unknown.status).toBe(400);
      expect(((await unknown.json()) as any).error).toStartWith("unknown field expiry: ");
      expect((await get(`form-camel-${type}`)).status).toBe(404);
      expect((await get(`form-unknown-${type}`)).status).toBe(404);
    });
  }

  test("both spellings of one field: 400 naming both, even when they agree", async () => {
    const r = await create({ url: "https://example.com/", custom_url: "both", max_clicks: 3, maxClicks: 3 });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "bad_request", error: "max_clicks and maxClicks are one field: give one of them" });
    expect((await get("both")).status).toBe(404);
  });
});
