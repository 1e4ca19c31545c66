// Our Shlink API read through Shlink's own SDK (@shlinkio/shlink-js-sdk 3.2.1: ShlinkApiClient over
// its FetchHttpClient, as the web client uses it), every answer checked against the shape of the
// SDK's type for it (shlink-sdk-shapes.ts: the typecheck proves each shape equal to the SDK's
// api-contract type, optional fields included). A call the SDK makes and we do not answer, or an
// answer missing a field the SDK declares, fails here by the SDK method's name.
// Runs on both engines (SHORTENER_TEST_ENGINE=postgres).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ShlinkApiClient } from "@shlinkio/shlink-js-sdk";
import type { ShlinkApiClient as ShlinkClient } from "@shlinkio/shlink-js-sdk/api-contract";
import { FetchHttpClient } from "@shlinkio/shlink-js-sdk/fetch";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { drained, UA, visit } from "../support/clicks.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { mismatches, type Shape } from "../support/shlink-shapes.ts";
import * as SHAPE from "./shlink-sdk-shapes.ts";

let server: RunningServer;
/** Typed by the SDK's contract: the class's own declarations import it by a path TypeScript cannot resolve (dist/api-contract.js), which would leave every answer `any`. */
let sdk: ShlinkClient;
let sdkKey: string;

beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  const key = makeKey(server.dbPath, "sdk");
  sdkKey = key;
  sdk = new ShlinkApiClient(new FetchHttpClient(), { baseUrl: server.url, apiKey: key });
  await madeLink(server.url, key, "known", { title: "Known", tags: ["docs"] });
  await madeLink(server.url, sdkKey, "retag", { tags: ["old-name"] });
  await madeLink(server.url, key, "split", { variants: [{ url: "https://a.example/", weight: 1 }, { url: "https://b.example/", weight: 1 }] });
  await visit(server.url, "known", [{ ua: UA.chromeWindows, referrer: "https://news.example/" }, { ua: UA.firefoxLinux }]);
}, 60_000);

afterAll(async () => {
  await server?.dispose();
});

/** The SDK's answer, or what it threw (the problem document FetchHttpClient throws on a non-2xx), so a failure says what came back. */
async function answer<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (thrown) {
    throw new Error(`the SDK call failed: ${thrown instanceof Error ? thrown.message : JSON.stringify(thrown)}`);
  }
}

function conforms(value: unknown, shape: Shape): void {
  expect(mismatches(value, shape)).toEqual([]);
}

const known = { shortCode: "known", domain: null };

