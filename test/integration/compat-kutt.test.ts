// The Kutt v2 API (#38) route by route against a real server on either engine, with a create key,
// an admin key, a wrong key, another key's link and bad input. Kutt's shapes come from its own
// source, github.com/thedevs-network/kutt: docs/api/api.js (the Link, Stats and User objects, the
// routes' fields), server/handlers/links.handler.js (create with reuse, edit, remove's message),
// server/handlers/validators.handler.js (expire_in read by `ms`, at least a minute; the id's 36
// characters), server/handlers/helpers.handler.js (errors as {error}; limit 10 by default, 50 at
// most), server/queries/visit.queries.js (the stats periods: 24 hours, 7 and 30 days, 12 months).

import { eventually } from "../support/eventually.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openStorage } from "../../src/db/open-storage.ts";
import { DEFAULT_SETTINGS, type Domain } from "../../src/domains/domain.ts";
import { api } from "../support/admin.ts";
import { UA, visit } from "../support/clicks.ts";
import { startServer, type RunningServer } from "../support/server.ts";

const T = 60_000;
type Keys = { admin: string; maker: string; other: string };
let first: RunningServer;
let server: RunningServer;
const keys = {} as Keys;
const UUID = /^00000000-0000-8000-8000-[0-9a-f]{12}$/;

beforeAll(async () => {
  first = await startServer();
  await first.stop();
  const storage = await openStorage(first.dbPath, { busyTimeoutMs: 5_000, password: null });
  try {
    for (const [name, scope] of [["admin", "admin"], ["maker", "create"], ["other", "create"]] as const) keys[name] = (await storage.keys.create(name, scope, Date.now())).key;
    for (const name of ["a.example.org", "c.example.org"]) await storage.domains.add({ ...DEFAULT_SETTINGS, name, isDefault: false, createdAt: 1 } satisfies Domain);
  } finally {
    await storage.close();
  }
  server = await startServer({ dir: first.dir });
}, T);
afterAll(async () => {
  await server?.stop();
  await first?.dispose();
}, T);

