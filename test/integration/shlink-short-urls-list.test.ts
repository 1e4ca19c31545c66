// Shlink's GET /short-urls (#39) against a real server on either engine: each parameter Shlink's
// docs/swagger/paths/v1_short-urls.json gives (page, itemsPerPage, searchTerm, tags[], tagsMode,
// excludeTags[], excludeTagsMode, orderBy, startDate, endDate, excludeMaxVisitsReached,
// excludePastValidUntil, domain, apiKeyName), as the SDK sends them (shlink-js-sdk src/api/utils.ts
// queryParamsToString: `tags[]=a`, flags as "true"); the answer's shape is `{shortUrls: {data,
// pagination}}` with docs/swagger/definitions/ShortUrl.json and Pagination.json's fields.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { UA, visit } from "../support/clicks.ts";
import type { RunningServer } from "../support/server.ts";
import { isShortUrl, PAGINATION_FIELDS, problem, shlinkCall, shlinkServer, type Servers } from "../support/shlink-short-urls.ts";

const T = 60_000;
type Key = "admin" | "lister" | "other";
let servers: Servers<Key>;
let server: RunningServer;
let keys: Record<Key, string>;
/** A time between the first four links and the last two. */
let mid = 0;
/** When ld-date's validUntil passes. */
let ldExpires = 0;

const create = async (key: string, body: Record<string, unknown>) => {
  const r = await shlinkCall(server.url, key, "POST", "/short-urls", body);
  if (r.status !== 200) throw new Error(`create: ${r.status} ${r.text}`);
};

beforeAll(async () => {
  servers = await shlinkServer({ admin: "admin", lister: "create", other: "create" });
  ({ server, keys } = servers);
  const k = keys.lister;
  await create(k, { longUrl: "https://example.com/b-apple", customSlug: "la-apple", title: "Charlie", tags: ["red"] });
  await create(k, { longUrl: "https://example.com/a-banana", customSlug: "lb-banana", title: "Alpha", tags: ["red", "blue"] });
  await create(k, { longUrl: "https://example.com/c-cherry", customSlug: "lc-cherry", title: "Bravo", tags: ["blue"], maxVisits: 1 });
  ldExpires = Date.now() + 1_500;
  await create(k, { longUrl: "https://example.com/d-date", customSlug: "ld-date", tags: ["green"], validUntil: new Date(ldExpires).toISOString() });
  await Bun.sleep(30);
  mid = Date.now();
  await Bun.sleep(30);
  await create(k, { longUrl: "https://example.com/e-elder", customSlug: "le-elder", title: "Delta", tags: ["red", "green"], domain: "a.example.org" });
  await create(k, { longUrl: "https://example.com/f-fig", customSlug: "lf-fig" });
  await create(keys.other, { longUrl: "https://example.com/other-apple", customSlug: "lo-other", tags: ["red"] });
  await visit(server.url, "la-apple", [{ ua: UA.chromeWindows }, { ua: UA.firefoxLinux }]);
  await visit(server.url, "lb-banana", [{ ua: UA.safariIphone }, { ua: UA.googlebot }, { ua: UA.slack }, { ua: UA.googlebot }]);
  await visit(server.url, "lc-cherry", [{ ua: UA.chromeWindows }]);
}, T);
afterAll(async () => {
  await servers?.server.stop();
  await servers?.first.dispose();
}, T);

/** GET /short-urls?<query> with a key (the lister's unless told); the answer and its short codes. */
async function list(query: string, key: string = keys.lister) {
  const r = await shlinkCall(server.url, key, "GET", `/short-urls${query === "" ? "" : `?${query}`}`);
  if (r.status !== 200) throw new Error(`list ${query}: ${r.status} ${r.text}`);
  expect(Object.keys(r.body)).toEqual(["shortUrls"]);
  expect(Object.keys(r.body.shortUrls.pagination).sort()).toEqual([...PAGINATION_FIELDS].sort());
  for (const s of r.body.shortUrls.data) isShortUrl(s);
  return { data: r.body.shortUrls.data as any[], pagination: r.body.shortUrls.pagination, codes: (r.body.shortUrls.data as any[]).map((s) => s.shortCode as string) };
}

const ALL = ["la-apple", "lb-banana", "lc-cherry", "ld-date", "le-elder", "lf-fig"];
const sorted = (codes: string[]) => [...codes].sort();

