// A/B splits (#22) against a real server, on either engine: 10,000 visitors share the variants as
// the weights say (within 3 percentage points), one visitor keeps their variant all day, and the
// stats count each variant exactly as the clicks were sent. A visitor is the client address
// (X-Forwarded-For from the test as a trusted proxy) and the User-Agent.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, drained, stats } from "../support/clicks.ts";
import { BROWSERS } from "../fixtures/user-agents.ts";

let server: RunningServer;
let key: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0", "--trust-proxy", "127.0.0.1"] });
  key = makeKey(server.dbPath, "owner");
});
afterAll(() => server.dispose());

const AGENTS = BROWSERS.filter((c) => c.ua !== null && !c.expect.isBot).map((c) => c.ua!);
const CHROME = AGENTS[0]!;

/** The i-th of 2^16 distinct addresses in 198.18.0.0/15 (the benchmarking range). */
const address = (i: number) => `198.${18 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`;

/** Runs `task` for 0..n-1, at most `width` at a time; the results in order. */
async function bounded<T>(n: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      out[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, n) }, worker));
  return out;
}

async function location(id: string, headers: Record<string, string>): Promise<string> {
  const res = await click(server.url, id, headers);
  if (res.status !== 302) throw new Error(`click on ${id} answered ${res.status}`);
  return res.headers.get("location")!;
}

function tally(locations: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const l of locations) counts.set(l, (counts.get(l) ?? 0) + 1);
  return counts;
}

type NameCount = { name: string; count: number };
const asMap = (list: NameCount[]) => new Map(list.map((e) => [e.name, e.count]));

describe("the link's own split", () => {
  const VARIANTS = [
    { url: "https://a.example/", weight: 2 },
    { url: "https://b.example/", weight: 3 },
    { url: "https://c.example/", weight: 5 },
  ];
  const N = 10_000;
  let seen: Map<string, number>;

  beforeAll(async () => {
    const r = await api(server.url, key, "POST", "/api/create", { url: "https://default.example/", custom_url: "split-235", variants: VARIANTS });
    expect(r.status).toBe(201);
    // 10,000 visitors: each its own address, and one of the fixtures' browsers.
    const locations = await bounded(N, 50, (i) => location("split-235", { "x-forwarded-for": address(i), "user-agent": AGENTS[i % AGENTS.length]! }));
    seen = tally(locations);
  }, 120_000);

  test("10,000 visitors: each variant's share within 3 points of its weight; the link's own URL is never used", () => {
    expect([...seen.keys()].sort()).toEqual(VARIANTS.map((v) => v.url));
    for (const v of VARIANTS) {
      const share = seen.get(v.url)! / N;
      expect({ url: v.url, off: Math.abs(share - v.weight / 10) < 0.03 }).toEqual({ url: v.url, off: true });
    }
  });

  test("variantStats count exactly the clicks each variant got; ruleStats has them all as default; recent visits name both", async () => {
    await drained(server.url);
    const s = (await stats(server.url, "id=split-235")).data.stats;
    expect(s.totalClicks).toBe(N);
    expect(asMap(s.variantStats)).toEqual(seen);
    expect(s.variantStats.reduce((n: number, e: NameCount) => n + e.count, 0)).toBe(N);
    expect(s.ruleStats).toEqual([{ name: "default", count: N }]);
    for (const v of s.recentVisits) expect(v).toMatchObject({ rule: "default", variant: expect.stringMatching(/^https:\/\/[abc]\.example\/$/) });
    // The split's visitor is the stats' visitor: as many unique visitors as addresses clicked.
    expect(s.uniqueVisitors).toBe(N);
  });

  test("one visitor clicking 20 times keeps one variant; so do 10 others, in any order", async () => {
    const visitors = Array.from({ length: 11 }, (_, i) => ({ "x-forwarded-for": `192.0.2.${i + 1}`, "user-agent": CHROME }));
    const rounds: string[][] = [];
    for (let round = 0; round < 20; round++) rounds.push(await Promise.all(visitors.map((h) => location("split-235", h))));
    for (let v = 0; v < visitors.length; v++) {
      const mine = new Set(rounds.map((r) => r[v]));
      expect({ visitor: v, variants: mine.size }).toEqual({ visitor: v, variants: 1 });
    }
    // Each visitor's 20 clicks are one unique visitor in the stats too.
    await drained(server.url);
    const s = (await stats(server.url, "id=split-235")).data.stats;
    expect(s.totalClicks).toBe(N + 20 * visitors.length);
    expect(s.uniqueVisitors).toBe(N + visitors.length);
  });

  test("the visitor is the link, the address and the browser: the same visitor on another split link may land elsewhere, but keeps that too", async () => {
    const r = await api(server.url, key, "POST", "/api/create", { url: "https://default.example/", custom_url: "split-other", variants: VARIANTS });
    expect(r.status).toBe(201);
    const h = { "x-forwarded-for": "192.0.2.200", "user-agent": CHROME };
    const first = await location("split-other", h);
    for (let i = 0; i < 5; i++) expect(await location("split-other", h)).toBe(first);
  });
});