/** One Kutt call with X-API-KEY (null: none); a non-string body as JSON. */
async function kutt(key: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const h: Record<string, string> = { ...headers };
  if (key !== null) h["X-API-KEY"] = key;
  if (body !== undefined && typeof body !== "string") h["Content-Type"] ??= "application/json";
  const res = await fetch(`${server.url}/api/v2${path}`, { method, headers: h, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Kutt's health is text
  }
  return { status: res.status, body: parsed };
}

const made = async (key: string, body: Record<string, unknown>) => {
  const r = await kutt(key, "POST", "/links", body);
  if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

/** Every failure is Kutt's {error} with a 4xx: nothing of our own shape, never a 5xx. */
function kuttRefusal(r: { status: number; body: any }, status: number): string {
  expect(r.status).toBe(status);
  expect(Object.keys(r.body)).toEqual(["error"]);
  expect(typeof r.body.error).toBe("string");
  return r.body.error;
}

describe("links", () => {
  test("create: Kutt's link object; description is the title; expire_in a duration", async () => {
    const before = Date.now();
    const link = await made(keys.maker, { target: "example.com/kutt/one", customurl: "kutt-one", description: "  The   first\none ", expire_in: "2 hours" });
    const after = Date.now();
    expect(link).toMatchObject({ address: "kutt-one", description: "The first one", banned: false, password: false, target: "http://example.com/kutt/one", visit_count: 0, domain: null, link: `${server.url}/kutt-one` });
    expect(link.id).toMatch(UUID);
    const expiry = Date.parse(link.expire_in);
    expect(expiry).toBeGreaterThanOrEqual(before + 7_200_000 - 1);
    expect(expiry).toBeLessThanOrEqual(after + 7_200_000 + 1);
    expect(Date.parse(link.created_at)).toBeGreaterThan(0);
    // Our own API sees the same link with its title.
    const ours = await api(server.url, keys.maker, "GET", "/api/links/kutt-one");
    expect(ours.body.data).toMatchObject({ title: "The first one", originalUrl: "http://example.com/kutt/one" });
  }, T);

  test("create: bad input is Kutt's 400 naming Kutt's fields", async () => {
    expect(kuttRefusal(await kutt(keys.maker, "POST", "/links", { target: "https://example.com/x", expire_in: "soon" }), 400)).toContain("Expire format is invalid");
    expect(kuttRefusal(await kutt(keys.maker, "POST", "/links", { target: "https://example.com/x", expire_in: "30s" }), 400)).toContain("more than 1 minute");
    expect(kuttRefusal(await kutt(keys.maker, "POST", "/links", { target: "" }), 400)).toContain("target");
    expect(kuttRefusal(await kutt(keys.maker, "POST", "/links", { target: "https://example.com/x", customurl: "a b" }), 400)).toContain("customurl");
    expect(kuttRefusal(await kutt(keys.maker, "POST", "/links", { target: "https://example.com/x", reuse: "maybe" }), 400)).toBe("Reuse must be boolean.");
    expect(kuttRefusal(await kutt(keys.maker, "POST", "/links", { target: "https://example.com/x", domain: "nowhere.example" }), 400)).toContain("nowhere.example");
    expect(kuttRefusal(await kutt(keys.maker, "POST", "/links", { target: "https://example.com/x", description: "d".repeat(501) }), 400)).toContain("description");
    expect(kuttRefusal(await kutt(keys.maker, "POST", "/links", "{not json", { "Content-Type": "application/json" }), 400)).toContain("JSON");
    expect(kuttRefusal(await kutt(keys.maker, "POST", "/links", "target=x", { "Content-Type": "text/plain" }), 415)).toContain("application/json");
    await made(keys.maker, { target: "https://example.com/x", customurl: "kutt-taken" });
    expect(kuttRefusal(await kutt(keys.other, "POST", "/links", { target: "https://example.com/y", customurl: "kutt-taken" }), 400)).toContain("kutt-taken");
  }, T);

  test("create as a form (Kutt's express reads urlencoded too)", async () => {
    const r = await kutt(keys.maker, "POST", "/links", "target=https%3A%2F%2Fexample.com%2Fform&customurl=kutt-form&reuse=false", { "Content-Type": "application/x-www-form-urlencoded" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ address: "kutt-form", target: "https://example.com/form" });
  }, T);

  test("list: a create key sees its own, an admin every link; limit, skip, total; search matches alias, URL and title", async () => {
    for (const n of [1, 2, 3]) await made(keys.other, { target: `https://example.org/listed/${n}`, customurl: `kutt-list-${n}`, description: `Listing number ${n}` });
    const own = await kutt(keys.other, "GET", "/links?limit=2&skip=1");
    expect(own.status).toBe(200);
    expect(Object.keys(own.body)).toEqual(["limit", "skip", "total", "data"]);
    expect(own.body).toMatchObject({ limit: 2, skip: 1, total: 3 }); // its refused kutt-taken made none
    expect(own.body.data.map((l: any) => l.address)).toEqual(["kutt-list-2", "kutt-list-1"]);
    const admin = await kutt(keys.admin, "GET", "/links?all=true&limit=500");
    expect(admin.body.limit).toBe(50);
    expect(admin.body.data.map((l: any) => l.address)).toContain("kutt-one");
    expect(admin.body.data.map((l: any) => l.address)).toContain("kutt-list-3");
    expect((await kutt(keys.maker, "GET", "/links?all=true")).body.data.map((l: any) => l.address)).not.toContain("kutt-list-3");
    const search = async (q: string) => (await kutt(keys.other, "GET", `/links?search=${encodeURIComponent(q)}`)).body.data.map((l: any) => l.address);
    expect(await search("kutt-list-2")).toEqual(["kutt-list-2"]);
    expect(await search("example.org/listed/3")).toEqual(["kutt-list-3"]);
    expect(await search("number 1")).toEqual(["kutt-list-1"]);
    expect((await kutt(keys.other, "GET", "/links?limit=abc")).body.limit).toBe(10);
  }, T);

  test("patch: target, description, expire_in, password; another key's link 404; bad ids and empty changes 400", async () => {
    const link = await made(keys.maker, { target: "https://example.com/before", customurl: "kutt-edit" });
    const changed = await kutt(keys.maker, "PATCH", `/links/${link.id}`, { target: "https://example.com/after", description: "Edited", address: "kutt-edit", expire_in: "1 day", password: "hunter22" });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: link.id, address: "kutt-edit", target: "https://example.com/after", description: "Edited", password: true });
    expect(changed.body.expire_in).not.toBeNull();
    // Kutt's form's masked password keeps it; "" removes it; null clears the description and expiry.
    expect((await kutt(keys.maker, "PATCH", `/links/${link.id}`, { password: "••••••", description: "Kept" })).body).toMatchObject({ password: true, description: "Kept" });
    expect((await kutt(keys.maker, "PATCH", `/links/${link.id}`, { password: "", description: null, expire_in: null })).body).toMatchObject({ password: false, description: null, expire_in: null });
    expect(kuttRefusal(await kutt(keys.other, "PATCH", `/links/${link.id}`, { target: "https://example.com/theirs" }), 404)).toBe("Link was not found.");
    expect(kuttRefusal(await kutt(keys.maker, "PATCH", `/links/${link.id}`, {}), 400)).toBe("Should at least update one field.");
    expect(kuttRefusal(await kutt(keys.maker, "PATCH", `/links/${link.id}`, { address: "kutt-renamed" }), 400)).toContain("alias");
    expect(kuttRefusal(await kutt(keys.maker, "PATCH", `/links/${link.id}`, { target: "ftp://example.com/" }), 400)).toContain("target");
    expect(kuttRefusal(await kutt(keys.maker, "PATCH", "/links/not-a-uuid", { target: "https://example.com/" }), 400)).toBe("ID is invalid.");
    expect(kuttRefusal(await kutt(keys.maker, "PATCH", "/links/123e4567-e89b-12d3-a456-426614174000", { target: "https://example.com/" }), 404)).toBe("Link was not found.");
    // The admin may change anyone's.
    expect((await kutt(keys.admin, "PATCH", `/links/${link.id}`, { description: "By the admin" })).status).toBe(200);
  }, T);

  test("delete: another key's link 404; its own gone with Kutt's message, then 404; an admin's anyone's; the audit lines", async () => {
    const link = await made(keys.maker, { target: "https://example.com/doomed", customurl: "kutt-doomed" });
    kuttRefusal(await kutt(keys.other, "DELETE", `/links/${link.id}`), 404);
    const removed = await kutt(keys.maker, "DELETE", `/links/${link.id}`);
    expect(removed).toEqual({ status: 200, body: { message: "Link has been deleted successfully." } });
    kuttRefusal(await kutt(keys.maker, "DELETE", `/links/${link.id}`), 404);
    expect((await fetch(`${server.url}/kutt-doomed`, { redirect: "manual" })).status).toBe(410);
    // The admin key makes and deletes too, anyone's; the operations' audit lines, as for our API, never the key.
    const theirs = await made(keys.admin, { target: "https://example.com/admins", customurl: "kutt-admins" });
    expect((await kutt(keys.admin, "DELETE", `/links/${theirs.id}`)).status).toBe(200);
    const other = await made(keys.other, { target: "https://example.com/others", customurl: "kutt-others" });
    expect((await kutt(keys.admin, "DELETE", `/links/${other.id}`)).status).toBe(200);
    // The last line may still be on its way through the server's stdout pipe when the answer has come.
    const log = await eventually(async () => server.output(), (out) => /^management key=admin action=delete id=kutt-others result=/m.test(out));
    expect(log).toMatch(/^management key=maker action=create id=kutt-doomed result=ok$/m);
    expect(log).toMatch(/^management key=other action=delete id=kutt-doomed result=not_found$/m);
    expect(log).toMatch(/^management key=maker action=delete id=kutt-doomed result=ok$/m);
    expect(log).toMatch(/^management key=admin action=delete id=kutt-others result=ok$/m);
    for (const key of Object.values(keys)) expect(log).not.toContain(key.slice(3));
  }, T);
});