describe("paging", () => {
  test("no parameters: newest first, 10 a page, Shlink's pagination", async () => {
    const r = await list("");
    expect(r.codes).toEqual([...ALL].reverse());
    expect(r.pagination).toEqual({ currentPage: 1, pagesCount: 1, itemsPerPage: 10, itemsInCurrentPage: 6, totalItems: 6 });
  }, T);

  test("page and itemsPerPage (the SDK sends page as text); a page past the end is empty", async () => {
    const r = await list("page=2&itemsPerPage=4");
    expect(r.codes).toEqual(["lb-banana", "la-apple"]);
    expect(r.pagination).toEqual({ currentPage: 2, pagesCount: 2, itemsPerPage: 4, itemsInCurrentPage: 2, totalItems: 6 });
    const past = await list("page=5&itemsPerPage=4");
    expect(past.codes).toEqual([]);
    expect(past.pagination).toMatchObject({ currentPage: 5, totalItems: 6, itemsInCurrentPage: 0 });
  }, T);

  test("itemsPerPage=-1 is every link, in pages of at most 1,000", async () => {
    const r = await list("itemsPerPage=-1");
    expect(r.codes).toHaveLength(6);
    expect(r.pagination).toEqual({ currentPage: 1, pagesCount: 1, itemsPerPage: 1000, itemsInCurrentPage: 6, totalItems: 6 });
  }, T);
});

describe("order", () => {
  test("longUrl, shortCode, dateCreated and title, each way", async () => {
    expect((await list("orderBy=longUrl-ASC")).codes).toEqual(["lb-banana", "la-apple", "lc-cherry", "ld-date", "le-elder", "lf-fig"]);
    expect((await list("orderBy=longUrl-DESC")).codes).toEqual(["lf-fig", "le-elder", "ld-date", "lc-cherry", "la-apple", "lb-banana"]);
    expect((await list("orderBy=shortCode-DESC")).codes).toEqual([...ALL].reverse());
    expect((await list("orderBy=shortCode-ASC&itemsPerPage=2&page=2")).codes).toEqual(["lc-cherry", "ld-date"]);
    expect((await list("orderBy=dateCreated-ASC")).codes).toEqual(ALL);
    const titled = (await list("orderBy=title-ASC")).data.filter((s) => s.title !== null).map((s) => s.shortCode);
    expect(titled).toEqual(["lb-banana", "lc-cherry", "la-apple", "le-elder"]);
    const desc = (await list("orderBy=title-DESC")).data.filter((s) => s.title !== null).map((s) => s.shortCode);
    expect(desc).toEqual(["le-elder", "la-apple", "lc-cherry", "lb-banana"]);
  }, T);

  test("visits counts bots, nonBotVisits people only; visitsSummary says both", async () => {
    const byVisits = await list("orderBy=visits-DESC");
    expect(byVisits.codes.slice(0, 3)).toEqual(["lb-banana", "la-apple", "lc-cherry"]);
    expect(byVisits.data[0].visitsSummary).toEqual({ total: 4, nonBots: 1, bots: 3 });
    const byPeople = await list("orderBy=nonBotVisits-DESC");
    expect(byPeople.codes[0]).toBe("la-apple");
    expect(sorted(byPeople.codes.slice(1, 3))).toEqual(["lb-banana", "lc-cherry"]);
    expect((await list("orderBy=nonBotVisits-ASC")).codes.at(-1)).toBe("la-apple");
  }, T);
});

