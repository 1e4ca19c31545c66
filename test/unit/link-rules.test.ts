// Redirect rules (#22) without a server: how rules.ts reads them (every error names its rule and
// condition; the limits), how router.ts walks them with an injected clock (the exact boundaries of
// after and before, first match wins, the split by visitor key) and which language a click's
// Accept-Language puts first (click-facts.ts).

import { describe, expect, test } from "bun:test";
import { MAX_CONDITIONS, MAX_RULES, MAX_VARIANTS, MAX_WEIGHT, normalizeCidr, parseRules, parseVariants, ruleUrls, type UrlChecker } from "../../src/links/rules.ts";
import { compileRoute, NEEDS_COUNTRY, NEEDS_VISITOR, type ClickFacts } from "../../src/links/router.ts";
import { preferredLanguage } from "../../src/lang.ts";
import { PLAIN } from "../../src/links/behaviour.ts";
import { createPasswordGuard } from "../../src/http/link-password.ts";
import type { Verdict } from "../../src/http/rate-limit.ts";

// Stands in for create.ts's destination rules: http(s) only, and "blocked.example" refused.
const checkUrl: UrlChecker = (raw) => {
  if (typeof raw !== "string" || !/^https?:\/\//.test(raw)) return { ok: false, code: "url_scheme", error: "url must start with http:// or https://" };
  if (raw.includes("blocked.example")) return { ok: false, code: "url_blocked", error: "url points to a destination this service does not link to" };
  return { ok: true, url: raw };
};

const rule = (conditions: unknown[], url = "https://example.com/r"): { conditions: never[]; url: string } => ({ conditions: conditions as never[], url });
const device = (value: string) => ({ type: "device", value });

function problemOf(raw: unknown) {
  const parsed = parseRules(raw, checkUrl);
  if (parsed.ok) throw new Error(`expected a problem, got ${JSON.stringify(parsed.value)}`);
  return parsed.problem;
}

describe("parseRules: what a rule may say", () => {
  test("every condition kind, normalized as stored", () => {
    const parsed = parseRules(
      [
        rule([
          { type: "device", value: " Mobile " },
          { type: "os", value: "iOS" },
          { type: "browser", value: "Safari" },
          { type: "language", value: "PT-br" },
          { type: "country", value: "de" },
        ]),
        rule([
          { type: "query", key: "src" },
          { type: "query", key: "lang", value: "de" },
          { type: "cidr", value: "203.0.113.7" },
          { type: "cidr", value: "2001:DB8::/32" },
          { type: "after", value: "2026-12-31T19:00:00+01:00" },
        ]),
        rule([{ type: "before", value: "2027-01-01T00:00:00Z" }, { type: "language", value: "zh-Hant" }]),
      ],
      checkUrl,
    );
    expect(parsed).toEqual({
      ok: true,
      value: [
        rule([
          { type: "device", value: "mobile" },
          { type: "os", value: "ios" },
          { type: "browser", value: "Safari" },
          { type: "language", value: "pt-BR" },
          { type: "country", value: "DE" },
        ]),
        rule([
          { type: "query", key: "src" },
          { type: "query", key: "lang", value: "de" },
          { type: "cidr", value: "203.0.113.7/32" },
          { type: "cidr", value: "2001:db8::/32" },
          { type: "after", value: "2026-12-31T18:00:00.000Z" },
        ]),
        rule([{ type: "before", value: "2027-01-01T00:00:00.000Z" }, { type: "language", value: "zh-hant" }]),
      ],
    });
  });

  test("a rule with a split instead of a URL", () => {
    const parsed = parseRules([{ conditions: [device("desktop")], variants: [{ url: "https://a.example/", weight: 1 }, { url: "https://b.example/", weight: 3 }] }], checkUrl);
    expect(parsed).toMatchObject({ ok: true, value: [{ variants: [{ url: "https://a.example/", weight: 1 }, { url: "https://b.example/", weight: 3 }] }] });
  });

  test.each([
    // [rules, code, the start of the message]
    [[rule([device("desktop")]), rule([device("phone")])], "rules_invalid", "rule 2, condition 1: device must be one of desktop, mobile, tablet"],
    [[rule([device("desktop"), { type: "os", value: "beos" }])], "rules_invalid", "rule 1, condition 2: os must be one of"],
    // Names of Object.prototype are no systems (an `in` lookup took them and stored a rule that never holds).
    [[rule([{ type: "os", value: "constructor" }])], "rules_invalid", "rule 1, condition 1: os must be one of"],
    [[rule([{ type: "os", value: "__proto__" }])], "rules_invalid", "rule 1, condition 1: os must be one of"],
    [[rule([{ type: "query", key: "a\u0000" }])], "rules_invalid", "rule 1, condition 1: query needs a key"],
    [[rule([{ type: "query", key: "a", value: "b\ud800" }])], "rules_invalid", "rule 1, condition 1: query value must be text"],
    [[rule([{ type: "query", key: "a", value: "b\u001f" }])], "rules_invalid", "rule 1, condition 1: query value must be text"],
    [[rule([{ type: "browser", value: "Chrome\u0007" }])], "rules_invalid", "rule 1, condition 1: browser must be"],
    [[rule([device("desktop"), device("mobile"), { type: "browser", value: "" }])], "rules_invalid", "rule 1, condition 3: browser must be"],
    [[rule([{ type: "browser", value: "x".repeat(51) }])], "rules_invalid", "rule 1, condition 1: browser must be"],
    [[rule([{ type: "language", value: "german" }])], "rules_invalid", "rule 1, condition 1: language must be a language code"],
    [[rule([{ type: "language", value: "de_DE" }])], "rules_invalid", "rule 1, condition 1: language must be"],
    [[rule([{ type: "country", value: "DEU" }])], "rules_invalid", "rule 1, condition 1: country must be an ISO 3166 alpha-2 code"],
    [[rule([{ type: "query", value: "x" }])], "rules_invalid", "rule 1, condition 1: query needs a key"],
    [[rule([{ type: "query", key: "" }])], "rules_invalid", "rule 1, condition 1: query needs a key"],
    [[rule([{ type: "query", key: "k", value: 3 }])], "rules_invalid", "rule 1, condition 1: query value must be text"],
    [[rule([{ type: "query", key: "k", value: "v".repeat(201) }])], "rules_invalid", "rule 1, condition 1: query value must be text"],
    [[rule([{ type: "cidr", value: "10.0.0.0/33" }])], "rules_invalid", "rule 1, condition 1: cidr must be an address range"],
    [[rule([{ type: "cidr", value: "10.0.0/8" }])], "rules_invalid", "rule 1, condition 1: cidr must be an address range"],
    [[rule([{ type: "cidr", value: "fe80::1%eth0/64" }])], "rules_invalid", "rule 1, condition 1: cidr must be an address range"],
    [[rule([{ type: "cidr", value: "2001:db8::/129" }])], "rules_invalid", "rule 1, condition 1: cidr must be an address range"],
    [[rule([{ type: "after", value: "2026-12-31T18:00:00" }])], "rules_invalid", "rule 1, condition 1: after must be an ISO 8601 time with a zone"],
    [[rule([{ type: "before", value: "2026-02-30T00:00:00Z" }])], "rules_invalid", "rule 1, condition 1: before must be an ISO 8601 time"],
    [[rule([{ type: "before", value: 1_900_000_000_000 }])], "rules_invalid", "rule 1, condition 1: before must be"],
    [[rule([{ type: "weekday", value: "monday" }])], "rules_invalid", "rule 1, condition 1: type must be one of device, os, browser, language, country, query, cidr, after, before"],
    [[rule([{ type: "device", value: "mobile", key: "x" }])], "rules_invalid", "rule 1, condition 1: unknown field key"],
    [[rule(["mobile"])], "rules_invalid", "rule 1, condition 1: must be an object"],
    [[rule([])], "rules_invalid", "rule 1: conditions must be an array of 1 to 5 conditions"],
    [[{ url: "https://example.com/" }], "rules_invalid", "rule 1: conditions must be an array"],
    [[{ conditions: [device("mobile")] }], "rules_invalid", "rule 1: give either url or variants"],
    [[{ conditions: [device("mobile")], url: "https://a.example/", variants: [] }], "rules_invalid", "rule 1: give either url or variants"],
    [[{ conditions: [device("mobile")], url: "https://a.example/", name: "x" }], "rules_invalid", "rule 1: unknown field name"],
    [[rule([device("mobile")]), 7], "rules_invalid", "rule 2: must be an object"],
    [[rule([device("mobile")], "javascript:alert(1)")], "url_scheme", "rule 1: "],
    [[rule([device("mobile")]), rule([device("tablet")], "https://blocked.example/")], "url_blocked", "rule 2: "],
    [[{ conditions: [device("mobile")], variants: [{ url: "https://a.example/", weight: 1 }, { url: "https://blocked.example/", weight: 1 }] }], "url_blocked", "rule 1, variants, variant 2: "],
    [[{ conditions: [device("mobile")], variants: [{ url: "https://a.example/", weight: 1 }] }], "variants_invalid", "rule 1, variants must be an array of 2 to 5 variants"],
    [{ conditions: [] }, "rules_invalid", "rules must be an array of rules"],
    ["[]", "rules_invalid", "rules must be an array of rules"],
  ] as const)("%j → %s", (raw, code, message) => {
    const problem = problemOf(raw);
    expect(problem.code).toBe(code);
    expect(problem.error).toStartWith(message);
  });

  test(`limits: ${MAX_RULES} rules and ${MAX_CONDITIONS} conditions are fine, one more of either is not`, () => {
    const five = Array.from({ length: MAX_CONDITIONS }, () => device("mobile"));
    expect(parseRules(Array.from({ length: MAX_RULES }, () => rule(five)), checkUrl).ok).toBe(true);
    expect(problemOf(Array.from({ length: MAX_RULES + 1 }, () => rule([device("mobile")])))).toEqual({ code: "rules_invalid", error: `at most ${MAX_RULES} rules (21 given)` });
    const six = [...five, device("tablet")];
    expect(problemOf([rule([device("mobile")]), rule([device("mobile")]), rule(six)])).toMatchObject({ code: "rules_invalid", error: expect.stringMatching(/^rule 3: conditions must be an array of 1 to 5/) });
    expect(MAX_RULES).toBe(20);
    expect(MAX_CONDITIONS).toBe(5);
  });

  test("an empty list is no rules at all", () => {
    expect(parseRules([], checkUrl)).toEqual({ ok: true, value: [] });
  });
});

describe("parseVariants: the link's own split", () => {
  const v = (n: number, weight: unknown = 1): { url: string; weight: number } => ({ url: `https://v${n}.example/`, weight: weight as number });

  test(`2 to ${MAX_VARIANTS} variants, weights 1 to ${MAX_WEIGHT}`, () => {
    expect(parseVariants([v(1), v(2)], checkUrl)).toEqual({ ok: true, value: [v(1), v(2)] });
    expect(parseVariants([v(1, MAX_WEIGHT), v(2), v(3), v(4), v(5)], checkUrl)).toMatchObject({ ok: true });
  });

  test.each([
    [[v(1)], "variants_invalid", "variants must be an array of 2 to 5 variants"],
    [[v(1), v(2), v(3), v(4), v(5), v(6)], "variants_invalid", "variants must be an array of 2 to 5 variants"],
    [[], "variants_invalid", "variants must be an array of 2 to 5"],
    [[v(1), v(2, 0)], "variants_invalid", "variants, variant 2: weight must be a whole number from 1 to 1000"],
    [[v(1, -1), v(2)], "variants_invalid", "variants, variant 1: weight must be"],
    [[v(1, 1.5), v(2)], "variants_invalid", "variants, variant 1: weight must be"],
    [[v(1, "2"), v(2)], "variants_invalid", "variants, variant 1: weight must be"],
    [[v(1), v(2, MAX_WEIGHT + 1)], "variants_invalid", "variants, variant 2: weight must be"],
    [[v(1), { url: "https://v2.example/" }], "variants_invalid", "variants, variant 2: weight must be"],
    [[v(1), { ...v(2), name: "B" }], "variants_invalid", "variants, variant 2: unknown field name"],
    [[v(1), "https://v2.example/"], "variants_invalid", "variants, variant 2: must be an object"],
    [[v(1), { url: "ftp://v2.example/", weight: 1 }], "url_scheme", "variants, variant 2: "],
    [[{ url: "https://blocked.example/", weight: 1 }, v(2)], "url_blocked", "variants, variant 1: "],
  ] as const)("%j → %s", (raw, code, message) => {
    const parsed = parseVariants(raw, checkUrl);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problem.code).toBe(code);
    expect(parsed.problem.error).toStartWith(message);
  });
});

