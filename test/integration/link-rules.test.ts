// Redirect rules (#22) against a real server, on either engine: every condition kind holding and
// not, the first matching rule winning, bots routed like people, time windows around the real now,
// what each click records (ruleStats, recent visits), and the URL checks a rule's destinations go
// through. Country comes from a test .mmdb (--geoip-db); the client address from X-Forwarded-For
// sent by the test as a trusted proxy.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeMmdb } from "../support/mmdb-writer.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, drained, stats } from "../support/clicks.ts";
import { BOTS, BROWSERS } from "../fixtures/user-agents.ts";

const HOUR = 3_600_000;
let files: string;
let server: RunningServer;
let key: string;

/** A fixture's User-Agent by its name (test/fixtures/user-agents.ts). */
function ua(name: string): string {
  const found = [...BROWSERS, ...BOTS].find((c) => c.name === name);
  if (found?.ua == null) throw new Error(`no fixture ${name}`);
  return found.ua;
}
const CHROME_WINDOWS = ua("Chrome on Windows");
const FIREFOX_LINUX = ua("Firefox on Linux");
const SAFARI_MAC = ua("Safari on macOS");
const SAFARI_IPHONE = ua("Safari on iPhone");
const SAFARI_IPAD = ua("Safari on iPad");
const CHROME_ANDROID = ua("Chrome on Android phone (Pixel 8)");
const SAMSUNG = ua("Samsung Internet on Galaxy S23");
const CHROME_OS = ua("Chrome on ChromeOS");
const GOOGLEBOT_PHONE = ua("Googlebot smartphone");
const GOOGLEBOT = ua("Googlebot");
const APPLEBOT = ua("Applebot");

beforeAll(async () => {
  files = mkdtempSync(join(tmpdir(), "shortener-rules-"));
  // The test's own addresses in countries: 203.0.113.0/24 in DE, 198.51.100.0/24 in FR; 192.0.2.0/24 nowhere.
  const geo = join(files, "geo.mmdb");
  writeFileSync(
    geo,
    writeMmdb(
      [
        { cidr: "203.0.113.0/24", data: { country: { iso_code: "DE" }, registered_country: { iso_code: "DE" } } },
        { cidr: "198.51.100.0/24", data: { country: { iso_code: "FR" }, registered_country: { iso_code: "FR" } } },
      ],
      { ipVersion: 4, databaseType: "GeoLite2-Country", buildEpoch: 1_700_000_000 },
    ),
  );
  const blocklist = join(files, "blocklist.txt");
  writeFileSync(blocklist, "blocked.example\n");
  server = await startServer({ args: ["--create-rate-limit", "0", "--trust-proxy", "127.0.0.1", "--geoip-db", geo, "--blocklist", blocklist] });
  key = makeKey(server.dbPath, "owner");
});
afterAll(async () => {
  await server.dispose();
  rmSync(files, { recursive: true, force: true });
});

type Click = { ua?: string; ip?: string; lang?: string; query?: string; method?: string };

/** Where a click is sent: the Location without the click's own query (merged in by the service). */
async function where(id: string, c: Click = {}): Promise<string> {
  const headers: Record<string, string> = { "user-agent": c.ua ?? CHROME_WINDOWS };
  if (c.ip !== undefined) headers["x-forwarded-for"] = c.ip;
  if (c.lang !== undefined) headers["accept-language"] = c.lang;
  const res = await click(server.url, `${id}${c.query ?? ""}`, headers, c.method ?? "GET");
  expect(res.status).toBe(302);
  const location = res.headers.get("location")!;
  const q = location.indexOf("?");
  return q === -1 ? location : location.slice(0, q);
}

async function createWithRules(id: string, rules: unknown, extra: Record<string, unknown> = {}) {
  const r = await api(server.url, key, "POST", "/api/create", { url: "https://default.example/", custom_url: id, rules, ...extra });
  expect(r.status).toBe(201);
}

const YES = "https://yes.example/";
const NO = "https://default.example/";

