// Shlink's redirect-rules routes (#39) against a real server, on either engine: every Shlink
// condition we have an exact equivalent for set through Shlink's API, shown by ours as the same
// rule, followed by a real click, and shown back by Shlink's GET; every condition without one
// refused by name; links whose behaviour Shlink cannot show read-only; keys and scopes.
// Shapes: shlink docs/swagger/paths/v3_short-urls_{shortCode}_redirect-rules.json (200 requires
// defaultLongUrl and redirectRules), definitions/ShortUrlRedirectRule.json (priority, longUrl,
// conditions of type/matchKey/matchValue); the SDK's ShlinkRedirectRulesList
// (shlink-js-sdk src/api-contract/types.ts); conditions' meaning: shlink
// module/Core/src/RedirectRule/Entity/RedirectCondition.php.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeMmdb } from "../support/mmdb-writer.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click } from "../support/clicks.ts";
import { BROWSERS } from "../fixtures/user-agents.ts";

const HOUR = 3_600_000;
let files: string;
let server: RunningServer;
let admin: string;
let alice: string;
let bob: string;

const ua = (name: string): string => BROWSERS.find((c) => c.name === name)!.ua!;
const CHROME_WINDOWS = ua("Chrome on Windows");
const FIREFOX_LINUX = ua("Firefox on Linux");
const SAFARI_MAC = ua("Safari on macOS");
const SAFARI_IPHONE = ua("Safari on iPhone");
const CHROME_ANDROID = ua("Chrome on Android phone (Pixel 8)");
const CHROME_OS = ua("Chrome on ChromeOS");
const EDGE = ua("Edge on Windows");
const OPERA = ua("Opera on Windows");
const ANDROID_BROWSER = "Mozilla/5.0 (Linux; U; Android 4.0.3; ko-kr; LG-L160L Build/IML74K) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30";

beforeAll(async () => {
  files = mkdtempSync(join(tmpdir(), "shortener-shlink-rules-"));
  const geo = join(files, "geo.mmdb");
  writeFileSync(geo, writeMmdb([{ cidr: "203.0.113.0/24", data: { country: { iso_code: "DE" }, registered_country: { iso_code: "DE" } } }], { ipVersion: 4, databaseType: "GeoLite2-Country", buildEpoch: 1_700_000_000 }));
  const blocklist = join(files, "blocklist.txt");
  writeFileSync(blocklist, "blocked.example\n");
  server = await startServer({ args: ["--create-rate-limit", "0", "--trust-proxy", "127.0.0.1", "--geoip-db", geo, "--blocklist", blocklist] });
  admin = makeKey(server.dbPath, "admin");
  alice = makeKey(server.dbPath, "alice", "create");
  bob = makeKey(server.dbPath, "bob", "create");
}, 60_000);
afterAll(async () => {
  await server.dispose();
  rmSync(files, { recursive: true, force: true });
});

type Answer = { status: number; type: string; body: any };

/** One call of Shlink's API with X-Api-Key (null: none), as the SDK's FetchHttpClient makes it. */
async function shlink(method: string, path: string, key: string | null, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = key === null ? {} : { "X-Api-Key": key };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${server.url}/rest/v3${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, type: res.headers.get("content-type") ?? "", body: await res.json() };
}

const YES = "https://yes.example/";
const NO = "https://default.example/";

async function made(id: string, key = admin, extra: Record<string, unknown> = {}) {
  const r = await api(server.url, key, "POST", "/api/create", { url: NO, custom_url: id, ...extra });
  expect(r.status).toBe(201);
}

/** Our API's rules of a link. */
async function ourRules(id: string): Promise<unknown> {
  return (await api(server.url, admin, "GET", `/api/links/${id}`)).body.data.rules;
}

type Click = { ua?: string; ip?: string; query?: string };
async function where(id: string, c: Click = {}): Promise<string> {
  const headers: Record<string, string> = { "user-agent": c.ua ?? CHROME_WINDOWS };
  if (c.ip !== undefined) headers["x-forwarded-for"] = c.ip;
  const res = await click(server.url, `${id}${c.query ?? ""}`, headers);
  expect(res.status).toBe(302);
  return res.headers.get("location")!.split("?")[0]!;
}

