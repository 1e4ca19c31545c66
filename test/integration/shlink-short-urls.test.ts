// Shlink's short-URL routes (#39) against a real server on either engine: list (every parameter of
// Shlink's docs/swagger/paths/v1_short-urls.json GET), create (JSON, and the urlencoded form the GNOME
// extension posts: timoschwarzer/gnome-shell-extension-shlink extension.js, Soup.form_request_new_from_hash
// POST <instance>/rest/v2/short-urls with longUrl, Accept: application/json, X-Api-Key, wanting a 200 and
// reading `shortUrl`), shorten (v1_short-urls_shorten.json; module/Rest/src/Middleware/ShortUrl/
// CreateShortUrlContentNegotiationMiddleware.php), get, edit, delete (v1_short-urls_{shortCode}.json).
// Shapes: the fields Shlink 5.1's docs/swagger/definitions/ShortUrl.json, ShortUrlMeta.json,
// VisitsSummary.json and Pagination.json give; errors as docs/swagger/definitions/Error.json.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { isShortUrl, problem, shlinkCall, shlinkServer, type Servers } from "../support/shlink-short-urls.ts";
import type { RunningServer } from "../support/server.ts";

const T = 60_000;
type Key = "admin" | "maker" | "other";
let servers: Servers<Key>;
let server: RunningServer;
let keys: Record<Key, string>;

beforeAll(async () => {
  servers = await shlinkServer({ admin: "admin", maker: "create", other: "create" });
  ({ server, keys } = servers);
}, T);
afterAll(async () => {
  await servers?.server.stop();
  await servers?.first.dispose();
}, T);

const shlink = (...args: Parameters<typeof shlinkCall> extends [string, ...infer Rest] ? Rest : never) => shlinkCall(server.url, ...args);

const made = async (key: string, body: Record<string, unknown>) => {
  const r = await shlink(key, "POST", "/short-urls", body);
  if (r.status !== 200) throw new Error(`create: ${r.status} ${r.text}`);
  return r.body;
};

