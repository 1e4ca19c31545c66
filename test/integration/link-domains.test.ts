// Links with their domain through the management API (#37), against a real server on either engine:
// the same alias on two domains with their own destinations and owners, each addressed by
// ?domain=; the list's filter; create's domain field (unknown 400, restricted 403); export and
// import with a domain column. The domains and the keys are put in with the storage port while the
// service is stopped (there is no domain API or command in this branch yet), then it starts again.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openStorage } from "../../src/db/open-storage.ts";
import { DEFAULT_SETTINGS, type Domain } from "../../src/domains/domain.ts";
import { parseCsv } from "../../src/util/csv.ts";
import { api } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";

const T = 60_000;
type Keys = { admin: string; maker: string; other: string; allowed: string };
type Served = { first: RunningServer; server: RunningServer; keys: Keys };

const domain = (name: string, settings: Partial<Domain> = {}): Domain => ({ ...DEFAULT_SETTINGS, name, isDefault: false, createdAt: 1, ...settings });

/** A service with four domains (main.example the default; h.example.net plain http; closed.example only for the "allowed" key) and its keys. */
async function servedWithDomains(): Promise<Served> {
  const first = await startServer();
  await first.stop();
  const storage = await openStorage(first.dbPath, { busyTimeoutMs: 5_000, password: null });
  const keys = {} as Keys;
  let allowedId = 0;
  try {
    for (const [name, scope] of [["admin", "admin"], ["maker", "create"], ["other", "create"], ["allowed", "create"]] as const) {
      const made = await storage.keys.create(name, scope, Date.now());
      keys[name] = made.key;
      if (name === "allowed") allowedId = made.record.id;
    }
    expect(await storage.domains.add(domain("main.example", { isDefault: true }))).toMatchObject({ name: "main.example" });
    await storage.domains.add(domain("s.example.org"));
    await storage.domains.add(domain("h.example.net", { https: false }));
    await storage.domains.add(domain("closed.example", { creators: { users: [], keys: [allowedId] } }));
  } finally {
    await storage.close();
  }
  const server = await startServer({ dir: first.dir, args: ["--create-rate-limit", "0"] });
  return { first, server, keys };
}

async function dispose(s: Served | undefined): Promise<void> {
  if (s === undefined) return;
  await s.server.stop();
  await s.first.dispose();
}

let a: Served;
beforeAll(async () => {
  a = await servedWithDomains();
}, T);
afterAll(() => dispose(a), T);

const call = (key: string, method: string, path: string, body?: unknown) => api(a.server.url, key, method, path, body);
const create = (key: string, body: Record<string, unknown>) => call(key, "POST", "/api/create", body);

