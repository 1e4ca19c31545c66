// Shlink's visits routes (docs/shlink-api.md: Visits) against a real server on both engines: real
// clicks (User-Agents, a referrer, a country from a test GeoLite file), visits an import brought,
// then the rows as Shlink's web client reads them. Shapes: Shlink docs/swagger/definitions/Visit.json
// (required referer, date, userAgent, visitLocation, potentialBot, visitedUrl), Pagination.json,
// paths/v2_visits.json (the overview), the SDK's src/api-contract/types.ts (ShlinkVisitsList,
// ShlinkVisitsOverview); the web client reads userAgent with bowser (shlink-web-component
// src/visits/services/VisitsParser.ts) and pages with 5,000 items (src/visits/reducers/common/createLoadVisits.ts).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Bowser from "bowser";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, importedThroughApi, madeLink, makeKey } from "../support/admin.ts";
import { UA, visit } from "../support/clicks.ts";
import { writeMmdb } from "../support/mmdb-writer.ts";
import { shlinkShortUrl, shlinkVisit, shlinkVisitsKey, startShlink } from "../support/peers/shlink.ts";
import type { Peer } from "../support/peers/fault.ts";

let s: RunningServer;
let files: string;
let admin: string;
let creator: string;
let shlink: Peer;

const VISIT_REQUIRED = ["referer", "date", "userAgent", "visitLocation", "potentialBot", "visitedUrl"];
const ATOM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

async function rest(method: string, path: string, key: string | null = admin): Promise<{ status: number; type: string; body: any }> {
  const res = await fetch(`${s.url}/rest/v3${path}`, { method, headers: key === null ? {} : { "X-Api-Key": key } });
  return { status: res.status, type: res.headers.get("content-type") ?? "", body: await res.json() };
}

beforeAll(async () => {
  files = mkdtempSync(join(tmpdir(), "shortener-shlink-visits-"));
  const geo = join(files, "geo.mmdb");
  writeFileSync(geo, writeMmdb([{ cidr: "203.0.113.0/24", data: { country: { iso_code: "DE" }, registered_country: { iso_code: "DE" } } }], { ipVersion: 4, databaseType: "GeoLite2-Country", buildEpoch: 1_700_000_000 }));
  s = await startServer({ args: ["--create-rate-limit", "0", "--trust-proxy", "127.0.0.1", "--geoip-db", geo, "--import-allow-private"] });
  admin = makeKey(s.dbPath, "admin");
  creator = makeKey(s.dbPath, "creator", "create");
  await madeLink(s.url, admin, "vis-a", { tags: ["news"] });
  await madeLink(s.url, creator, "vis-own");
  // Oldest first: a person from Germany via t.co, a bot, a person on an iPhone (no country known).
  await visit(s.url, "vis-a", [{ ua: UA.chromeWindows, referrer: "https://t.co/abc", ip: "203.0.113.7" }]);
  await Bun.sleep(5);
  await visit(s.url, "vis-a", [{ ua: UA.googlebot }]);
  await Bun.sleep(5);
  await visit(s.url, "vis-a", [{ ua: UA.safariIphone }]);
  await visit(s.url, "vis-own", [{ ua: UA.firefoxLinux }]);
  // An import with history: two visits of June 2025.
  shlink = await startShlink({
    apiKey: "shlink-key",
    shortUrls: [shlinkShortUrl({ shortCode: "vis-imp", longUrl: "https://example.com/imported", visitsSummary: { total: 2, nonBots: 2, bots: 0 } })],
    visits: new Map([[shlinkVisitsKey("vis-imp"), [shlinkVisit({ date: "2025-06-01T12:00:00+00:00" }), shlinkVisit({ date: "2025-06-02T12:00:00+00:00" })]]]),
  });
  const { job } = await importedThroughApi(s.url, admin, { from: "shlink", url: shlink.url, apiKey: "shlink-key", visits: true });
  if (job.state !== "done") throw new Error(`import: ${JSON.stringify(job)}`);
}, 90_000);

afterAll(async () => {
  await shlink?.close();
  await s?.dispose();
  rmSync(files, { recursive: true, force: true });
});

