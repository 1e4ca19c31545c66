// `shortener import --from shlink|kutt|bitly` against local servers that answer exactly as those
// services' documented APIs do (test/support/peers/*.ts cite them: Shlink's docs/swagger, Kutt's
// docs/api/api.js and server/, Bitly's OpenAPI v4 and dev.bitly.com), their errors included: a
// refused key, a 429 with Retry-After, a 500 half-way. The real services cannot run here.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverCommand, startServer, type RunningServer } from "../support/server.ts";
import { api, importedThroughApi, makeKey } from "../support/admin.ts";
import { UA } from "../support/clicks.ts";
import { shlinkShortUrl, shlinkVisit, shlinkVisitsKey, startShlink } from "../support/peers/shlink.ts";
import { kuttLink, kuttStats, startKutt } from "../support/peers/kutt.ts";
import { bitlink, bitlyGroup, startBitly } from "../support/peers/bitly.ts";
import type { Peer } from "../support/peers/fault.ts";

let s: RunningServer;
let key: string;
let secrets: string;

beforeAll(async () => {
  // The peers answer on loopback addresses: the dashboard's import reaches them only with the flag.
  s = await startServer({ args: ["--import-allow-private"] });
  key = makeKey(s.dbPath, "admin");
  secrets = mkdtempSync(join(tmpdir(), "shortener-import-keys-"));
});
afterAll(async () => {
  await s?.dispose();
  rmSync(secrets, { recursive: true, force: true });
});

// Not spawnSync: the peers answer from this process, which must go on running meanwhile.
async function importer(from: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return await run(["--from", from, ...args], {});
}

async function run(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([...serverCommand(), "import", "--db", s.dbPath, ...args], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "", ...env } });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

function keyFile(name: string, value: string): string {
  const path = join(secrets, name);
  writeFileSync(path, value + "\n");
  return path;
}

async function link(id: string): Promise<any> {
  const r = await api(s.url, key, "GET", `/api/links/${id}`);
  return r.status === 200 ? r.body.data : null;
}

async function linkStats(id: string): Promise<any> {
  return (await api(s.url, key, "GET", `/api/stats?id=${id}`)).body.data.stats;
}

/** The peer was only ever read. */
function onlyRead(peer: Peer): void {
  expect(peer.requests.length).toBeGreaterThan(0);
  expect(peer.requests.filter((r) => r.method !== "GET")).toEqual([]);
}