describe("create", () => {
  test("JSON: 200 with the ShortUrl; validSince/validUntil/maxVisits are our validFrom/expiresAt/maxClicks", async () => {
    const s = await made(keys.maker, { longUrl: "https://example.com/sh/one", customSlug: "sh-one", tags: ["x", "y"], title: "One", validSince: "2026-01-01T10:00:00+02:00", validUntil: "2099-12-31T23:00:00Z", maxVisits: 50, crawlable: true, forwardQuery: true, findIfExists: false });
    isShortUrl(s);
    expect(s).toMatchObject({ shortCode: "sh-one", shortUrl: `${server.url}/sh-one`, longUrl: "https://example.com/sh/one", tags: ["x", "y"], title: "One", domain: null, crawlable: true, forwardQuery: true, hasRedirectRules: false, visitsSummary: { total: 0, nonBots: 0, bots: 0 } });
    expect(s.meta).toEqual({ validSince: "2026-01-01T08:00:00+00:00", validUntil: "2099-12-31T23:00:00+00:00", maxVisits: 50 });
    // our own API sees the same link
    const ours = await (await fetch(`${server.url}/api/links/sh-one`, { headers: { authorization: `Bearer ${keys.maker}` } })).json();
    expect(ours.data).toMatchObject({ maxClicks: 50, expiresAt: "2099-12-31T23:00:00.000Z", validFrom: "2026-01-01T08:00:00.000Z", crawlable: true });
  }, T);

  test("the GNOME extension's form post to /rest/v2/short-urls: 200 and an absolute shortUrl", async () => {
    const res = await fetch(`${server.url}/rest/v2/short-urls`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json", "X-Api-Key": keys.maker },
      body: new URLSearchParams({ longUrl: "https://example.com/gnome?a=1&b=2" }).toString(),
    });
    expect(res.status).toBe(200);
    const s = (await res.json()) as any;
    isShortUrl(s);
    expect(s.longUrl).toBe("https://example.com/gnome?a=1&b=2");
    expect(s.shortUrl).toBe(`${server.url}/${s.shortCode}`);
    expect((await fetch(s.shortUrl, { redirect: "manual" })).headers.get("location")).toBe("https://example.com/gnome?a=1&b=2");
  }, T);

  test("a form's tags[] and flags as text", async () => {
    const body = "longUrl=https%3A%2F%2Fexample.com%2Fform-tags&tags%5B%5D=red&tags%5B%5D=blue&crawlable=true&forwardQuery=true";
    const r = await shlink(keys.maker, "POST", "/short-urls", body, { "Content-Type": "application/x-www-form-urlencoded" }, "v2");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ crawlable: true });
    expect([...r.body.tags].sort()).toEqual(["blue", "red"]);
  }, T);

  test("a form's single tags value is a list of one (a form cannot say otherwise)", async () => {
    const body = "longUrl=https%3A%2F%2Fexample.com%2Fform-one-tag&tags=red";
    const r = await shlink(keys.maker, "POST", "/short-urls", body, { "Content-Type": "application/x-www-form-urlencoded" }, "v2");
    expect(r.status).toBe(200);
    expect(r.body.tags).toEqual(["red"]);
  }, T);

  test("on another domain: its name, and the short URL on it", async () => {
    const s = await made(keys.maker, { longUrl: "https://example.com/sh/dom", customSlug: "sh-dom", domain: "a.example.org" });
    expect(s).toMatchObject({ domain: "a.example.org", shortUrl: "https://a.example.org/sh-dom" });
  }, T);

  test("findIfExists gives back the caller's own link for the URL, never another key's", async () => {
    const mine = await made(keys.maker, { longUrl: "https://example.com/sh/again" });
    expect((await made(keys.maker, { longUrl: "https://example.com/sh/again", findIfExists: true })).shortCode).toBe(mine.shortCode);
    expect((await made(keys.other, { longUrl: "https://example.com/sh/again", findIfExists: true })).shortCode).not.toBe(mine.shortCode);
    // with a customSlug, only the link of that slug is "the same": another code is not handed back
    expect((await made(keys.maker, { longUrl: "https://example.com/sh/again", customSlug: "sh-again", findIfExists: true })).shortCode).toBe("sh-again");
    expect((await made(keys.maker, { longUrl: "https://example.com/sh/again", customSlug: "sh-again", findIfExists: true })).shortCode).toBe("sh-again");
  }, T);

  test("findIfExists reuses only a link holding every field given (Shlink's findOneMatching); otherwise it makes one", async () => {
    const url = "https://example.com/sh/match";
    const plain = await made(keys.maker, { longUrl: url });
    const full = { tags: ["m1", "m2"], maxVisits: 3, validSince: "2026-01-01T00:00:00Z", validUntil: "2099-01-01T00:00:00Z", title: "T", crawlable: true };
    // A field the old link lacks: a new link that holds it, never the old one with the field dropped.
    for (const [name, value] of Object.entries(full)) {
      const got = await made(keys.maker, { longUrl: url, findIfExists: true, [name]: value });
      expect(got.shortCode, name).not.toBe(plain.shortCode);
    }
    const rich = await made(keys.maker, { longUrl: url, ...full });
    // Every field as the link holds it (tags in another order): that link. Fewer fields given: still a match.
    expect((await made(keys.maker, { longUrl: url, findIfExists: true, ...full, tags: ["m2", "m1"] })).shortCode).toBe(rich.shortCode);
    expect((await made(keys.maker, { longUrl: url, findIfExists: true, tags: ["m1", "m2"], maxVisits: 3 })).shortCode).toBe(rich.shortCode);
    // The tag set must match exactly: a subset is another link.
    expect((await made(keys.maker, { longUrl: url, findIfExists: true, tags: ["m1"], maxVisits: 3 })).shortCode).not.toBe(rich.shortCode);
    expect((await made(keys.maker, { longUrl: url, findIfExists: true, ...full, maxVisits: 4 })).shortCode).not.toBe(rich.shortCode);
    // Nothing but the URL: the oldest, as before.
    expect((await made(keys.maker, { longUrl: url, findIfExists: true })).shortCode).toBe(plain.shortCode);
  }, T);

  test("what we cannot honour is refused naming the field (invalid-data), never a 5xx", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: "no url" }, "longUrl"],
      [{ longUrl: "not a url" }, "longUrl"],
      [{ longUrl: "https://example.com/x", customSlug: "a b" }, "customSlug"],
      [{ longUrl: "https://example.com/x", pathPrefix: "pre" }, "pathPrefix"],
      [{ longUrl: "https://example.com/x", shortCodeLength: "4" }, "shortCodeLength"],
      [{ longUrl: "https://example.com/x", forwardQuery: false }, "forwardQuery"],
      [{ longUrl: "https://example.com/x", validUntil: "tomorrow" }, "validUntil"],
      [{ longUrl: "https://example.com/x", validSince: "soon" }, "validSince"],
      [{ longUrl: "https://example.com/x", maxVisits: 0 }, "maxVisits"],
      [{ longUrl: "https://example.com/x", tags: "not a list!" }, "tags"],
      // a JSON string is no list, even one that would be a valid tag (Shlink's ArrayInput refuses it)
      [{ longUrl: "https://example.com/x", tags: "abc" }, "tags"],
      [{ longUrl: "https://example.com/x", domain: 123 }, "domain"],
      // a start after the end: a link no one could visit
      [{ longUrl: "https://example.com/x", validSince: "2099-01-01T00:00:00Z", validUntil: "2098-01-01T00:00:00Z" }, "validSince"],
      [{ longUrl: "https://example.com/x", crawlable: "perhaps" }, "crawlable"],
      [{ longUrl: "https://example.com/x", findIfExists: "perhaps" }, "findIfExists"],
    ];
    for (const [body, field] of cases) {
      const doc = problem(await shlink(keys.maker, "POST", "/short-urls", body), 400, "invalid-data");
      expect(doc.invalidElements).toContain(field);
    }
    // the detail (what the web client shows) names Shlink's fields, not ours
    expect(problem(await shlink(keys.maker, "POST", "/short-urls", { longUrl: "https://example.com/x", customSlug: "a b" }), 400, "invalid-data").detail).toStartWith("customSlug ");
    expect(problem(await shlink(keys.maker, "POST", "/short-urls", { longUrl: "https://example.com/x", maxVisits: 0 }), 400, "invalid-data").detail).toStartWith("maxVisits ");
    // shortCodeLength of our own generated length is honoured
    expect((await made(keys.maker, { longUrl: "https://example.com/x7", shortCodeLength: "7" })).shortCode).toHaveLength(7);
    problem(await shlink(keys.maker, "POST", "/short-urls", "{nope", { "Content-Type": "application/json" }), 400, "invalid-data");
  }, T);

  test("a taken slug is non-unique-slug naming it; a wrong or missing key is refused", async () => {
    await made(keys.other, { longUrl: "https://example.com/taken", customSlug: "sh-taken" });
    const doc = problem(await shlink(keys.maker, "POST", "/short-urls", { longUrl: "https://example.com/t2", customSlug: "sh-taken" }), 400, "non-unique-slug");
    expect(doc.customSlug).toBe("sh-taken");
    expect(doc.detail).toBe('Provided slug "sh-taken" is already in use.');
    problem(await shlink("not-a-key", "POST", "/short-urls", { longUrl: "https://example.com/t3" }), 401, "invalid-api-key");
    problem(await shlink(null, "POST", "/short-urls", { longUrl: "https://example.com/t3" }), 401, "missing-authentication");
  }, T);
});