/** A problem document of Shlink's (shlink docs/swagger/definitions/Error.json: type, title, detail, status). */
function expectProblem(a: Answer, status: number, type: string) {
  expect(a.status).toBe(status);
  expect(a.type).toStartWith("application/problem+json");
  expect(a.body).toMatchObject({ type: `https://shlink.io/api/error/${type}`, status });
  expect(typeof a.body.title).toBe("string");
  expect(typeof a.body.detail).toBe("string");
}

const atom = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "+00:00");
const now = Date.now();

describe("every mappable condition: set through Shlink, ours shows it, a click follows it, Shlink shows it back", () => {
  // [Shlink condition sent, our condition stored, Shlink condition shown back, clicks it holds for, clicks it does not]
  const c = (type: string, matchValue: string | null, matchKey: string | null = null) => ({ type, matchKey, matchValue });
  const CASES: [string, ReturnType<typeof c>, unknown, ReturnType<typeof c> | null, Click[], Click[]][] = [
    ["device android", c("device", "android"), { type: "os", value: "android" }, null, [{ ua: CHROME_ANDROID }], [{ ua: CHROME_WINDOWS }, { ua: SAFARI_IPHONE }]],
    ["device ios", c("device", "ios"), { type: "os", value: "ios" }, null, [{ ua: SAFARI_IPHONE }], [{ ua: SAFARI_MAC }]],
    ["device windows", c("device", "windows"), { type: "os", value: "windows" }, null, [{ ua: CHROME_WINDOWS }], [{ ua: FIREFOX_LINUX }]],
    ["device macos", c("device", "macos"), { type: "os", value: "macos" }, null, [{ ua: SAFARI_MAC }], [{ ua: SAFARI_IPHONE }]],
    ["device linux", c("device", "linux"), { type: "os", value: "linux" }, null, [{ ua: FIREFOX_LINUX }], [{ ua: CHROME_OS }]],
    ["device chromeos", c("device", "chromeos"), { type: "os", value: "chromeos" }, null, [{ ua: CHROME_OS }], [{ ua: FIREFOX_LINUX }]],
    ["device desktop", c("device", "desktop"), { type: "device", value: "desktop" }, null, [{ ua: CHROME_WINDOWS }, { ua: SAFARI_MAC }], [{ ua: SAFARI_IPHONE }, { ua: CHROME_ANDROID }]],
    ["browser chrome", c("browser", "chrome"), { type: "browser", value: "Chrome" }, null, [{ ua: CHROME_WINDOWS }], [{ ua: FIREFOX_LINUX }, { ua: EDGE }]],
    ["browser firefox", c("browser", "firefox"), { type: "browser", value: "Firefox" }, null, [{ ua: FIREFOX_LINUX }], [{ ua: CHROME_WINDOWS }]],
    ["browser edge", c("browser", "edge"), { type: "browser", value: "Edge" }, null, [{ ua: EDGE }], [{ ua: CHROME_WINDOWS }]],
    ["browser safari", c("browser", "safari"), { type: "browser", value: "Safari" }, null, [{ ua: SAFARI_MAC }, { ua: SAFARI_IPHONE }], [{ ua: CHROME_WINDOWS }]],
    ["browser opera", c("browser", "opera"), { type: "browser", value: "Opera" }, null, [{ ua: OPERA }], [{ ua: CHROME_WINDOWS }]],
    ["browser android_browser", c("browser", "android_browser"), { type: "browser", value: "Android Browser" }, null, [{ ua: ANDROID_BROWSER }], [{ ua: CHROME_ANDROID }]],
    ["query-param", c("query-param", "mail", "src"), { type: "query", key: "src", value: "mail" }, null, [{ query: "?src=mail" }], [{ query: "?src=web" }, { query: "?src" }, {}]],
    ["any-value-query-param", c("any-value-query-param", null, "src"), { type: "query", key: "src" }, null, [{ query: "?src=x" }, { query: "?src" }], [{}, { query: "?other=1" }]],
    ["valueless-query-param", c("valueless-query-param", null, "src"), { type: "query", key: "src", value: "" }, null, [{ query: "?src" }, { query: "?src=" }], [{ query: "?src=x" }, {}]],
    ["ip-address static", c("ip-address", "192.0.2.7"), { type: "cidr", value: "192.0.2.7/32" }, null, [{ ip: "192.0.2.7" }], [{ ip: "192.0.2.8" }]],
    ["ip-address CIDR", c("ip-address", "192.0.2.0/25"), { type: "cidr", value: "192.0.2.0/25" }, null, [{ ip: "192.0.2.100" }], [{ ip: "192.0.2.200" }]],
    ["ip-address wildcard", c("ip-address", "198.51.*.*"), { type: "cidr", value: "198.51.0.0/16" }, c("ip-address", "198.51.0.0/16"), [{ ip: "198.51.7.9" }], [{ ip: "198.52.0.1" }]],
    ["geolocation-country-code", c("geolocation-country-code", "de"), { type: "country", value: "DE" }, c("geolocation-country-code", "DE"), [{ ip: "203.0.113.9" }], [{ ip: "192.0.2.1" }]],
    ["before-date", c("before-date", atom(now + HOUR)), { type: "before", value: new Date(Math.floor((now + HOUR) / 1000) * 1000).toISOString() }, null, [{}], []],
    ["after-date", c("after-date", atom(now + HOUR)), { type: "after", value: new Date(Math.floor((now + HOUR) / 1000) * 1000).toISOString() }, null, [], [{}]],
  ];
  let n = 0;
  for (const [name, sent, ours, shownBack, holds, not] of CASES) {
    test(name, async () => {
      const id = `map-${++n}`;
      await made(id);
      const set = await shlink("POST", `/short-urls/${id}/redirect-rules`, admin, { redirectRules: [{ longUrl: YES, conditions: [sent] }] });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ defaultLongUrl: NO, redirectRules: [{ longUrl: YES, priority: 1, conditions: [shownBack ?? sent] }] });
      expect(await ourRules(id)).toEqual([{ conditions: [ours], url: YES }]);
      for (const k of holds) expect(await where(id, k)).toBe(YES);
      for (const k of not) expect(await where(id, k)).toBe(NO);
      expect((await shlink("GET", `/short-urls/${id}/redirect-rules`, admin)).body).toEqual(set.body);
    });
  }
});