describe("Shlink", () => {
  let shlink: Peer;
  // sh-two's domain onto our default, which has no name here (docs/importing.md: Domains).
  const ONTO_DEFAULT = ["--domain-map", "go.example.org=default"];
  const visitsOf = (n: number, code: string) =>
    Array.from({ length: n }, (_, i) =>
      shlinkVisit({
        date: new Date(Date.UTC(2025, 5, 1 + (i % 20), 12, i % 60)).toISOString().replace(".000Z", "+00:00"),
        userAgent: i % 4 === 3 ? UA.googlebot : UA.chromeWindows,
        referer: i % 2 ? "https://t.co/x" : "",
        visitLocation: i % 3 ? { countryCode: "DE", countryName: "Germany" } : null,
        visitedUrl: `https://s.test/${code}?utm_source=mail&utm_campaign=spring`,
      }),
    );
  beforeAll(async () => {
    const visits = new Map([[shlinkVisitsKey("sh-one"), visitsOf(1200, "sh-one")], [shlinkVisitsKey("sh-two", "go.example.org"), visitsOf(30, "sh-two")]]);
    shlink = await startShlink({
      apiKey: "shlink-key",
      shortUrls: [
        shlinkShortUrl({ shortCode: "sh-one", longUrl: "https://example.com/one", tags: ["promo", "has space"], title: "One", visitsSummary: { total: 1200, nonBots: 900, bots: 300 } }),
        shlinkShortUrl({ shortCode: "sh-two", domain: "go.example.org", longUrl: "https://example.com/two", meta: { validSince: null, validUntil: "2030-01-01T00:00:00+02:00", maxVisits: 5000 }, visitsSummary: { total: 30, nonBots: 23, bots: 7 } }),
        ...Array.from({ length: 150 }, (_, i) => shlinkShortUrl({ shortCode: `sh-many-${i}`, longUrl: `https://example.com/many/${i}`, dateCreated: `2024-0${1 + (i % 9)}-01T00:00:00+00:00` })),
      ],
      visits,
    });
  });
  afterAll(async () => {
    await shlink?.close();
  });

  test("a wrong key is refused by its status, never in Shlink's own words (docs/security.md: Security, \"Outbound requests\"), and nothing is written", async () => {
    const r = await importer("shlink", "--url", shlink.url, "--api-key-file", keyFile("wrong", "nope"));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Shlink answered 401 to GET \/rest\/v3\/short-urls\?\S+ \(is the API key right\?\)/);
    expect(r.out).not.toContain("Provided API key does not exist or is invalid");
    expect(r.out + r.err).not.toContain("nope");
    expect(await link("sh-one")).toBeNull();
  });

  test("every short URL and every visit; a 429 is waited out; a 500 half-way through a link stops it, and a re-run completes it without doubles", async () => {
    shlink.setFaults([
      { match: (path) => path.startsWith("/rest/v3/short-urls?page=2"), status: 429, retryAfter: 1, times: 1 },
      // Half-way through a link: its oldest 200 visits (its last page) are written, then its page 2 fails.
      { match: (path) => path.includes("/short-urls/sh-one/visits?page=2"), status: 500 },
    ]);
    const first = await importer("shlink", "--url", shlink.url, "--api-key-file", keyFile("right", "shlink-key"), "--visits", ...ONTO_DEFAULT);
    expect(first.code).toBe(1);
    expect(first.out).toContain("Stopped: Shlink answered 500 to GET /rest/v3/short-urls/sh-one/visits?page=2");
    expect(first.out).toContain("152 created");
    expect(first.out).toContain("200 visits imported");
    // The 429 was answered after its Retry-After: page 2 was asked twice.
    expect(shlink.requests.filter((r) => r.path.startsWith("/rest/v3/short-urls?page=2")).length).toBe(2);
    expect((await link("sh-one")).totalClicks).toBe(200);

    shlink.setFaults([]);
    const second = await importer("shlink", "--url", shlink.url, "--api-key-file", keyFile("right", "shlink-key"), "--visits", ...ONTO_DEFAULT);
    expect(second.code).toBe(0);
    expect(second.out).toContain("0 created, 152 imported before");
    expect(second.out).toContain("1,030 visits imported");
    const one = await link("sh-one");
    expect(one).toMatchObject({ originalUrl: "https://example.com/one", tags: ["promo"], totalClicks: 1200, humanClicks: 900, title: "One" });
    // Shlink's title is kept (docs/importing.md: Moving from another shortener): never reported as dropped.
    expect(first.out + second.out).not.toContain("title");
    expect(await link("sh-many-0")).toMatchObject({ title: null });
    expect(await link("sh-two")).toMatchObject({ totalClicks: 30, maxClicks: 5000, expiresAt: "2029-12-31T22:00:00.000Z" });
    expect(second.out).toContain('the tag "has space" of 1 link: not kept');
    // Our own parsing of what Shlink kept: bots by our detection, referrers, countries, UTM.
    const st = (await api(s.url, key, "GET", "/api/stats?id=sh-one&from=2025-06-01&to=2025-06-30")).body.data.stats;
    expect(st.humanClicks).toBe(900);
    expect(st.countryStats).toEqual(expect.arrayContaining([{ name: "DE", count: 800 }, { name: "Unknown", count: 400 }]));
    expect(st.referrerStats).toEqual(expect.arrayContaining([{ name: "t.co", count: 600 }, { name: "Direct", count: 600 }]));
    expect(st.utmStats.length).toBeGreaterThan(0);
    expect(st.uniqueVisitors).toBeNull();

    const third = await importer("shlink", "--url", shlink.url, "--api-key-file", keyFile("right", "shlink-key"), "--visits", ...ONTO_DEFAULT);
    expect(third.code).toBe(0);
    expect(third.out).toContain("0 visits imported");
    expect((await link("sh-one")).totalClicks).toBe(1200);
    onlyRead(shlink);
  }, 60_000);
});