describe("normalizeCidr and ruleUrls", () => {
  test.each([
    ["192.0.2.1", "192.0.2.1/32"],
    ["192.0.2.0/24", "192.0.2.0/24"],
    ["0.0.0.0/0", "0.0.0.0/0"],
    ["2001:DB8::1", "2001:db8::1/128"],
    ["::/0", "::/0"],
    ["192.0.2.0/024", "192.0.2.0/24"],
  ])("%s → %s", (text, cidr) => expect(normalizeCidr(text)).toBe(cidr));

  test.each(["", "/24", "192.0.2.0/", "192.0.2.0/x", "192.0.2.0/1234", "192.0.2.256/24", "example.com/8", "192.0.2.0/24/1"])("%p is not a range", (text) => {
    expect(normalizeCidr(text)).toBeNull();
  });

  test("every URL of rules, their splits and the link's split", () => {
    const rules = [
      { conditions: [], url: "https://r1.example/" },
      { conditions: [], variants: [{ url: "https://r2a.example/", weight: 1 }, { url: "https://r2b.example/", weight: 1 }] },
    ] as never;
    expect(ruleUrls(rules, [{ url: "https://d1.example/", weight: 1 }, { url: "https://d2.example/", weight: 2 }])).toEqual([
      "https://r1.example/", "https://r2a.example/", "https://r2b.example/", "https://d1.example/", "https://d2.example/",
    ]);
    expect(ruleUrls(null, null)).toEqual([]);
  });
});