describe("keys, users and the rest", () => {
  test("users: the key as sent, the name, the domains; no key or a wrong one is Kutt's 401", async () => {
    const admin = await kutt(keys.admin, "GET", "/users");
    expect(admin.body).toMatchObject({ apikey: keys.admin, email: "admin" });
    expect(admin.body.domains.map((d: any) => d.address).sort()).toEqual(["a.example.org", "c.example.org"]);
    kuttRefusal(await kutt(null, "GET", "/users"), 401);
    kuttRefusal(await kutt("sk_" + "w".repeat(32), "GET", "/users"), 401);
    kuttRefusal(await kutt("not a key", "GET", "/links"), 401);
    for (const [method, path] of [["GET", "/links"], ["PATCH", "/links/00000000-0000-8000-8000-000000000001"], ["DELETE", "/links/00000000-0000-8000-8000-000000000001"], ["GET", "/links/00000000-0000-8000-8000-000000000001/stats"]]) {
      kuttRefusal(await kutt(null, method!, path!), 401);
    }
  }, T);

  test("no key: an anonymous create under --create-access public (reuse ignored), Kutt's 401 under key; failed keys past the limit are Kutt's 429; another Host Kutt's 421", async () => {
    const anonymous = await kutt(null, "POST", "/links", { target: "https://example.com/anonymous", reuse: true });
    expect(anonymous.status).toBe(201);
    expect((await api(server.url, keys.admin, "GET", `/api/links/${anonymous.body.address}`)).body.data.owner).toBeNull();
    const closed = await startServer({ args: ["--create-access", "key", "--base-url", "https://short.example"] });
    try {
      const post = (key: string | null) => fetch(`${closed.url}/api/v2/links`, { method: "POST", headers: { "Content-Type": "application/json", ...(key === null ? {} : { "X-API-KEY": key }) }, body: JSON.stringify({ target: "https://example.com/closed" }) });
      const refused = await post(null);
      expect(refused.status).toBe(401);
      expect(Object.keys(await refused.json())).toEqual(["error"]);
      let last: Response | null = null;
      for (let i = 0; i < 12; i++) last = await post(`wrong-${i}`);
      expect(last!.status).toBe(429);
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Object.keys(await last!.json())).toEqual(["error"]);
      // A page whose own name points here (DNS rebinding) gets 421, in Kutt's shape too.
      const rebound = await fetch(`${closed.url}/api/v2/users`, { headers: { Host: "rebound.example", "X-API-KEY": "sk_" + "r".repeat(32) } });
      expect(rebound.status).toBe(421);
      expect(Object.keys(await rebound.json())).toEqual(["error"]);
    } finally {
      await closed.dispose();
    }
  }, T);

  test("health is Kutt's OK; an unknown /api/v2 path is Kutt's 404", async () => {
    expect(await kutt(null, "GET", "/health")).toEqual({ status: 200, body: "OK" });
    kuttRefusal(await kutt(keys.admin, "GET", "/domains"), 404);
    kuttRefusal(await kutt(keys.admin, "PUT", "/links"), 404);
  }, T);

  test("an id survives its domain's rename and a move to another domain", async () => {
    const link = await made(keys.maker, { target: "https://example.com/moving", customurl: "kutt-moving", domain: "a.example.org" });
    expect(link).toMatchObject({ domain: "a.example.org", link: "https://a.example.org/kutt-moving" });
    expect((await api(server.url, keys.admin, "PATCH", "/api/domains/a.example.org", { name: "b.example.org" })).status).toBe(200);
    const renamed = await kutt(keys.maker, "PATCH", `/links/${link.id}`, { description: "Renamed domain" });
    expect(renamed.body).toMatchObject({ id: link.id, link: "https://b.example.org/kutt-moving" });
    expect((await api(server.url, keys.admin, "DELETE", "/api/domains/b.example.org?moveLinksTo=c.example.org")).status).toBe(200);
    const moved = await kutt(keys.maker, "GET", `/links/${link.id}/stats`);
    expect(moved.body).toMatchObject({ id: link.id, domain: "c.example.org", link: "https://c.example.org/kutt-moving", description: "Renamed domain" });
  }, T);
});