describe("one alias on several domains", () => {
  test("created on each, read, changed and deleted by ?domain=, the others untouched", async () => {
    const { maker, other } = a.keys;
    const onDefault = await create(maker, { url: "https://example.com/default", custom_url: "same" });
    expect(onDefault.status).toBe(201);
    expect(onDefault.body.data.shortUrl).toBe(`${a.server.url}/same`);
    const onShort = await create(maker, { url: "https://example.com/short", custom_url: "same", domain: "s.example.org" });
    expect(onShort.status).toBe(201);
    expect(onShort.body.data).toEqual({ shortUrl: "https://s.example.org/same", statsUrl: "https://s.example.org/en/stats/same" });
    // A form names the domain as well; a domain that says http gets http:// URLs; another owner.
    const form = new FormData();
    form.append("url", "https://example.com/plain");
    form.append("custom_url", "same");
    form.append("domain", "H.Example.Net");
    const onPlain = await call(other, "POST", "/api/create", form);
    expect(onPlain.status).toBe(201);
    expect(onPlain.body.data.shortUrl).toBe("http://h.example.net/same");
    // Taken is within a domain.
    expect((await create(other, { url: "https://example.com/again", custom_url: "same", domain: "s.example.org" })).body).toMatchObject({ code: "alias_taken" });

    expect((await call(maker, "GET", "/api/links/same")).body.data).toMatchObject({ id: "same", domain: "main.example", originalUrl: "https://example.com/default", shortUrl: `${a.server.url}/same` });
    const short = (await call(maker, "GET", "/api/links/same?domain=s.example.org")).body.data;
    expect(short).toMatchObject({ id: "same", domain: "s.example.org", originalUrl: "https://example.com/short", shortUrl: "https://s.example.org/same", statsUrl: "https://s.example.org/en/stats/same" });
    // Another owner's link on its domain is a 404 to this key, as any other's.
    expect((await call(maker, "GET", "/api/links/same?domain=h.example.net")).status).toBe(404);
    expect((await call(other, "GET", "/api/links/same?domain=h.example.net")).body.data).toMatchObject({ domain: "h.example.net", owner: "other" });

    const changed = await call(maker, "PATCH", "/api/links/same?domain=s.example.org", { url: "https://example.com/short-2" });
    expect(changed.body.data).toMatchObject({ domain: "s.example.org", originalUrl: "https://example.com/short-2" });
    expect((await call(maker, "GET", "/api/links/same")).body.data.originalUrl).toBe("https://example.com/default");

    expect((await call(maker, "DELETE", "/api/links/same?domain=s.example.org")).body).toEqual({ success: true, data: { id: "same", deleted: true } });
    expect((await call(maker, "GET", "/api/links/same?domain=s.example.org")).status).toBe(404);
    expect((await call(maker, "GET", "/api/links/same")).body.data.originalUrl).toBe("https://example.com/default");
    expect((await call(other, "GET", "/api/links/same?domain=h.example.net")).body.data.originalUrl).toBe("https://example.com/plain");
    // Retired within its domain only: the alias is free on none other, and that one refuses it.
    expect((await create(maker, { url: "https://example.com/back", custom_url: "same", domain: "s.example.org" })).body).toMatchObject({ code: "alias_retired" });
  }, T);

  test("an unknown domain is 400 domain_unknown naming the field, on create and on every address", async () => {
    const { maker } = a.keys;
    const refused = await create(maker, { url: "https://example.com/x", domain: "nope.example" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, code: "domain_unknown", field: "domain" });
    // Not a name at all: the body's reader refuses it, as any text field's wrong type.
    expect((await create(maker, { url: "https://example.com/x", domain: 7 })).body).toMatchObject({ code: "bad_request", error: "domain must be a string" });
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const r = await call(maker, method, "/api/links/anything?domain=nope.example", method === "PATCH" ? { disabled: true } : undefined);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "domain_unknown", field: "domain" });
    }
    expect((await call(maker, "GET", "/api/links?domain=nope.example")).body).toMatchObject({ code: "domain_unknown", field: "domain" });
  }, T);

  test("a destination on any of the service's domains is url_self: a link there could lead to itself", async () => {
    const { maker } = a.keys;
    for (const url of ["https://s.example.org/loop", "http://H.EXAMPLE.NET./x", "https://closed.example/"]) {
      const r = await create(maker, { url, custom_url: "loop", domain: "s.example.org" });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "url_self", field: "url" });
    }
    expect((await create(maker, { url: "https://example.com/fine", custom_url: "selfie", domain: "h.example.net" })).status).toBe(201);
    expect((await call(maker, "PATCH", "/api/links/selfie?domain=h.example.net", { url: "https://main.example/selfie" })).body).toMatchObject({ code: "url_self" });
  }, T);

  test("a restricted domain: 403 domain_forbidden to a key it does not name; the named key and admins create", async () => {
    const { maker, allowed, admin } = a.keys;
    const refused = await create(maker, { url: "https://example.com/c", custom_url: "closed-1", domain: "closed.example" });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: "domain_forbidden", field: "domain" });
    expect((await call(maker, "GET", "/api/links/closed-1?domain=closed.example")).status).toBe(404);
    expect((await create(allowed, { url: "https://example.com/c", custom_url: "closed-1", domain: "closed.example" })).status).toBe(201);
    expect((await create(admin, { url: "https://example.com/c", custom_url: "closed-2", domain: "closed.example" })).status).toBe(201);
    // Anonymous creates (--create-access public) are no one an admin named.
    expect((await api(a.server.url, null, "POST", "/api/create", { url: "https://example.com/c", domain: "closed.example" })).status).toBe(403);
    expect((await api(a.server.url, null, "POST", "/api/create", { url: "https://example.com/c", domain: "s.example.org" })).status).toBe(201);
  }, T);
});