describe("Shlink, a link whose destination carries UTM", () => {
  let shlink: Peer;
  beforeAll(async () => {
    // Visited without a query of their own: what they count under comes from the link's URL alone.
    const visits = Array.from({ length: 7 }, (_, i) =>
      shlinkVisit({ date: new Date(Date.UTC(2025, 6, 1 + i, 12)).toISOString().replace(".000Z", "+00:00"), userAgent: UA.chromeWindows, visitedUrl: "https://s.test/sh-utm" }),
    );
    shlink = await startShlink({
      apiKey: "shlink-key",
      shortUrls: [shlinkShortUrl({ shortCode: "sh-utm", longUrl: "https://example.com/land?utm_source=x", visitsSummary: { total: 7, nonBots: 7, bots: 0 } })],
      visits: new Map([[shlinkVisitsKey("sh-utm"), visits]]),
    });
  });
  afterAll(async () => {
    await shlink?.close();
  });

  test("imported visits count the destination's UTM, as the same clicks recorded live do (docs/importing.md: Moving from another shortener)", async () => {
    const r = await importer("shlink", "--url", shlink.url, "--api-key-file", keyFile("utm", "shlink-key"), "--visits");
    expect(r.code).toBe(0);
    const st = (await api(s.url, key, "GET", "/api/stats?id=sh-utm&from=2025-07-01&to=2025-07-31")).body.data.stats;
    expect(st.totalClicks).toBe(7);
    expect(st.utmStats).toEqual([{ source: "x", medium: null, campaign: null, count: 7 }]);
  }, 60_000);
});

describe("Kutt", () => {
  let kutt: Peer;
  beforeAll(async () => {
    const daily = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 2 : 0));
    const busy = kuttLink({ address: "kt-busy", target: "https://example.com/busy", description: "The busy\n page", visit_count: 50, created_at: "2024-01-01T00:00:00.000Z" });
    // Made 5 days ago, and its counter ahead of its cached stats: the clicks before the 30 days fall on a day among them.
    const young = kuttLink({ address: "kt-young", target: "https://example.com/young", visit_count: 9, created_at: new Date(Date.now() - 5 * 86_400_000).toISOString() });
    kutt = await startKutt({
      apiKey: "kutt-key",
      links: [
        busy,
        young,
        kuttLink({ address: "kt-secret", target: "https://example.com/secret", password: true }),
        ...Array.from({ length: 60 }, (_, i) => kuttLink({ address: `kt-${i}`, target: `https://example.com/k/${i}` })),
      ],
      stats: new Map([[young.id, kuttStats({ dailyLast30: Array.from({ length: 30 }, (_, i) => (i >= 25 ? 1 : 0)) })], [busy.id, kuttStats({ dailyLast30: daily, browsers: { chrome: 12, firefox: 8 }, os: { windows: 15, linux: 5 }, countries: { de: 14, unknown: 6 }, referrers: { "google[dot]com": 11, direct: 9 } })]]),
    });
  });
  afterAll(async () => {
    await kutt?.close();
  });

  test("links page by page; its counts as daily and per-dimension counts without inventing visits; a password-protected link stays shut", async () => {
    const r = await importer("kutt", "--url", kutt.url, "--visits");
    expect(r.code).toBe(2);
    expect(r.err).toContain("the API key is required");
    const ok = await run(["--from", "kutt", "--url", kutt.url, "--visits"], { KUTT_API_KEY: "kutt-key" });
    const out = ok.out;
    expect(ok.code).toBe(0);
    expect(out).toContain("63 links read; 63 created");
    expect(out).toContain("59 clicks imported as daily counts");
    expect((await link("kt-young")).totalClicks).toBe(9);
    expect(out).toContain('"/kt-secret" imported disabled');
    expect(await link("kt-secret")).toMatchObject({ disabled: true });
    // Kutt's description is the title here, its whitespace collapsed; none stays none.
    expect(await link("kt-busy")).toMatchObject({ totalClicks: 50, title: "The busy page" });
    expect(await link("kt-young")).toMatchObject({ title: null });
    expect(out).not.toContain("description");
    // 20 in the last 30 days, day by day; the 30 before them on the link's creation day.
    const st = await linkStats("kt-busy");
    expect(st.totalClicks).toBe(20);
    expect(st.visitsByDate.filter((d: any) => d.count > 0).length).toBe(10);
    expect((await api(s.url, key, "GET", "/api/stats?id=kt-busy&from=2024-01-01&to=2024-01-01")).body.data.stats.totalClicks).toBe(30);
    expect(st.browserStats).toEqual(expect.arrayContaining([{ name: "Chrome", count: 12 }, { name: "Firefox", count: 8 }]));
    expect(st.osStats).toEqual(expect.arrayContaining([{ name: "Windows", count: 15 }, { name: "Linux", count: 5 }]));
    expect(st.countryStats).toEqual(expect.arrayContaining([{ name: "DE", count: 14 }, { name: "Unknown", count: 6 }]));
    expect(st.referrerStats).toEqual(expect.arrayContaining([{ name: "google.com", count: 11 }, { name: "Direct", count: 9 }]));
    expect(st.recentVisits).toEqual([]);
    const again = await run(["--from", "kutt", "--url", kutt.url, "--visits"], { KUTT_API_KEY: "kutt-key" });
    expect(again.code).toBe(0);
    expect(again.out).toContain("0 clicks imported");
    expect((await link("kt-busy")).totalClicks).toBe(50);
    onlyRead(kutt);
  }, 60_000);
});