describe("shorten", () => {
  const shorten = (query: string, headers: Record<string, string> = {}) => fetch(`${server.url}/rest/v3/short-urls/shorten?${query}`, { headers });

  test("format=txt: the short URL alone as text/plain; json: the ShortUrl", async () => {
    const txt = await shorten(`apiKey=${keys.maker}&longUrl=${encodeURIComponent("https://example.com/shorten/txt")}&format=txt`);
    expect(txt.status).toBe(200);
    expect(txt.headers.get("content-type")).toStartWith("text/plain");
    const url = await txt.text();
    expect(url).toMatch(new RegExp(`^${server.url}/[A-Za-z0-9]{7}$`));
    expect((await fetch(url, { redirect: "manual" })).headers.get("location")).toBe("https://example.com/shorten/txt");
    const json = await shorten(`apiKey=${keys.maker}&longUrl=${encodeURIComponent("https://example.com/shorten/json")}&format=json`);
    expect(json.status).toBe(200);
    const s = (await json.json()) as any;
    isShortUrl(s);
    expect(s.longUrl).toBe("https://example.com/shorten/json");
  }, T);

  test("no format: Accept text/plain gives text, anything else JSON", async () => {
    const q = `apiKey=${keys.maker}&longUrl=${encodeURIComponent("https://example.com/shorten/accept")}`;
    const text = await shorten(q, { Accept: "text/plain" });
    expect(text.headers.get("content-type")).toStartWith("text/plain");
    expect(await text.text()).toStartWith(`${server.url}/`);
    const json = await shorten(q, { Accept: "application/json" });
    expect(json.headers.get("content-type")).toStartWith("application/json");
  }, T);

  test("the key in ?apiKey= only; a bad longUrl is invalid-data", async () => {
    const missing = await shorten(`longUrl=${encodeURIComponent("https://example.com/k")}`, { "X-Api-Key": keys.maker });
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as any).param).toBe("apiKey");
    expect(((await (await shorten(`apiKey=wrong&longUrl=x`)).json()) as any).type).toBe("https://shlink.io/api/error/invalid-api-key");
    const bad = await shorten(`apiKey=${keys.maker}&format=txt`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toStartWith("application/problem+json");
    expect(((await bad.json()) as any).invalidElements).toEqual(["longUrl"]);
  }, T);
});