describe("filters", () => {
  test("searchTerm finds the short code or the long URL, among the key's own links", async () => {
    expect((await list("searchTerm=cherry")).codes).toEqual(["lc-cherry"]);
    expect((await list("searchTerm=apple")).codes).toEqual(["la-apple"]);
    expect((await list("searchTerm=nothing-like-it")).pagination.totalItems).toBe(0);
  }, T);

  test("tags[] with tagsMode any (the default) and all", async () => {
    expect(sorted((await list("tags[]=red")).codes)).toEqual(["la-apple", "lb-banana", "le-elder"]);
    expect(sorted((await list("tags[]=red&tags[]=blue")).codes)).toEqual(["la-apple", "lb-banana", "lc-cherry", "le-elder"]);
    expect((await list("tags[]=red&tags[]=blue&tagsMode=all")).codes).toEqual(["lb-banana"]);
    expect((await list("tags[]=red&tags[]=blue&tagsMode=all")).pagination.totalItems).toBe(1);
  }, T);

  test("excludeTags[] with excludeTagsMode any (the default) and all", async () => {
    expect(sorted((await list("excludeTags[]=red")).codes)).toEqual(["lc-cherry", "ld-date", "lf-fig"]);
    expect(sorted((await list("excludeTags[]=red&excludeTags[]=green&excludeTagsMode=all")).codes)).toEqual(["la-apple", "lb-banana", "lc-cherry", "ld-date", "lf-fig"]);
    expect((await list("tags[]=red&excludeTags[]=blue")).codes.sort()).toEqual(["la-apple", "le-elder"]);
  }, T);

  test("startDate and endDate bound dateCreated", async () => {
    const at = encodeURIComponent(new Date(mid).toISOString());
    expect(sorted((await list(`startDate=${at}`)).codes)).toEqual(["le-elder", "lf-fig"]);
    expect(sorted((await list(`endDate=${at}`)).codes)).toEqual(["la-apple", "lb-banana", "lc-cherry", "ld-date"]);
    expect((await list(`startDate=${at}&endDate=${at}`)).pagination.totalItems).toBe(0);
  }, T);

  test("excludeMaxVisitsReached and excludePastValidUntil", async () => {
    expect(sorted((await list("excludeMaxVisitsReached=true")).codes)).toEqual(ALL.filter((c) => c !== "lc-cherry"));
    expect((await list("excludeMaxVisitsReached=false")).codes).toHaveLength(6);
    await Bun.sleep(Math.max(0, ldExpires - Date.now() + 100));
    const r = await list("excludePastValidUntil=true");
    expect(sorted(r.codes)).toEqual(ALL.filter((c) => c !== "ld-date"));
    expect(r.pagination.totalItems).toBe(5);
  }, T);

  test("domain: a name, DEFAULT, or one we do not have (nothing)", async () => {
    const named = await list("domain=a.example.org");
    expect(named.codes).toEqual(["le-elder"]);
    expect(named.data[0]).toMatchObject({ domain: "a.example.org", shortUrl: "https://a.example.org/le-elder" });
    expect(sorted((await list("domain=DEFAULT")).codes)).toEqual(ALL.filter((c) => c !== "le-elder"));
    const none = await list("domain=z.example.org");
    expect(none.codes).toEqual([]);
    expect(none.pagination.totalItems).toBe(0);
  }, T);
});

describe("scopes and refusals", () => {
  test("a create key lists its own links, an admin every link (apiKeyName narrows it; ignored from a create key)", async () => {
    expect((await list("", keys.other)).codes).toEqual(["lo-other"]);
    const all = await list("itemsPerPage=-1", keys.admin);
    expect(sorted(all.codes)).toEqual(sorted([...ALL, "lo-other"]));
    expect((await list("apiKeyName=other", keys.admin)).codes).toEqual(["lo-other"]);
    expect((await list("apiKeyName=other")).codes).toHaveLength(6);
  }, T);

  test("a bad parameter is invalid-data naming it; a wrong or missing key is refused", async () => {
    const bad: [string, string][] = [
      ["orderBy=color-ASC", "orderBy"], ["orderBy=title-UP", "orderBy"], ["page=0", "page"], ["page=two", "page"],
      ["itemsPerPage=0", "itemsPerPage"], ["itemsPerPage=-2", "itemsPerPage"], ["itemsPerPage=ten", "itemsPerPage"],
      ["tags[]=a&tagsMode=some", "tagsMode"], ["excludeTags[]=a&excludeTagsMode=none", "excludeTagsMode"],
      // 101 names: more than the list port takes (MAX_FILTER_TAGS, src/links/list.ts).
      [Array.from({ length: 101 }, (_, i) => `tags[]=t${i}`).join("&"), "tags"], [Array.from({ length: 101 }, (_, i) => `excludeTags[]=t${i}`).join("&"), "excludeTags"],
      ["startDate=yesterday", "startDate"], ["endDate=2026-13-45T00:00:00Z", "endDate"],
      ["excludeMaxVisitsReached=maybe", "excludeMaxVisitsReached"], ["excludePastValidUntil=2", "excludePastValidUntil"],
    ];
    for (const [query, name] of bad) {
      const doc = problem(await shlinkCall(server.url, keys.lister, "GET", `/short-urls?${query}`), 400, "invalid-data");
      expect(doc.invalidElements).toEqual([name]);
    }
    problem(await shlinkCall(server.url, "wrong", "GET", "/short-urls"), 401, "invalid-api-key");
    problem(await shlinkCall(server.url, null, "GET", "/short-urls"), 401, "missing-authentication");
  }, T);
});