describe("every condition kind holds and does not", () => {
  const now = Date.now();
  const iso = (t: number) => new Date(t).toISOString();
  // [name, conditions, clicks it holds for, clicks it does not hold for]
  const CASES: [string, unknown[], Click[], Click[]][] = [
    ["device mobile", [{ type: "device", value: "mobile" }], [{ ua: SAFARI_IPHONE }, { ua: CHROME_ANDROID }], [{ ua: CHROME_WINDOWS }, { ua: SAFARI_IPAD }]],
    ["device tablet", [{ type: "device", value: "tablet" }], [{ ua: SAFARI_IPAD }], [{ ua: SAFARI_IPHONE }, { ua: SAFARI_MAC }]],
    ["device desktop", [{ type: "device", value: "desktop" }], [{ ua: CHROME_WINDOWS }, { ua: SAFARI_MAC }], [{ ua: CHROME_ANDROID }]],
    ["os ios", [{ type: "os", value: "ios" }], [{ ua: SAFARI_IPHONE }, { ua: SAFARI_IPAD }], [{ ua: SAFARI_MAC }, { ua: CHROME_ANDROID }]],
    ["os android", [{ type: "os", value: "Android" }], [{ ua: CHROME_ANDROID }, { ua: SAMSUNG }], [{ ua: SAFARI_IPHONE }, { ua: FIREFOX_LINUX }]],
    ["os chromeos", [{ type: "os", value: "chromeos" }], [{ ua: CHROME_OS }], [{ ua: FIREFOX_LINUX }]],
    ["os windows", [{ type: "os", value: "windows" }], [{ ua: CHROME_WINDOWS }], [{ ua: SAFARI_MAC }]],
    ["browser firefox (any case)", [{ type: "browser", value: "firefox" }], [{ ua: FIREFOX_LINUX }], [{ ua: CHROME_WINDOWS }, { ua: "" }]],
    ["browser Samsung Internet", [{ type: "browser", value: "Samsung Internet" }], [{ ua: SAMSUNG }], [{ ua: CHROME_ANDROID }]],
    [
      "language de (with q-values)",
      [{ type: "language", value: "de" }],
      [{ lang: "de" }, { lang: "de-AT,de;q=0.9" }, { lang: "en;q=0.5, de-CH;q=0.8" }, { lang: "fr;q=0, de;q=0.1" }],
      [{}, { lang: "en" }, { lang: "en, de;q=0.9" }, { lang: "de;q=0, en;q=0.1" }, { lang: "*" }, { lang: "de;q=0" }],
    ],
    ["language pt-BR", [{ type: "language", value: "pt-BR" }], [{ lang: "pt-br" }, { lang: "en;q=0.2, pt-BR" }], [{ lang: "pt" }, { lang: "pt-PT" }]],
    ["country DE", [{ type: "country", value: "de" }], [{ ip: "203.0.113.9" }, { ip: "1.2.3.4, 203.0.113.200" }], [{ ip: "198.51.100.9" }, { ip: "192.0.2.1" }, {}, { ip: "203.0.113.9, 198.51.100.9" }]],
    ["query key", [{ type: "query", key: "src" }], [{ query: "?src=mail" }, { query: "?a=1&src=" }], [{}, { query: "?source=mail" }, { query: "?SRC=mail" }]],
    ["query key=value", [{ type: "query", key: "src", value: "mail" }], [{ query: "?src=mail" }, { query: "?src=web&src=mail" }], [{ query: "?src=web" }, { query: "?src=Mail" }, { query: "?src" }]],
    ["cidr v4", [{ type: "cidr", value: "192.0.2.0/25" }], [{ ip: "192.0.2.0" }, { ip: "192.0.2.127" }], [{ ip: "192.0.2.128" }, { ip: "203.0.113.1" }, { ip: "2001:db8::1" }, {}]],
    ["cidr single address", [{ type: "cidr", value: "198.51.100.7" }], [{ ip: "198.51.100.7" }], [{ ip: "198.51.100.8" }]],
    ["cidr v6", [{ type: "cidr", value: "2001:db8:1::/48" }], [{ ip: "2001:db8:1:2::3" }, { ip: "2001:DB8:1::1" }], [{ ip: "2001:db8:2::1" }, { ip: "192.0.2.1" }]],
    // The real clock: each instant an hour or more away from now.
    ["after an hour ago", [{ type: "after", value: iso(now - HOUR) }], [{}], []],
    ["after in an hour", [{ type: "after", value: iso(now + HOUR) }], [], [{}]],
    ["before in an hour", [{ type: "before", value: iso(now + HOUR) }], [{}], []],
    ["before an hour ago", [{ type: "before", value: iso(now - HOUR) }], [], [{}]],
    ["a window around now", [{ type: "after", value: iso(now - HOUR) }, { type: "before", value: iso(now + HOUR) }], [{}], []],
    ["a window that is over", [{ type: "after", value: iso(now - 3 * HOUR) }, { type: "before", value: iso(now - HOUR) }], [], [{}]],
    ["a window still ahead", [{ type: "after", value: iso(now + HOUR) }, { type: "before", value: iso(now + 3 * HOUR) }], [], [{}]],
    [
      "all conditions of a rule must hold",
      [{ type: "device", value: "mobile" }, { type: "country", value: "FR" }, { type: "query", key: "promo" }],
      [{ ua: SAFARI_IPHONE, ip: "198.51.100.1", query: "?promo=1" }],
      [{ ua: SAFARI_IPHONE, ip: "198.51.100.1" }, { ua: SAFARI_IPHONE, ip: "203.0.113.1", query: "?promo=1" }, { ua: CHROME_WINDOWS, ip: "198.51.100.1", query: "?promo=1" }],
    ],
  ];
  let n = 0;
  for (const [name, conditions, holds, fails] of CASES) {
    const id = `cond-${++n}`;
    test(`${name}: ${holds.length} clicks to the rule's URL, ${fails.length} to the link's`, async () => {
      await createWithRules(id, [{ conditions, url: YES }]);
      for (const c of holds) expect({ click: c, to: await where(id, c) }).toEqual({ click: c, to: YES });
      for (const c of fails) expect({ click: c, to: await where(id, c) }).toEqual({ click: c, to: NO });
      // HEAD follows the rules too (a link checker sees where a visitor would go).
      for (const c of holds.slice(0, 1)) expect(await where(id, { ...c, method: "HEAD" })).toBe(YES);
      await drained(server.url);
      const s = (await stats(server.url, `id=${id}`)).data.stats;
      expect(s.totalClicks).toBe(holds.length + fails.length); // the HEAD is not counted
      expectCounts(s.ruleStats, [...(holds.length > 0 ? [{ name: "rule 1", count: holds.length }] : []), ...(fails.length > 0 ? [{ name: "default", count: fails.length }] : [])]);
      expect(s.variantStats).toEqual([]);
    });
  }
});