// A click's facts as the router asks them; each test gives only what it needs. The query is
// offered both ways the router has asked for it (a parsed URLSearchParams, or hasParam).
type FactValues = Partial<{ browser: string; os: string; device: string; language: string | null; query: string; address: string; country: string | null; visitor: number }>;
function facts(f: FactValues = {}): ClickFacts {
  const params = () => new URLSearchParams(f.query ?? "");
  const all = {
    browser: () => f.browser ?? "Firefox",
    os: () => f.os ?? "Linux",
    device: () => f.device ?? "desktop",
    language: () => f.language ?? null,
    query: params,
    hasParam: (key: string, value: string | undefined) => (value === undefined ? params().has(key) : params().getAll(key).includes(value)),
    address: () => f.address ?? "192.0.2.1",
    country: () => f.country ?? null,
    visitor: () => f.visitor ?? 0,
  };
  return all as ClickFacts;
}

/** The route of a link to https://default.example/ with these rules (already parsed, as stored). */
function routeOf(rules: unknown[] | null, variants: { url: string; weight: number }[] | null = null) {
  const parsed = rules === null ? null : parseRules(rules, checkUrl);
  if (parsed !== null && !parsed.ok) throw new Error(parsed.problem.error);
  const route = compileRoute("https://default.example/", { ...PLAIN, rules: parsed === null ? null : parsed.value, variants });
  if (route === null) throw new Error("no route");
  return route;
}