describe("setting rules", () => {
  test("order is priority, a set replaces every rule, PATCH sets alike, [] clears; the audit line is our update's", async () => {
    await made("order");
    const rules = [
      { longUrl: "https://first.example/", conditions: [{ type: "query-param", matchKey: "a", matchValue: "1" }] },
      { longUrl: "https://second.example/", conditions: [{ type: "any-value-query-param", matchKey: "a", matchValue: null }] },
    ];
    const set = await shlink("POST", "/short-urls/order/redirect-rules", admin, { redirectRules: rules });
    expect(set.body.redirectRules.map((r: any) => [r.priority, r.longUrl])).toEqual([[1, "https://first.example/"], [2, "https://second.example/"]]);
    expect(await where("order", { query: "?a=1" })).toBe("https://first.example/");
    expect(await where("order", { query: "?a=2" })).toBe("https://second.example/");
    const patched = await shlink("PATCH", "/short-urls/order/redirect-rules", admin, { redirectRules: [rules[1]] });
    expect(patched.status).toBe(200);
    expect(await ourRules("order")).toEqual([{ conditions: [{ type: "query", key: "a" }], url: "https://second.example/" }]);
    const cleared = await shlink("POST", "/short-urls/order/redirect-rules?domain=DEFAULT", admin, { redirectRules: [] });
    expect(cleared.body).toEqual({ defaultLongUrl: NO, redirectRules: [] });
    expect(await ourRules("order")).toEqual([]);
    expect(server.output()).toContain('management key=admin action=update id=order result="ok rules"');
  });

  test("a rule's URL goes through our URL rules: a local address, a blocked host refused as invalid-data redirectRules", async () => {
    await made("urls");
    for (const longUrl of ["http://127.0.0.1/x", "https://blocked.example/x", "not a url"]) {
      const r = await shlink("POST", "/short-urls/urls/redirect-rules", admin, { redirectRules: [{ longUrl, conditions: [{ type: "device", matchKey: null, matchValue: "ios" }] }] });
      expectProblem(r, 400, "invalid-data");
      expect(r.body.invalidElements).toEqual(["redirectRules"]);
    }
    expect(await ourRules("urls")).toEqual([]);
  });
});