describe("order and who follows the rules", () => {
  test("the first rule whose conditions all hold wins; recent visits and ruleStats name it", async () => {
    await createWithRules("ordered", [
      { conditions: [{ type: "os", value: "ios" }, { type: "language", value: "de" }], url: "https://ios-de.example/" },
      { conditions: [{ type: "os", value: "ios" }], url: "https://ios.example/" },
      { conditions: [{ type: "language", value: "de" }], url: "https://de.example/" },
      { conditions: [{ type: "os", value: "ios" }], url: "https://never.example/" }, // shadowed by rule 2
    ]);
    expect(await where("ordered", { ua: SAFARI_IPHONE, lang: "de-DE" })).toBe("https://ios-de.example/");
    expect(await where("ordered", { ua: SAFARI_IPHONE, lang: "en" })).toBe("https://ios.example/");
    expect(await where("ordered", { ua: SAFARI_IPAD })).toBe("https://ios.example/");
    expect(await where("ordered", { ua: CHROME_WINDOWS, lang: "de" })).toBe("https://de.example/");
    expect(await where("ordered", { ua: CHROME_WINDOWS, lang: "en" })).toBe(NO);
    await drained(server.url);
    const s = (await stats(server.url, "id=ordered")).data.stats;
    expect(s.totalClicks).toBe(5);
    expectCounts(s.ruleStats, [
      { name: "rule 2", count: 2 },
      { name: "rule 1", count: 1 },
      { name: "rule 3", count: 1 },
      { name: "default", count: 1 },
    ]);
    expect(s.recentVisits.map((v: { rule?: string }) => v.rule).sort()).toEqual(["default", "rule 1", "rule 2", "rule 2", "rule 3"]);
    expect(s.recentVisits.every((v: { variant?: string }) => v.variant === undefined)).toBe(true);
  });

  test("bots are routed like people: the same rule for the same browser, system and device", async () => {
    await createWithRules("botlike", [
      { conditions: [{ type: "device", value: "mobile" }, { type: "os", value: "android" }], url: "https://android.example/" },
      { conditions: [{ type: "browser", value: "Safari" }, { type: "os", value: "macos" }], url: "https://mac-safari.example/" },
    ]);
    // Googlebot's smartphone crawler reads as Chrome on an Android phone; Applebot as Safari on a Mac.
    expect(await where("botlike", { ua: GOOGLEBOT_PHONE })).toBe(await where("botlike", { ua: CHROME_ANDROID }));
    expect(await where("botlike", { ua: GOOGLEBOT_PHONE })).toBe("https://android.example/");
    expect(await where("botlike", { ua: APPLEBOT })).toBe("https://mac-safari.example/");
    expect(await where("botlike", { ua: SAFARI_MAC })).toBe("https://mac-safari.example/");
    expect(await where("botlike", { ua: GOOGLEBOT })).toBe(NO);
    expect(await where("botlike", { ua: "curl/8.4.0" })).toBe(NO);
    await drained(server.url);
    const s = (await stats(server.url, "id=botlike")).data.stats;
    expect(s.totalClicks).toBe(7);
    expect(s.humanClicks).toBe(2);
    expectCounts(s.ruleStats, [{ name: "rule 1", count: 3 }, { name: "rule 2", count: 2 }, { name: "default", count: 2 }]);
    const humans = (await stats(server.url, "id=botlike&bots=exclude")).data.stats;
    expectCounts(humans.ruleStats, [{ name: "rule 1", count: 1 }, { name: "rule 2", count: 1 }]);
  });

  test("the click's query is passed on to a rule's URL as to the link's", async () => {
    await createWithRules("passes-query", [{ conditions: [{ type: "query", key: "utm_source" }], url: "https://campaign.example/land?ref=short" }]);
    const res = await click(server.url, "passes-query?utm_source=news&x=1");
    expect(res.headers.get("location")).toBe("https://campaign.example/land?ref=short&utm_source=news&x=1");
    const plain = await click(server.url, "passes-query?x=1");
    expect(plain.headers.get("location")).toBe("https://default.example/?x=1");
  });

  test("PATCH of the rules: the very next click follows the new ones; null clears them", async () => {
    await createWithRules("re-ruled", [{ conditions: [{ type: "device", value: "desktop" }], url: "https://first.example/" }]);
    expect(await where("re-ruled")).toBe("https://first.example/");
    const r = await api(server.url, key, "PATCH", "/api/links/re-ruled", { rules: [{ conditions: [{ type: "device", value: "desktop" }], url: "https://second.example/" }] });
    expect(r.status).toBe(200);
    expect(r.body.data.rules).toEqual([{ conditions: [{ type: "device", value: "desktop" }], url: "https://second.example/" }]);
    expect(await where("re-ruled")).toBe("https://second.example/");
    expect((await api(server.url, key, "PATCH", "/api/links/re-ruled", { rules: null })).body.data.rules).toEqual([]);
    expect(await where("re-ruled")).toBe(NO);
  });
});