describe("the list", () => {
  test("?domain= keeps one domain's links; every row says its domain; a search matches within the filter", async () => {
    const { admin } = a.keys;
    await create(admin, { url: "https://example.com/l1", custom_url: "listed", domain: "s.example.org" });
    await create(admin, { url: "https://example.com/l2", custom_url: "listed" });
    const all = (await call(admin, "GET", "/api/links?limit=200")).body.data.links as { id: string; domain: string }[];
    expect(new Set(all.map((l) => l.domain))).toEqual(new Set(["main.example", "s.example.org", "h.example.net", "closed.example"]));
    const onShort = (await call(admin, "GET", "/api/links?domain=s.example.org&limit=200")).body.data.links as { id: string; domain: string; shortUrl: string }[];
    expect(onShort.length).toBeGreaterThan(0);
    for (const l of onShort) expect(l).toMatchObject({ domain: "s.example.org", shortUrl: `https://s.example.org/${l.id}` });
    expect(onShort.length).toBe(all.filter((l) => l.domain === "s.example.org").length);
    const searched = (await call(admin, "GET", "/api/links?domain=main.example&q=listed")).body.data.links;
    expect(searched.map((l: { id: string; domain: string }) => `${l.id} ${l.domain}`)).toEqual(["listed main.example"]);
    const daily = (await call(admin, "GET", "/api/links?q=listed&include=daily")).body.data.links;
    expect(daily.map((l: { domain: string; daily: number[] }) => `${l.domain} ${l.daily.length}`).sort()).toEqual(["main.example 30", "s.example.org 30"]);
  }, T);
});

describe("export and import", () => {
  test("a domain column (CSV) and field (JSON); imported into a service with the same domains, each link lands on its own", async () => {
    const { admin } = a.keys;
    await create(admin, { url: "https://example.com/t1", custom_url: "trip", domain: "h.example.net" });
    await create(admin, { url: "https://example.com/t2", custom_url: "trip" });
    const chosen = await call(admin, "GET", "/api/links/export?format=json&ids=trip@h.example.net,trip@nope.example");
    expect(chosen.body.map((r: { custom_url: string; domain: string }) => `${r.custom_url} ${r.domain}`)).toEqual(["trip h.example.net"]);
    const onPlain = (await call(admin, "GET", "/api/links/export?format=json&domain=h.example.net")).body as { custom_url: string; domain: string }[];
    expect(onPlain.length).toBeGreaterThan(1);
    for (const r of onPlain) expect(r.domain).toBe("h.example.net");
    expect((await call(admin, "GET", "/api/links/export?domain=nope.example")).body).toMatchObject({ code: "domain_unknown", field: "domain" });
    const csv = (await call(admin, "GET", "/api/links/export?format=csv")).body as string;
    const records = parseCsv(csv);
    const at = records[0]!.indexOf("domain");
    expect(at).toBeGreaterThan(0);
    const trips = records.slice(1).filter((r) => r[1] === "trip").map((r) => `${r[0]} ${r[at]}`);
    expect(trips.sort()).toEqual(["https://example.com/t1 h.example.net", "https://example.com/t2 main.example"]);

    const b = await servedWithDomains();
    try {
      const imported = await api(b.server.url, b.keys.admin, "POST", "/api/links/import", csv, { "content-type": "text/csv" });
      expect(imported.status).toBe(200);
      expect(imported.body.data.failed).toEqual([]);
      expect(imported.body.data.created).toContainEqual(expect.objectContaining({ id: "trip", domain: "h.example.net", shortUrl: "http://h.example.net/trip" }));
      const get = (path: string) => api(b.server.url, b.keys.admin, "GET", path);
      expect((await get("/api/links/trip?domain=h.example.net")).body.data.originalUrl).toBe("https://example.com/t1");
      expect((await get("/api/links/trip")).body.data.originalUrl).toBe("https://example.com/t2");
      expect((await get("/api/links/same?domain=h.example.net")).body.data.originalUrl).toBe("https://example.com/plain");
      // A row on a domain this service has not, or one not open to the importer, fails alone.
      const rows = [{ url: "https://example.com/n", domain: "nope.example" }, { url: "https://example.com/ok", domain: "" }, { url: "https://example.com/c", domain: "closed.example" }];
      const report = (await api(b.server.url, b.keys.maker, "POST", "/api/links/import", rows)).body.data;
      expect(report.failed.map((f: { row: number; code: string }) => `${f.row} ${f.code}`)).toEqual(["1 domain_unknown", "3 domain_forbidden"]);
      expect(report.created).toEqual([expect.objectContaining({ row: 2, domain: "main.example" })]);
    } finally {
      await dispose(b);
    }
  }, 2 * T);
});