describe("a condition without an exact equivalent is refused by name, nothing changed", () => {
  const REFUSED: [string, unknown, string][] = [
    ["language", { type: "language", matchKey: null, matchValue: "de" }, "language"],
    ["geolocation-city-name", { type: "geolocation-city-name", matchKey: null, matchValue: "Berlin" }, "geolocation-city-name"],
    ["device mobile", { type: "device", matchKey: null, matchValue: "mobile" }, "mobile"],
    ["a wildcard inside an address", { type: "ip-address", matchKey: null, matchValue: "10.*.0.1" }, "ip-address"],
    ["an unknown device", { type: "device", matchKey: null, matchValue: "tv" }, "device"],
    ["an unknown browser", { type: "browser", matchKey: null, matchValue: "vivaldi" }, "browser"],
    ["an unknown type", { type: "weather", matchKey: null, matchValue: "rain" }, "weather"],
    ["a date without a zone", { type: "after-date", matchKey: null, matchValue: "2026-12-01T00:00:00" }, "after-date"],
    ["query-param without a value", { type: "query-param", matchKey: "a", matchValue: null }, "query-param"],
    // Client text never reaches Object.prototype: these were taken (and stored) or leaked "function Object()".
    ["device constructor", { type: "device", matchKey: null, matchValue: "constructor" }, "a device condition needs"],
    ["device proto", { type: "device", matchKey: null, matchValue: "__proto__" }, "a device condition needs"],
    ["browser constructor", { type: "browser", matchKey: null, matchValue: "constructor" }, "a browser condition needs"],
    ["type constructor", { type: "constructor", matchKey: null, matchValue: "x" }, '"constructor" is no condition type'],
    ["type proto", { type: "__proto__", matchKey: null, matchValue: "x" }, '"__proto__" is no condition type'],
    ["a NUL in matchKey", { type: "query-param", matchKey: "a\u0000", matchValue: "b" }, "control characters"],
    ["a lone surrogate in matchValue", { type: "query-param", matchKey: "a", matchValue: "b\ud800" }, "control characters"],
    ["a control character in matchValue", { type: "any-value-query-param", matchKey: "a\u001f", matchValue: null }, "control characters"],
  ];
  for (const [name, condition, named] of REFUSED) {
    test(name, async () => {
      const id = `no-${name.replace(/[^a-z]/g, "").slice(0, 20)}`;
      await made(id);
      const r = await shlink("POST", `/short-urls/${id}/redirect-rules`, admin, { redirectRules: [{ longUrl: YES, conditions: [{ type: "device", matchKey: null, matchValue: "ios" }, condition] }] });
      expectProblem(r, 400, "invalid-data");
      expect(r.body.invalidElements).toEqual(["redirectRules"]);
      expect(r.body.detail).toContain(named);
      expect(r.body.detail).toContain("rule 1, condition 2");
      expect(await ourRules(id)).toEqual([]);
    });
  }

  test("bodies that are no rules: invalid-data, never a 5xx", async () => {
    await made("badbody");
    for (const body of [{}, { redirectRules: "x" }, { redirectRules: [1] }, { redirectRules: [{ conditions: [] , longUrl: YES }] }, { redirectRules: [{ conditions: [{ type: "device", matchValue: "ios" }] }] }]) {
      const r = await shlink("POST", "/short-urls/badbody/redirect-rules", admin, body);
      expectProblem(r, 400, "invalid-data");
      expect(r.body.invalidElements).toEqual(["redirectRules"]);
    }
    const res = await fetch(`${server.url}/rest/v3/short-urls/badbody/redirect-rules`, { method: "POST", headers: { "X-Api-Key": admin, "Content-Type": "application/json" }, body: "{" });
    expect(res.status).toBe(400);
  });
});