describe("GET /short-urls/{shortCode}/visits", () => {
  test("every visit, newest first, in Shlink's Visit shape: bowser reads the browser and OS, the country is named, the referrer is its host", async () => {
    const r = await rest("GET", "/short-urls/vis-a/visits");
    expect([r.status, r.type]).toEqual([200, "application/json"]);
    const { data, pagination } = r.body.visits;
    expect(pagination).toEqual({ currentPage: 1, pagesCount: 1, itemsPerPage: 5000, itemsInCurrentPage: 3, totalItems: 3 });
    for (const v of data) {
      for (const field of VISIT_REQUIRED) expect(Object.keys(v)).toContain(field);
      expect(v.date).toMatch(ATOM);
      expect(v.visitedUrl).toBe(`${s.url}/vis-a`);
    }
    const dates = data.map((v: any) => v.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const read = data.map((v: any) => {
      const ua = Bowser.parse(v.userAgent);
      return [ua.browser.name, ua.os.name ?? "", v.potentialBot, v.referer, v.visitLocation?.countryName ?? null];
    });
    expect(read).toEqual([
      ["Safari", "iOS", false, "", null],
      ["Googlebot", "", true, "", null],
      ["Chrome", "Windows", false, "t.co", "Germany"],
    ]);
    expect(data[2].visitLocation).toEqual({ countryCode: "DE", countryName: "Germany", regionName: "", cityName: "", latitude: 0, longitude: 0, timezone: "", isEmpty: false });
  }, 30_000);

  test("pages, excludeBots and a date range; an import's visits are there with their own dates", async () => {
    const second = await rest("GET", "/short-urls/vis-a/visits?page=2&itemsPerPage=1");
    expect(second.body.visits.pagination).toEqual({ currentPage: 2, pagesCount: 3, itemsPerPage: 1, itemsInCurrentPage: 1, totalItems: 3 });
    expect(second.body.visits.data[0].potentialBot).toBe(true);
    const people = await rest("GET", "/short-urls/vis-a/visits?excludeBots=true");
    expect(people.body.visits.data.map((v: any) => v.potentialBot)).toEqual([false, false]);
    const imported = await rest("GET", "/short-urls/vis-imp/visits");
    expect(imported.body.visits.data.map((v: any) => v.date)).toEqual(["2025-06-02T12:00:00+00:00", "2025-06-01T12:00:00+00:00"]);
    const since = await rest("GET", `/short-urls/vis-imp/visits?startDate=${encodeURIComponent("2025-06-02T00:00:00+02:00")}`);
    expect(since.body.visits.data.map((v: any) => v.date)).toEqual(["2025-06-02T12:00:00+00:00"]);
    const until = await rest("GET", `/short-urls/vis-imp/visits?endDate=${encodeURIComponent("2025-06-01T12:00:00Z")}`);
    expect(until.body.visits.data.map((v: any) => v.date)).toEqual(["2025-06-01T12:00:00+00:00"]);
  }, 30_000);

  test("a create key: its own link's visits; another's link is short-url-not-found; a wrong key and no key are 401", async () => {
    expect((await rest("GET", "/short-urls/vis-own/visits", creator)).body.visits.pagination.totalItems).toBe(1);
    const other = await rest("GET", "/short-urls/vis-a/visits", creator);
    expect([other.status, other.type, other.body.type, other.body.shortCode]).toEqual([404, "application/problem+json", "https://shlink.io/api/error/short-url-not-found", "vis-a"]);
    expect((await rest("GET", "/short-urls/vis-a/visits", "not-a-key")).body.type).toBe("https://shlink.io/api/error/invalid-api-key");
    expect((await rest("GET", "/short-urls/vis-a/visits", null)).status).toBe(401);
  }, 30_000);

  test("bad input is invalid-data naming the parameter, never a 5xx", async () => {
    for (const [query, field] of [["page=0", "page"], ["itemsPerPage=0", "itemsPerPage"], ["page=x", "page"], ["startDate=yesterday", "startDate"], ["endDate=2025-13-45T00:00:00Z", "endDate"], ["startDate=2025-06-02T00:00:00", "startDate"], ["endDate=2025-06-02 10:00", "endDate"], ["excludeBots=maybe", "excludeBots"]]) {
      const r = await rest("GET", `/short-urls/vis-a/visits?${query}`);
      expect([query, r.status, r.body.type, r.body.invalidElements]).toEqual([query, 400, "https://shlink.io/api/error/invalid-data", [field]]);
    }
  }, 30_000);

  test("DELETE: refused with a problem (we keep a link's visits), which stay; another's link is short-url-not-found", async () => {
    const r = await rest("DELETE", "/short-urls/vis-a/visits");
    expect([r.status, r.type, r.body.type, r.body.status]).toEqual([409, "application/problem+json", "urn:shortener:error:visits_kept", 409]);
    expect((await rest("GET", "/short-urls/vis-a/visits")).body.visits.pagination.totalItems).toBe(3);
    expect((await rest("DELETE", "/short-urls/vis-a/visits", creator)).body.type).toBe("https://shlink.io/api/error/short-url-not-found");
  }, 30_000);
});

describe("visits of many links", () => {
  test("GET /visits: the clicks of the links the key sees, orphan visits zero (none made here)", async () => {
    expect((await rest("GET", "/visits")).body).toEqual({ visits: { nonOrphanVisits: { total: 6, nonBots: 5, bots: 1 }, orphanVisits: { total: 0, nonBots: 0, bots: 0 } } });
    expect((await rest("GET", "/visits", creator)).body.visits.nonOrphanVisits).toEqual({ total: 1, nonBots: 1, bots: 0 });
  }, 30_000);

  test("non-orphan visits: every link's the key sees, newest first", async () => {
    const all = await rest("GET", "/visits/non-orphan");
    expect(all.body.visits.pagination.totalItems).toBe(6);
    const dates = all.body.visits.data.map((v: any) => v.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const own = await rest("GET", "/visits/non-orphan", creator);
    expect(own.body.visits.data.map((v: any) => v.visitedUrl)).toEqual([`${s.url}/vis-own`]);
  }, 30_000);

  test("a tag's visits; a tag on none of the key's links is tag-not-found", async () => {
    expect((await rest("GET", "/tags/news/visits")).body.visits.pagination.totalItems).toBe(3);
    const theirs = await rest("GET", "/tags/news/visits", creator);
    expect([theirs.status, theirs.body.type, theirs.body.tag]).toEqual([404, "https://shlink.io/api/error/tag-not-found", "news"]);
  }, 30_000);

  test("a tag's visits of one domain: a tag on no link of that domain is tag-not-found, as it is for a key", async () => {
    // The first domain added becomes the default (the links' own, stored as ''); the second is another.
    for (const name of ["tags.example.org", "elsewhere.example.org"]) expect((await api(s.url, admin, "POST", "/api/domains", { name })).status).toBe(201);
    expect((await rest("GET", "/tags/news/visits?domain=DEFAULT")).body.visits.pagination.totalItems).toBe(3);
    const elsewhere = await rest("GET", "/tags/news/visits?domain=elsewhere.example.org");
    expect([elsewhere.status, elsewhere.body.type, elsewhere.body.tag]).toEqual([404, "https://shlink.io/api/error/tag-not-found", "news"]);
  }, 30_000);

  test("a domain's visits: DEFAULT is the default domain; an unknown one is domain-not-found", async () => {
    expect((await rest("GET", "/domains/DEFAULT/visits?itemsPerPage=1")).body.visits.pagination).toEqual({ currentPage: 1, pagesCount: 6, itemsPerPage: 1, itemsInCurrentPage: 1, totalItems: 6 });
    const unknown = await rest("GET", "/domains/nowhere.example/visits");
    expect([unknown.status, unknown.body.type, unknown.body.authority]).toEqual([404, "https://shlink.io/api/error/domain-not-found", "nowhere.example"]);
  }, 30_000);

  test("orphan visits: none made here, so an empty page, and deleting them deletes none", async () => {
    expect((await rest("GET", "/visits/orphan")).body.visits).toEqual({ data: [], pagination: { currentPage: 1, pagesCount: 0, itemsPerPage: 5000, itemsInCurrentPage: 0, totalItems: 0 } });
    expect((await rest("DELETE", "/visits/orphan")).body).toEqual({ deletedVisits: 0 });
    expect((await rest("GET", "/visits/orphan?page=0")).body.invalidElements).toEqual(["page"]);
  }, 30_000);
});