describe("statistics", () => {
  test("Kutt's periods from our counts: people only, browsers and systems by Kutt's names; another key's 404", async () => {
    const link = await made(keys.maker, { target: "https://example.com/counted", customurl: "kutt-counted" });
    await visit(server.url, "kutt-counted", [{ ua: UA.chromeWindows }, { ua: UA.chromeWindows }, { ua: UA.firefoxLinux }, { ua: UA.googlebot }]);
    const r = await kutt(keys.maker, "GET", `/links/${link.id}/stats`);
    expect(r.status).toBe(200);
    const { lastDay, lastWeek, lastMonth, lastYear } = r.body;
    expect([lastDay.views.length, lastWeek.views.length, lastMonth.views.length, lastYear.views.length]).toEqual([24, 7, 30, 12]);
    for (const p of [lastDay, lastWeek, lastMonth, lastYear]) {
      expect(p.total).toBe(3); // the bot is not counted, as Kutt records none
      expect(p.views.reduce((a: number, b: number) => a + b, 0)).toBe(3);
      expect(p.stats.browser[0]).toEqual({ name: "chrome", value: 2 });
      expect(p.stats.browser.map((b: any) => b.name).sort()).toEqual(["chrome", "edge", "firefox", "ie", "opera", "other", "safari"]);
      expect(p.stats.os.find((o: any) => o.name === "linux")).toEqual({ name: "linux", value: 1 });
      expect(Array.isArray(p.stats.country) && Array.isArray(p.stats.referrer)).toBe(true);
    }
    expect(lastYear.views[11]).toBe(3); // this month
    expect(r.body).toMatchObject({ id: link.id, address: "kutt-counted", target: "https://example.com/counted", visit_count: 3 });
    expect(Number.isNaN(Date.parse(r.body.updatedAt))).toBe(false);
    kuttRefusal(await kutt(keys.other, "GET", `/links/${link.id}/stats`), 404);
    expect(kuttRefusal(await kutt(keys.admin, "GET", "/links/00000000-0000-8000-8000-0000ffffffff/stats"), 404)).toBe("Link was not found.");
    expect((await kutt(keys.admin, "GET", `/links/${link.id}/stats`)).status).toBe(200);
  }, T);
});