describe("what a rule's URLs go through", () => {
  const good = { type: "device", value: "mobile" };
  const CASES: [string, Record<string, unknown>, string, string, string][] = [
    ["a rule URL on the blocklist", { rules: [{ conditions: [good], url: "https://www.blocked.example/x" }] }, "url_blocked", "rules", "rule 1: "],
    ["a javascript: rule URL", { rules: [{ conditions: [good], url: "https://ok.example/" }, { conditions: [good], url: "javascript:alert(1)" }] }, "url_scheme", "rules", "rule 2: "],
    ["a rule URL to the shortener itself", { rules: [{ conditions: [good], url: "SELF/loop" }] }, "url_self", "rules", "rule 1: "],
    ["a rule URL with credentials", { rules: [{ conditions: [good], url: "https://user:pw@ok.example/" }] }, "url_credentials", "rules", "rule 1: "],
    ["a loopback rule URL", { rules: [{ conditions: [good], url: "http://127.0.0.1:8080/" }] }, "url_local", "rules", "rule 1: "],
    ["a blocked variant of a rule", { rules: [{ conditions: [good], variants: [{ url: "https://ok.example/", weight: 1 }, { url: "https://blocked.example/", weight: 1 }] }] }, "url_blocked", "rules", "rule 1, variants, variant 2: "],
    ["a blocked variant of the link", { variants: [{ url: "https://blocked.example/", weight: 1 }, { url: "https://ok.example/", weight: 1 }] }, "url_blocked", "variants", "variants, variant 1: "],
    ["a data: variant", { variants: [{ url: "https://ok.example/", weight: 1 }, { url: "data:text/html,x", weight: 1 }] }, "url_scheme", "variants", "variants, variant 2: "],
    ["a blocked fallback URL", { fallback_url: "https://blocked.example/" }, "url_blocked", "fallback_url", "fallback_url: "],
    ["a javascript: fallback URL", { fallback_url: "javascript:alert(1)" }, "url_scheme", "fallback_url", "fallback_url: "],
    ["a bad condition", { rules: [{ conditions: [good], url: "https://ok.example/" }, { conditions: [good, { type: "country", value: "Germany" }], url: "https://ok.example/" }] }, "rules_invalid", "rules", "rule 2, condition 2: country"],
    ["an unknown condition type", { rules: [{ conditions: [{ type: "weather", value: "rain" }], url: "https://ok.example/" }] }, "rules_invalid", "rules", "rule 1, condition 1: type must be one of"],
    ["21 rules", { rules: Array.from({ length: 21 }, () => ({ conditions: [good], url: "https://ok.example/" })) }, "rules_invalid", "rules", "at most 20 rules"],
    ["6 conditions", { rules: [{ conditions: Array.from({ length: 6 }, () => good), url: "https://ok.example/" }] }, "rules_invalid", "rules", "rule 1: conditions must be an array of 1 to 5"],
    ["one variant", { variants: [{ url: "https://ok.example/", weight: 1 }] }, "variants_invalid", "variants", "variants must be an array of 2 to 5"],
    ["six variants", { variants: Array.from({ length: 6 }, (_, i) => ({ url: `https://v${i}.example/`, weight: 1 })) }, "variants_invalid", "variants", "variants must be an array of 2 to 5"],
    ["a weight of 0", { variants: [{ url: "https://a.example/", weight: 0 }, { url: "https://b.example/", weight: 1 }] }, "variants_invalid", "variants", "variants, variant 1: weight"],
    ["rules that are not JSON", { rules: "{not json" }, "rules_invalid", "rules", "rules must be an array"],
  ];
  const fix = (body: Record<string, unknown>) => JSON.parse(JSON.stringify(body).replaceAll("SELF/", `${server.url}/`));

  beforeAll(async () => {
    expect((await api(server.url, key, "POST", "/api/create", { url: "https://target.example/", custom_url: "target" })).status).toBe(201);
  });

  for (const [name, body, code, field, message] of CASES) {
    test(`${name}: 400 ${code} on ${field}, in a JSON create, a form create and a PATCH`, async () => {
      const json = await api(server.url, key, "POST", "/api/create", { url: "https://ok.example/", ...fix(body) });
      expect(json.status).toBe(400);
      expect(json.body).toMatchObject({ success: false, code, field });
      expect(json.body.error).toStartWith(message);
      // The form carries rules and variants as JSON text.
      const form = new FormData();
      form.append("url", "https://ok.example/");
      for (const [k, v] of Object.entries(fix(body))) form.append(k, typeof v === "string" ? v : JSON.stringify(v));
      const viaForm = await api(server.url, key, "POST", "/api/create", form);
      expect(viaForm.status).toBe(400);
      expect(viaForm.body).toMatchObject({ code, field });
      // PATCH names the field as PATCH does (camelCase).
      const camel = Object.fromEntries(Object.entries(fix(body)).map(([k, v]) => [k === "fallback_url" ? "fallbackUrl" : k, v]));
      const patched = await api(server.url, key, "PATCH", "/api/links/target", camel);
      expect(patched.status).toBe(400);
      expect(patched.body).toMatchObject({ code, field: field === "fallback_url" ? "fallbackUrl" : field });
      expect(patched.body.error).toStartWith(message.replace("fallback_url", "fallbackUrl"));
    });
  }

  test("nothing was stored by the refused creates and edits", async () => {
    const target = (await api(server.url, key, "GET", "/api/links/target")).body.data;
    expect(target).toMatchObject({ rules: [], variants: null, fallbackUrl: null, originalUrl: "https://target.example/" });
    const all = (await api(server.url, key, "GET", "/api/links?q=ok.example")).body.data.links;
    expect(all).toEqual([]);
  });

  test("a rule to this machine is refused as ::1 too", async () => {
    const r = await api(server.url, key, "POST", "/api/create", { url: "https://ok.example/", rules: [{ conditions: [good], url: "http://[::1]/" }] });
    expect(r.body).toMatchObject({ code: "url_local", field: "rules" });
  });
});

type NameCount = { name: string; count: number };
/** A breakdown as the stats give it: these entries (in any order among equal counts), the largest count first. */
function expectCounts(actual: NameCount[], expected: NameCount[]) {
  const byName = (list: NameCount[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));
  expect(byName(actual)).toEqual(byName(expected));
  expect(actual.map((e) => e.count)).toEqual(actual.map((e) => e.count).sort((a, b) => b - a));
}