describe("our answers have the shapes of Shlink's SDK types", () => {
  test("health (SDK health; SRV docs/swagger/paths/health.json)", async () => {
    const health = await answer(sdk.health());
    conforms(health, SHAPE.HEALTH);
    expect(health).toMatchObject({ status: "pass", version: "5.1.0" });
  });

  test("short URLs: list, get, create, update, bad input (SDK listShortUrls, getShortUrl, createShortUrl, updateShortUrl)", async () => {
    const list = await answer(sdk.listShortUrls({ orderBy: { field: "dateCreated", dir: "DESC" } }));
    conforms(list, SHAPE.SHORT_URLS_LIST);
    expect(list.data.map((s) => s.shortCode)).toEqual(expect.arrayContaining(["known", "split"]));
    const one = await answer(sdk.getShortUrl(known));
    conforms(one, SHAPE.SHORT_URL);
    expect(one).toMatchObject({ shortCode: "known", domain: null, shortUrl: `${server.url}/known`, title: "Known", tags: ["docs"] });
    expect(one.visitsSummary).toEqual({ total: 2, nonBots: 2, bots: 0 });
    const made = await answer(sdk.createShortUrl({ longUrl: "https://example.com/sdk", customSlug: "by-sdk", tags: ["sdk"], forwardQuery: true }));
    conforms(made, SHAPE.SHORT_URL);
    const edited = await answer(sdk.updateShortUrl({ shortCode: "by-sdk" }, { title: "Edited", validUntil: "2099-01-01T00:00:00+00:00" }));
    conforms(edited, SHAPE.SHORT_URL);
    expect(edited.meta.validUntil).toBe("2099-01-01T00:00:00+00:00");
    const bad = await sdk.createShortUrl({ longUrl: "not a url" }).then(() => null, (problem: unknown) => problem);
    conforms(bad, SHAPE.PROBLEM);
    expect(bad).toMatchObject({ type: "https://shlink.io/api/error/invalid-data", status: 400, invalidElements: ["longUrl"] });
  });

  test("visits: a link's, a tag's, a domain's, the overview, orphans (SDK getShortUrlVisits, getTagVisits, getDomainVisits, getVisitsOverview, getOrphanVisits, getNonOrphanVisits)", async () => {
    const visits = await answer(sdk.getShortUrlVisits(known, { page: 1, itemsPerPage: 5000 }));
    conforms(visits, SHAPE.VISITS_LIST);
    expect(visits.data).toHaveLength(2);
    conforms(await answer(sdk.getTagVisits("docs")), SHAPE.VISITS_LIST);
    conforms(await answer(sdk.getDomainVisits("DEFAULT")), SHAPE.VISITS_LIST);
    conforms(await answer(sdk.getNonOrphanVisits()), SHAPE.VISITS_LIST);
    // A visit to no link first, so that the orphan list has a row to check (docs/statistics.md: Visits to no link).
    await (await fetch(`${server.url}/no-such-sdk-link`)).arrayBuffer();
    await drained(server.url);
    const orphans = await answer(sdk.getOrphanVisits({ type: "invalid_short_url" }));
    conforms(orphans, { data: [SHAPE.ORPHAN_VISIT], pagination: SHAPE.VISITS_LIST.pagination });
    expect(orphans.data.map((v) => ["type" in v ? v.type : null, v.visitedUrl])).toEqual([["invalid_short_url", `${server.url}/no-such-sdk-link`]]);
    const overview = await answer(sdk.getVisitsOverview());
    conforms(overview, SHAPE.VISITS_OVERVIEW);
    expect(overview.nonOrphanVisits.total).toBeGreaterThanOrEqual(2);
    expect(overview.orphanVisits.total).toBeGreaterThanOrEqual(1);
  });

  test("tags: list, stats, rename, delete (SDK listTags, tagsStats, editTag, deleteTags)", async () => {
    const tags = await answer(sdk.listTags());
    conforms(tags, SHAPE.TAGS_LIST);
    expect(tags.data).toContain("docs");
    const stats = await answer(sdk.tagsStats());
    conforms(stats, SHAPE.TAGS_STATS);
    expect(stats.data.find((t) => t.tag === "docs")).toMatchObject({ shortUrlsCount: 1, visitsSummary: { total: 2 } });
    // Both answer 204 with no body; the SDK hands back what it sent (SDK src/api/ShlinkApiClient.ts).
    await answer(sdk.editTag({ oldName: "old-name", newName: "new-name" }));
    await answer(sdk.deleteTags(["new-name"]));
    expect((await answer(sdk.listTags())).data).not.toContain("new-name");
  });

  test("domains: list and redirects (SDK listDomains, editDomainRedirects)", async () => {
    const domains = await answer(sdk.listDomains());
    conforms(domains, SHAPE.DOMAINS_LIST);
    expect(domains.data.filter((d) => d.isDefault)).toHaveLength(1);
    // Without --base-url the default has no name: GET /domains lists it under the request's host
    // (127.0.0.1:PORT), which PATCH refuses as a problem the UI shows, saying what to do instead.
    const host = domains.data.find((d) => d.isDefault)!.domain;
    const unnamed = await sdk.editDomainRedirects({ domain: host, baseUrlRedirect: "https://example.com/home" }).then(() => null, (problem: unknown) => problem);
    conforms(unnamed, SHAPE.PROBLEM);
    expect(unnamed).toMatchObject({ type: "https://shlink.io/api/error/invalid-data", status: 400, invalidElements: ["domain"] });
    expect((unnamed as { detail: string }).detail).toContain("--base-url");
    // A named domain's redirects are set under the name GET /domains gives it.
    expect((await api(server.url, sdkKey, "POST", "/api/domains", { name: "go.example.net" })).status).toBe(201);
    const named = (await answer(sdk.listDomains())).data.find((d) => d.domain === "go.example.net")!.domain;
    const redirects = await answer(sdk.editDomainRedirects({ domain: named, baseUrlRedirect: "https://example.com/home" }));
    conforms(redirects, SHAPE.DOMAIN_REDIRECTS);
    expect(redirects.baseUrlRedirect).toBe("https://example.com/home");
  });

  test("redirect rules: get and set (SDK getShortUrlRedirectRules, setShortUrlRedirectRules)", async () => {
    conforms(await answer(sdk.getShortUrlRedirectRules(known)), SHAPE.REDIRECT_RULES);
    const rule = { longUrl: "https://play.example/", conditions: [{ type: "device" as const, matchKey: null, matchValue: "android" }] };
    const set = await answer(sdk.setShortUrlRedirectRules(known, { redirectRules: [rule] }));
    conforms(set, SHAPE.REDIRECT_RULES);
    expect(set.redirectRules).toEqual([{ ...rule, priority: 1 }]);
    conforms(await answer(sdk.getShortUrlRedirectRules({ shortCode: "split" })), SHAPE.REDIRECT_RULES);
  });

  test("deletions: a link's visits, orphan visits, a link (SDK deleteShortUrlVisits, deleteOrphanVisits, deleteShortUrl)", async () => {
    await madeLink(server.url, sdkKey, "doomed");
    conforms(await answer(sdk.deleteOrphanVisits()), SHAPE.DELETED_VISITS);
    // A link's visits are kept for its life (docs/shlink-api.md: Visits): refused as a problem the UI shows.
    const kept = await sdk.deleteShortUrlVisits({ shortCode: "doomed" }).then(() => null, (problem: unknown) => problem);
    conforms(kept, SHAPE.PROBLEM);
    expect(kept).toMatchObject({ type: "urn:shortener:error:visits_kept", status: 409 });
    await answer(sdk.deleteShortUrl({ shortCode: "doomed" }));
    const gone = await sdk.getShortUrl({ shortCode: "doomed" }).then(() => null, (problem: unknown) => problem);
    conforms(gone, SHAPE.PROBLEM);
    expect(gone).toMatchObject({ type: "https://shlink.io/api/error/short-url-not-found", status: 404 });
  });

  test("refusals are problem documents the SDK throws whole: mercure, a wrong key (SDK mercureInfo; WC src/api-contract/utils.ts isProblemDetails)", async () => {
    const mercure = await sdk.mercureInfo().then(() => null, (problem: unknown) => problem);
    conforms(mercure, SHAPE.PROBLEM);
    expect(mercure).toMatchObject({ type: "https://shlink.io/api/error/mercure-not-configured", status: 501 });
    const stranger = new ShlinkApiClient(new FetchHttpClient(), { baseUrl: server.url, apiKey: "sk_not-a-key" });
    const refused = await stranger.listDomains().then(() => null, (problem: unknown) => problem);
    conforms(refused, SHAPE.PROBLEM);
    expect(refused).toMatchObject({ type: "https://shlink.io/api/error/invalid-api-key", status: 401 });
  });
});