describe("get, edit, delete", () => {
  test("get: the key's own link; another's is short-url-not-found, as an unknown one; an admin sees any", async () => {
    await made(keys.maker, { longUrl: "https://example.com/sh/get", customSlug: "sh-get" });
    const own = await shlink(keys.maker, "GET", "/short-urls/sh-get");
    expect(own.status).toBe(200);
    isShortUrl(own.body);
    expect((await shlink(keys.admin, "GET", "/short-urls/sh-get?domain=DEFAULT")).body.shortCode).toBe("sh-get");
    expect(problem(await shlink(keys.other, "GET", "/short-urls/sh-get"), 404, "short-url-not-found").shortCode).toBe("sh-get");
    problem(await shlink(keys.maker, "GET", "/short-urls/no-such-code"), 404, "short-url-not-found");
    problem(await shlink("wrong", "GET", "/short-urls/sh-get"), 401, "invalid-api-key");
    // a code on another domain is named by ?domain=; an unknown domain finds nothing
    expect((await shlink(keys.maker, "GET", "/short-urls/sh-dom?domain=a.example.org")).body.domain).toBe("a.example.org");
    problem(await shlink(keys.maker, "GET", "/short-urls/sh-dom"), 404, "short-url-not-found");
    expect(problem(await shlink(keys.maker, "GET", "/short-urls/sh-dom?domain=z.example.org"), 404, "short-url-not-found").domain).toBe("z.example.org");
  }, T);

  test("edit: Shlink's names, nulls clear, stray keys are passed over; 200 with the ShortUrl", async () => {
    await made(keys.maker, { longUrl: "https://example.com/sh/edit", customSlug: "sh-edit", title: "Before", tags: ["a"], maxVisits: 5, validUntil: "2099-01-01T00:00:00Z" });
    const r = await shlink(keys.maker, "PATCH", "/short-urls/sh-edit", { longUrl: "https://example.com/sh/edited", title: "After", tags: ["b", "c"], maxVisits: null, validUntil: null, validSince: "2026-02-01T00:00:00+01:00", crawlable: true, forwardQuery: true, domain: null });
    expect(r.status).toBe(200);
    isShortUrl(r.body);
    expect(r.body).toMatchObject({ longUrl: "https://example.com/sh/edited", title: "After", tags: ["b", "c"], crawlable: true, meta: { maxVisits: null, validUntil: null, validSince: "2026-01-31T23:00:00+00:00" } });
    const cleared = await shlink(keys.maker, "PATCH", "/short-urls/sh-edit", { title: null, tags: [] });
    expect(cleared.body).toMatchObject({ title: null, tags: [] });
  }, T);

  test("edit: an expiry already past, sent back unchanged with the rest of the form, is no change", async () => {
    const soon = Date.now() + 1_500;
    const s = await made(keys.maker, { longUrl: "https://example.com/sh/soon", customSlug: "sh-soon", validUntil: new Date(soon).toISOString() });
    await Bun.sleep(Math.max(0, soon - Date.now()) + 1_100);
    const r = await shlink(keys.maker, "PATCH", "/short-urls/sh-soon", { title: "Still editable", validUntil: s.meta.validUntil, longUrl: s.longUrl });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: "Still editable", meta: { validUntil: s.meta.validUntil } });
    // a past expiry that is a change is refused naming the field
    expect(problem(await shlink(keys.maker, "PATCH", "/short-urls/sh-soon", { validUntil: "2020-01-01T00:00:00Z" }), 400, "invalid-data").invalidElements).toEqual(["validUntil"]);
  }, T);

  test("hasRedirectRules: the link has rules (set through our own API) or an A/B split", async () => {
    await made(keys.maker, { longUrl: "https://example.com/sh/rules", customSlug: "sh-rules" });
    expect((await shlink(keys.maker, "GET", "/short-urls/sh-rules")).body.hasRedirectRules).toBe(false);
    const rules = [{ conditions: [{ type: "country", value: "FR" }], url: "https://example.fr/" }];
    const ours = await fetch(`${server.url}/api/links/sh-rules`, { method: "PATCH", headers: { authorization: `Bearer ${keys.maker}`, "content-type": "application/json" }, body: JSON.stringify({ rules }) });
    expect(ours.status).toBe(200);
    expect((await shlink(keys.maker, "GET", "/short-urls/sh-rules")).body.hasRedirectRules).toBe(true);
    const split = await fetch(`${server.url}/api/links/sh-rules`, { method: "PATCH", headers: { authorization: `Bearer ${keys.maker}`, "content-type": "application/json" }, body: JSON.stringify({ rules: null, variants: [{ url: "https://example.com/a", weight: 1 }, { url: "https://example.com/b", weight: 1 }] }) });
    expect(split.status).toBe(200);
    expect((await shlink(keys.maker, "GET", "/short-urls/sh-rules")).body.hasRedirectRules).toBe(true);
  }, T);

  test("edit: another's link is short-url-not-found; bad values are invalid-data", async () => {
    problem(await shlink(keys.other, "PATCH", "/short-urls/sh-edit", { title: "mine now" }), 404, "short-url-not-found");
    expect((await shlink(keys.maker, "GET", "/short-urls/sh-edit")).body.title).toBeNull();
    expect(problem(await shlink(keys.maker, "PATCH", "/short-urls/sh-edit", { longUrl: "nope" }), 400, "invalid-data").invalidElements).toEqual(["longUrl"]);
    expect(problem(await shlink(keys.maker, "PATCH", "/short-urls/sh-edit", { forwardQuery: false }), 400, "invalid-data").invalidElements).toEqual(["forwardQuery"]);
    expect(problem(await shlink(keys.maker, "PATCH", "/short-urls/sh-edit", { tags: "abc" }), 400, "invalid-data").invalidElements).toEqual(["tags"]);
    expect(problem(await shlink(keys.maker, "PATCH", "/short-urls/sh-edit", { validSince: "2099-01-01T00:00:00Z", validUntil: "2098-01-01T00:00:00Z" }), 400, "invalid-data").invalidElements).toEqual(["validSince"]);
    const negative = problem(await shlink(keys.maker, "PATCH", "/short-urls/sh-edit", { maxVisits: -3 }), 400, "invalid-data");
    expect(negative.invalidElements).toEqual(["maxVisits"]);
    expect(negative.detail).toStartWith("maxVisits ");
    problem(await shlink(keys.maker, "PATCH", "/short-urls/sh-edit", "[1]", { "Content-Type": "application/json" }), 400, "invalid-data");
    problem(await shlink(null, "PATCH", "/short-urls/sh-edit", { title: "x" }), 401, "missing-authentication");
  }, T);

  test("delete: 204 and gone; another's is short-url-not-found and stays", async () => {
    await made(keys.maker, { longUrl: "https://example.com/sh/del", customSlug: "sh-del" });
    problem(await shlink(keys.other, "DELETE", "/short-urls/sh-del"), 404, "short-url-not-found");
    const r = await shlink(keys.maker, "DELETE", "/short-urls/sh-del");
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    problem(await shlink(keys.maker, "GET", "/short-urls/sh-del"), 404, "short-url-not-found");
    problem(await shlink(keys.maker, "DELETE", "/short-urls/sh-del"), 404, "short-url-not-found");
    problem(await shlink("wrong", "DELETE", "/short-urls/sh-get"), 401, "invalid-api-key");
  }, T);
});