describe("Bitly", () => {
  let bitly: Peer;
  const today = new Date().toISOString().slice(0, 10);
  const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10) + "T00:00:00+0000";
  beforeAll(async () => {
    bitly = await startBitly({
      token: "bitly-token",
      groups: [bitlyGroup({ guid: "Bg1" })],
      bitlinks: new Map([["Bg1", [
        bitlink({ id: "bit.ly/3xYz9Ab", long_url: "https://example.com/launch", title: "Spring launch", custom_bitlinks: ["https://bit.ly/spring-launch", "https://bit.ly/launch2026"], tags: ["launch"] }),
        bitlink({ id: "bit.ly/4Archiv", long_url: "https://example.com/old", archived: true }),
        ...Array.from({ length: 120 }, (_, i) => bitlink({ id: `bit.ly/b${i}x`, long_url: `https://example.com/b/${i}` })),
      ]]]),
      clicks: new Map([["bit.ly/3xYz9Ab", [{ date: `${today}T00:00:00+0000`, clicks: 5 }, { date: day(1), clicks: 7 }, { date: day(3), clicks: 2 }]]]),
    });
  });
  afterAll(async () => {
    await bitly?.close();
  });

  test("a refused token says so", async () => {
    const r = await run(["--from", "bitly", "--url", bitly.url], { BITLY_TOKEN: "wrong" });
    expect(r.code).toBe(1);
    expect(r.out).toContain("Bitly answered 403 to GET /v4/groups (is the token right?)");
    expect(r.out).not.toContain("FORBIDDEN");
  });

  test("bitlinks under their custom back-half, every other code too, archived ones included; whole days of clicks", async () => {
    const r = await run(["--from", "bitly", "--url", bitly.url, "--token-file", keyFile("bitly", "bitly-token"), "--visits"], {});
    expect(r.code).toBe(0);
    expect(r.out).toContain("124 created");
    expect(r.out).toContain("9 clicks imported as daily counts");
    for (const code of ["spring-launch", "launch2026", "3xYz9Ab"]) {
      const res = await fetch(`${s.url}/${code}`, { redirect: "manual" });
      expect({ code, location: res.headers.get("location") }).toEqual({ code, location: "https://example.com/launch" });
    }
    // Every code of the bitlink carries its title: they are one link at Bitly.
    for (const code of ["spring-launch", "launch2026", "3xYz9Ab"]) expect({ code, title: (await link(code)).title }).toEqual({ code, title: "Spring launch" });
    expect(r.out).not.toContain("title");
    expect(await link("4Archiv")).toMatchObject({ originalUrl: "https://example.com/old", title: null });
    const st = await linkStats("spring-launch");
    // Today's count is not final: it comes with the next run, after the day is over.
    expect(st.visitsByDate.filter((d: any) => d.count > 0 && d.date < today).map((d: any) => d.count)).toEqual([2, 7]);
    const again = await run(["--from", "bitly", "--url", bitly.url, "--visits"], { BITLY_TOKEN: "bitly-token" });
    expect(again.out).toContain("0 created, 124 imported before");
    expect(again.out).toContain("0 clicks imported");
    onlyRead(bitly);
  }, 60_000);
});