describe("a split inside a rule", () => {
  test("1:3 for mobile visitors, the link's URL for the rest; ruleStats and variantStats add up to the clicks", async () => {
    const mobile = BROWSERS.find((c) => c.name === "Chrome on Android phone (Pixel 8)")!.ua!;
    const r = await api(server.url, key, "POST", "/api/create", {
      url: "https://desktop.example/",
      custom_url: "split-rule",
      rules: [{ conditions: [{ type: "device", value: "mobile" }], variants: [{ url: "https://m1.example/", weight: 1 }, { url: "https://m3.example/", weight: 3 }] }],
    });
    expect(r.status).toBe(201);
    const M = 2_000;
    const mobiles = tally(await bounded(M, 50, (i) => location("split-rule", { "x-forwarded-for": address(30_000 + i), "user-agent": mobile })));
    const desktops = tally(await bounded(200, 50, (i) => location("split-rule", { "x-forwarded-for": address(40_000 + i), "user-agent": CHROME })));
    expect([...desktops.entries()]).toEqual([["https://desktop.example/", 200]]);
    expect([...mobiles.keys()].sort()).toEqual(["https://m1.example/", "https://m3.example/"]);
    // 2,000 visitors: 1:3 within 5 points (about 5 standard deviations).
    expect(Math.abs(mobiles.get("https://m1.example/")! / M - 0.25)).toBeLessThan(0.05);
    await drained(server.url);
    const s = (await stats(server.url, "id=split-rule")).data.stats;
    expect(s.totalClicks).toBe(M + 200);
    expect(asMap(s.ruleStats)).toEqual(new Map([["rule 1", M], ["default", 200]]));
    expect(asMap(s.variantStats)).toEqual(mobiles);
  }, 60_000);

  test("removing the split (variants: null) sends everyone to the link's URL again", async () => {
    await api(server.url, key, "POST", "/api/create", { url: "https://plain.example/", custom_url: "split-off", variants: [{ url: "https://x.example/", weight: 1 }, { url: "https://y.example/", weight: 1 }] });
    const before = tally(await bounded(40, 10, (i) => location("split-off", { "x-forwarded-for": address(50_000 + i), "user-agent": CHROME })));
    expect([...before.keys()].sort()).toEqual(["https://x.example/", "https://y.example/"]);
    const patched = await api(server.url, key, "PATCH", "/api/links/split-off", { variants: null });
    expect(patched.body.data.variants).toBeNull();
    const after = tally(await bounded(40, 10, (i) => location("split-off", { "x-forwarded-for": address(50_000 + i), "user-agent": CHROME })));
    expect([...after.entries()]).toEqual([["https://plain.example/", 40]]);
  });
});