const NOW = Date.parse("2026-11-23T12:00:00.000Z");

describe("compileRoute: the walk", () => {
  test("a plain link has no route; a password, a redirect code or rules give one", () => {
    expect(compileRoute("https://default.example/", PLAIN)).toBeNull();
    expect(compileRoute("https://default.example/", { ...PLAIN, redirectType: 301 })).toMatchObject({ status: 301, passwordHash: null, needs: 0 });
    expect(compileRoute("https://default.example/", { ...PLAIN, passwordHash: "$argon2id$x" })).toMatchObject({ status: 302, passwordHash: "$argon2id$x" });
    // Neither a password nor a redirect code alone records a route with the click.
    expect(compileRoute("https://default.example/", { ...PLAIN, redirectType: 307 })!.choose(facts(), NOW)).toMatchObject({ route: null, destination: { location: "https://default.example/" } });
  });

  test("after: from its instant on (now >= t); before: up to it (now < t) — at the exact millisecond", () => {
    const at = "2026-12-31T18:00:00.000Z";
    const t = Date.parse(at);
    const after = routeOf([rule([{ type: "after", value: at }], "https://after.example/")]);
    expect(after.choose(facts(), t - 1).destination.location).toBe("https://default.example/");
    expect(after.choose(facts(), t).destination.location).toBe("https://after.example/");
    expect(after.choose(facts(), t + 1).destination.location).toBe("https://after.example/");
    const before = routeOf([rule([{ type: "before", value: at }], "https://before.example/")]);
    expect(before.choose(facts(), t - 1).destination.location).toBe("https://before.example/");
    expect(before.choose(facts(), t).destination.location).toBe("https://default.example/");
    expect(before.choose(facts(), t + 1).destination.location).toBe("https://default.example/");
    expect(after.choose(facts(), t).route).toBe("rule 1\n");
    expect(before.choose(facts(), t).route).toBe("default\n");
  });

  test("a window: after and before in one rule hold together, [after, before)", () => {
    const from = Date.parse("2026-12-24T00:00:00Z");
    const to = Date.parse("2026-12-27T00:00:00Z");
    const route = routeOf([rule([{ type: "after", value: new Date(from).toISOString() }, { type: "before", value: new Date(to).toISOString() }], "https://xmas.example/")]);
    const where = (now: number) => route.choose(facts(), now).destination.location;
    expect([from - 1, from, to - 1, to].map(where)).toEqual(["https://default.example/", "https://xmas.example/", "https://xmas.example/", "https://default.example/"]);
  });

  test("the first rule whose conditions all hold wins; none → the link's URL", () => {
    const route = routeOf([
      rule([{ type: "device", value: "mobile" }, { type: "os", value: "ios" }], "https://iphone.example/"),
      rule([{ type: "device", value: "mobile" }], "https://mobile.example/"),
      rule([{ type: "os", value: "ios" }], "https://ios.example/"),
    ]);
    const go = (f: ClickFacts) => route.choose(f, NOW);
    expect(go(facts({ device: "mobile", os: "iOS" }))).toMatchObject({ destination: { location: "https://iphone.example/" }, route: "rule 1\n" });
    expect(go(facts({ device: "mobile", os: "Android" }))).toMatchObject({ destination: { location: "https://mobile.example/" }, route: "rule 2\n" });
    expect(go(facts({ device: "tablet", os: "iOS" }))).toMatchObject({ destination: { location: "https://ios.example/" }, route: "rule 3\n" });
    expect(go(facts({ device: "desktop", os: "Windows" }))).toMatchObject({ destination: { location: "https://default.example/" }, route: "default\n" });
  });

  test("each condition kind holds and does not", () => {
    const cases: [unknown, FactValues, FactValues][] = [
      [{ type: "device", value: "tablet" }, { device: "tablet" }, { device: "mobile" }],
      [{ type: "os", value: "macos" }, { os: "macOS" }, { os: "iOS" }],
      [{ type: "os", value: "chromeos" }, { os: "ChromeOS" }, { os: "Linux" }],
      [{ type: "browser", value: "samsung internet" }, { browser: "Samsung Internet" }, { browser: "Chrome" }],
      [{ type: "language", value: "de" }, { language: "de-at" }, { language: "en-de" }],
      [{ type: "language", value: "de" }, { language: "de" }, { language: null }],
      [{ type: "language", value: "pt-BR" }, { language: "pt-br" }, { language: "pt" }],
      [{ type: "language", value: "pt-BR" }, { language: "pt-br" }, { language: "pt-pt" }],
      [{ type: "country", value: "de" }, { country: "DE" }, { country: null }],
      [{ type: "query", key: "src" }, { query: "src=" }, { query: "source=x" }],
      [{ type: "query", key: "src", value: "mail" }, { query: "a=1&src=web&src=mail" }, { query: "src=Mail" }],
      [{ type: "query", key: "q", value: "a b" }, { query: "q=a+b" }, { query: "q=a%2Bb" }],
      [{ type: "cidr", value: "203.0.113.0/24" }, { address: "203.0.113.255" }, { address: "203.0.114.0" }],
      [{ type: "cidr", value: "203.0.113.0/24" }, { address: "203.0.113.1" }, { address: "2001:db8::1" }],
      [{ type: "cidr", value: "2001:db8::/32" }, { address: "2001:db8:ffff::1" }, { address: "2001:db9::1" }],
      [{ type: "cidr", value: "2001:db8::/32" }, { address: "2001:db8::1" }, { address: "unknown" }],
    ];
    for (const [condition, yes, no] of cases) {
      const route = routeOf([rule([condition], "https://ruled.example/")]);
      expect({ condition, location: route.choose(facts(yes), NOW).destination.location }).toEqual({ condition, location: "https://ruled.example/" });
      expect({ condition, location: route.choose(facts(no), NOW).destination.location }).toEqual({ condition, location: "https://default.example/" });
    }
  });

  test("needs: a country condition asks for the lookup, a split for the day's salt, nothing else for either", () => {
    expect(routeOf([rule([{ type: "device", value: "mobile" }])]).needs).toBe(0);
    expect(routeOf([rule([{ type: "country", value: "FR" }])]).needs).toBe(NEEDS_COUNTRY);
    expect(routeOf(null, [{ url: "https://a.example/", weight: 1 }, { url: "https://b.example/", weight: 1 }]).needs).toBe(NEEDS_VISITOR);
    expect(routeOf([{ conditions: [{ type: "country", value: "FR" }], variants: [{ url: "https://a.example/", weight: 1 }, { url: "https://b.example/", weight: 1 }] }]).needs).toBe(NEEDS_COUNTRY | NEEDS_VISITOR);
  });

  test("a split: the visitor key modulo the weights' sum picks the variant, at each boundary", () => {
    const route = routeOf(null, [{ url: "https://a.example/", weight: 1 }, { url: "https://b.example/", weight: 3 }, { url: "https://c.example/", weight: 2 }]);
    const pick = (visitor: number) => route.choose(facts({ visitor }), NOW).destination.location;
    // Sum 6: 0 → a; 1..3 → b; 4..5 → c; then round again.
    expect([0, 1, 3, 4, 5, 6, 7, 2 ** 52 - 1].map(pick)).toEqual([
      "https://a.example/", "https://b.example/", "https://b.example/", "https://c.example/", "https://c.example/", "https://a.example/", "https://b.example/",
      // (2^52 - 1) mod 6 = 3
      "https://b.example/",
    ]);
    expect(route.choose(facts({ visitor: 4 }), NOW).route).toBe("default\nhttps://c.example/");
  });

  test("a split of a rule is named after the rule; the same facts give the same variant every time", () => {
    const route = routeOf([{ conditions: [{ type: "device", value: "mobile" }], variants: [{ url: "https://m1.example/", weight: 1 }, { url: "https://m2.example/", weight: 1 }] }]);
    const mobile = facts({ device: "mobile", visitor: 12345 });
    const first = route.choose(mobile, NOW);
    for (let i = 0; i < 20; i++) expect(route.choose(mobile, NOW + i * 60_000)).toBe(first);
    expect(first.route).toBe("rule 1\nhttps://m2.example/");
    expect(route.choose(facts({ device: "desktop" }), NOW)).toMatchObject({ route: "default\n", destination: { location: "https://default.example/" } });
  });

  test("a split's shares follow its weights over many visitor keys", () => {
    const route = routeOf(null, [{ url: "https://a.example/", weight: 2 }, { url: "https://b.example/", weight: 3 }, { url: "https://c.example/", weight: 5 }]);
    const counts = new Map<string, number>();
    // Visitor keys as SipHash gives them: 52 bits spread evenly. A simple LCG stands in here.
    let x = 12345;
    for (let i = 0; i < 10_000; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      const loc = route.choose(facts({ visitor: x * 2 ** 21 + i }), NOW).destination.location;
      counts.set(loc, (counts.get(loc) ?? 0) + 1);
    }
    expect(Math.abs(counts.get("https://a.example/")! / 10_000 - 0.2)).toBeLessThan(0.03);
    expect(Math.abs(counts.get("https://b.example/")! / 10_000 - 0.3)).toBeLessThan(0.03);
    expect(Math.abs(counts.get("https://c.example/")! / 10_000 - 0.5)).toBeLessThan(0.03);
  });

  test("facts are asked only as far as the walk goes: a failed first condition skips the rest", () => {
    const asked: string[] = [];
    const spied = {
      browser: () => (asked.push("browser"), "Chrome"),
      os: () => (asked.push("os"), "Windows"),
      device: () => (asked.push("device"), "desktop"),
      language: () => (asked.push("language"), null),
      query: () => (asked.push("query"), new URLSearchParams()),
      hasParam: () => (asked.push("query"), false),
      address: () => (asked.push("address"), "192.0.2.1"),
      country: () => (asked.push("country"), null),
      visitor: () => (asked.push("visitor"), 0),
    };
    const spy = spied as ClickFacts;
    const route = routeOf([rule([{ type: "device", value: "mobile" }, { type: "country", value: "DE" }]), rule([{ type: "browser", value: "Chrome" }])]);
    expect(route.choose(spy, NOW).route).toBe("rule 2\n");
    expect(asked).toEqual(["device", "browser"]);
  });
});