describe("a link Shlink cannot show in full: its rules read-only (D7)", () => {
  const osRule = { conditions: [{ type: "os", value: "ios" }], url: YES };
  const CASES: [string, Record<string, unknown>, string][] = [
    ["variants", { rules: [osRule], variants: [{ url: "https://a.example/", weight: 1 }, { url: "https://b.example/", weight: 1 }] }, "variants"],
    ["password", { rules: [osRule], password: "secret-pass" }, "password"],
    ["redirect type", { rules: [osRule], redirect_type: 301 }, "301"],
    ["fallback", { rules: [osRule], fallback_url: "https://fallback.example/" }, "fallback"],
    ["language rule", { rules: [{ conditions: [{ type: "language", value: "de" }], url: "https://de.example/" }, osRule] }, "language"],
    ["tablet rule", { rules: [{ conditions: [{ type: "device", value: "tablet" }], url: "https://tab.example/" }, osRule] }, "tablet"],
    ["split rule", { rules: [{ conditions: [{ type: "os", value: "android" }], variants: [{ url: "https://a.example/", weight: 1 }, { url: "https://b.example/", weight: 2 }] }, osRule] }, "variants"],
    ["a browser Shlink has not", { rules: [{ conditions: [{ type: "browser", value: "Vivaldi" }], url: "https://v.example/" }, osRule] }, "Vivaldi"],
  ];
  let n = 0;
  for (const [name, extra, reason] of CASES) {
    test(name, async () => {
      const id = `ro-${++n}`;
      await made(id, admin, extra);
      const before = await ourRules(id);
      const shown = await shlink("GET", `/short-urls/${id}/redirect-rules`, admin);
      expect(shown.status).toBe(200);
      // What maps is shown with its own priority; a rule Shlink cannot show leaves a gap.
      const at = (before as unknown[]).length;
      expect(shown.body).toEqual({ defaultLongUrl: NO, redirectRules: [{ longUrl: YES, priority: at, conditions: [{ type: "device", matchKey: null, matchValue: "ios" }] }] });
      for (const method of ["POST", "PATCH"]) {
        const r = await shlink(method, `/short-urls/${id}/redirect-rules`, admin, { redirectRules: [] });
        expectProblem(r, 400, "invalid-data");
        expect(r.body.invalidElements).toEqual(["redirectRules"]);
        expect(r.body.detail).toContain(reason);
        expect(r.body.detail).toContain("dashboard");
      }
      expect(await ourRules(id)).toEqual(before);
    });
  }
});

describe("keys and scopes", () => {
  test("a create key sets its own link's rules; another's link is short-url-not-found for it; a wrong or missing key is 401", async () => {
    await made("alices", alice);
    await made("bobs", bob);
    const own = await shlink("POST", "/short-urls/alices/redirect-rules", alice, { redirectRules: [{ longUrl: YES, conditions: [{ type: "device", matchKey: null, matchValue: "ios" }] }] });
    expect(own.status).toBe(200);
    expect((await shlink("GET", "/short-urls/alices/redirect-rules", alice)).body.redirectRules).toHaveLength(1);
    for (const method of ["GET", "POST", "PATCH"]) {
      const r = await shlink(method, "/short-urls/bobs/redirect-rules", alice, method === "GET" ? undefined : { redirectRules: [] });
      expectProblem(r, 404, "short-url-not-found");
      expect(r.body.shortCode).toBe("bobs");
    }
    expect(await ourRules("bobs")).toEqual([]);
    expectProblem(await shlink("GET", "/short-urls/nosuch/redirect-rules", admin), 404, "short-url-not-found");
    expectProblem(await shlink("GET", "/short-urls/alices/redirect-rules?domain=other.example", admin), 404, "short-url-not-found");
    expectProblem(await shlink("POST", "/short-urls/alices/redirect-rules", "not-a-key", { redirectRules: [] }), 401, "invalid-api-key");
    expectProblem(await shlink("GET", "/short-urls/alices/redirect-rules", null), 401, "missing-authentication");
  });
});