describe("the dashboard's import (POST /api/imports)", () => {
  test("admins only; a missing option is a 400 that names it; an import runs on its thread and reports as the command line does", async () => {
    const shlink = await startShlink({ apiKey: "api-key", shortUrls: [shlinkShortUrl({ shortCode: "via-api", longUrl: "https://example.com/api", title: "Through the dashboard", visitsSummary: { total: 2, nonBots: 2, bots: 0 } })], visits: new Map([[shlinkVisitsKey("via-api"), [shlinkVisit({ date: "2025-03-01T10:00:00+00:00", userAgent: UA.firefoxLinux }), shlinkVisit({ date: "2025-03-02T10:00:00+00:00", userAgent: UA.chromeWindows })]]]) });
    try {
      const body = { from: "shlink", url: shlink.url, apiKey: "api-key", visits: true };
      expect((await api(s.url, null, "POST", "/api/imports", body)).status).toBe(401);
      const creator = makeKey(s.dbPath, "creator", "create");
      expect((await api(s.url, creator, "POST", "/api/imports", body)).body.code).toBe("admin_only");
      const missing = await api(s.url, key, "POST", "/api/imports", { from: "shlink", url: shlink.url });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toContain("API key is required");
      expect((await api(s.url, key, "POST", "/api/imports", { from: "nothing" })).status).toBe(400);

      const { started, job } = await importedThroughApi(s.url, key, body);
      expect([started.status, job.state]).toEqual([202, "done"]);
      expect(job.summary).toMatchObject({ linksRead: 1, created: 1, visits: 2 });
      expect(job.lines[0]).toBe("shlink: 1 links read; 1 created, 0 imported before, 0 skipped, 0 renamed.");
      expect(await link("via-api")).toMatchObject({ totalClicks: 2, owner: "admin", title: "Through the dashboard" });
      expect((await api(s.url, creator, "GET", `/api/imports/${job.id}`)).status).toBe(403);
      expect((await api(s.url, key, "GET", "/api/imports/nope")).status).toBe(404);
      expect(s.output()).not.toContain("api-key\"");
    } finally {
      await shlink.close();
    }
  }, 30_000);
});

describe("a CSV through the dashboard's import", () => {
  test("its title column arrives, fitted as every title here is; a title cut short is said", async () => {
    const long = "Long-".repeat(130); // 650 characters
    const csv = ["url,custom_url,title", "https://example.com/c1,csv-t1,\"Two\nlines\"", `https://example.com/c2,csv-t2,${long}`, "https://example.com/c3,csv-t3,"].join("\n");
    const { job } = await importedThroughApi(s.url, key, { from: "csv", csv });
    expect(job.state).toBe("done");
    expect(job.summary).toMatchObject({ linksRead: 3, created: 3 });
    expect(job.lines).toContain("  the title of 1 link: longer than 500 characters, kept cut to 500");
    expect(await link("csv-t1")).toMatchObject({ title: "Two lines" });
    expect((await link("csv-t2")).title).toBe(long.slice(0, 500));
    expect(await link("csv-t3")).toMatchObject({ title: null });
  }, 30_000);
});