describe("preferredLanguage: the click's first language (RFC 9110 q-values)", () => {
  test.each([
    [null, null],
    ["", null],
    ["de", "de"],
    ["de-CH, de;q=0.9, en;q=0.8", "de-ch"],
    ["en;q=0.5, fr", "fr"],
    ["en;q=0.5, fr;q=0.9, de;q=0.7", "fr"],
    ["en, de", "en"], // equals: the first
    ["en;q=0.8, de;q=0.8", "en"],
    ["*", null],
    ["*, de;q=0.5", "de"],
    ["de;q=0", null],
    ["de;q=0, en;q=0.1", "en"],
    ["de;q=0.000, fr;q=0.001", "fr"],
    ["de;q=abc, fr;q=0.2", "fr"],
    ["  PT-br ;q=1 ", "pt-br"],
    [" , ;q=1, ja", "ja"],
  ])("%p → %p", (header, expected) => {
    expect(preferredLanguage(header)).toBe(expected);
  });
});

describe("wrong password attempts (link-password.ts over rate-limit.ts, injected clock)", () => {
  const T = Date.parse("2026-11-23T12:00:00.000Z");
  const wait = (v: Verdict) => (v.allowed ? null : v.retryAfterSeconds);

  test("10 checks at once hold the 10 tokens: the 11th waits, though none has failed yet", () => {
    const { perAddress } = createPasswordGuard();
    for (let i = 0; i < 10; i++) expect(wait(perAddress.take("203.0.113.1", T))).toBeNull();
    expect(wait(perAddress.take("203.0.113.1", T))).toBe(6); // one token comes back every 6 s
    expect(wait(perAddress.take("203.0.113.2", T))).toBeNull(); // another address has its own
  });

  test("a right password gives its token back (refund), a wrong one keeps it", () => {
    const { perAddress } = createPasswordGuard();
    for (let i = 0; i < 100; i++) {
      expect(wait(perAddress.take("a", T))).toBeNull();
      perAddress.refund("a");
    }
    for (let i = 0; i < 10; i++) expect(wait(perAddress.take("a", T))).toBeNull();
    expect(wait(perAddress.take("a", T))).toBe(6);
  });

  test("a refund never fills the bucket above its size, and refunds nothing unknown", () => {
    const { perLink } = createPasswordGuard();
    perLink.refund("never-seen");
    expect(perLink.size).toBe(0);
    expect(wait(perLink.take("link", T))).toBeNull();
    for (let i = 0; i < 5; i++) perLink.refund("link");
    for (let i = 0; i < 60; i++) expect(wait(perLink.take("link", T))).toBeNull();
    expect(wait(perLink.take("link", T))).toBe(1);
  });
});
