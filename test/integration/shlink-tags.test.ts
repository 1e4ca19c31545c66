// Shlink's tag routes (docs/shlink-api.md: Tags) on a real server: GET /tags, GET /tags/stats,
// PUT /tags (rename) and DELETE /tags, with an admin key, a create key (its own links' tags; no
// rename or delete: Shlink's forbidden-tag-operation), a wrong key and bad input. The shapes are
// Shlink 5.1's: docs/swagger/paths/v1_tags.json, v2_tags_stats.json, definitions/TagInfo.json and
// Pagination.json in shlinkio/shlink; the errors its module/Core/src/Exception/Tag*Exception.php.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { UA, visit, waitForClicks } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let admin: string;
let alice: string;
let bob: string;
let receiver: Receiver;

/** A call of Shlink's API as its SDK makes it (shlink-js-sdk src/api/ShlinkApiClient.ts: X-Api-Key, JSON bodies). */
async function shlink(key: string | null, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = key === null ? {} : { "X-Api-Key": key };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${server.url}/rest/v3${path}`, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, type: res.headers.get("content-type"), body: text === "" ? null : JSON.parse(text) };
}

/** A link's tags, read through our own API. */
const tagsOf = async (id: string): Promise<string[]> => (await api(server.url, admin, "GET", `/api/links/${id}`)).body.data.tags;

/** Shlink's problem document: the four fields the web client needs (shlink-web-component src/api-contract/utils.ts isProblemDetails). */
function expectProblem(r: { status: number; type: string | null; body: any }, status: number, type: string): void {
  expect({ status: r.status, type: r.body?.type, contentType: r.type }).toEqual({ status, type: `https://shlink.io/api/error/${type}`, contentType: "application/problem+json" });
  expect(typeof r.body.title).toBe("string");
  expect(typeof r.body.detail).toBe("string");
  expect(r.body.status).toBe(status);
}

beforeAll(async () => {
  server = await startServer({ args: ["--webhook-allow-private"] });
  admin = makeKey(server.dbPath, "admin");
  alice = makeKey(server.dbPath, "alice", "create");
  bob = makeKey(server.dbPath, "bob", "create");
  await madeLink(server.url, admin, "adm-one", { tags: ["red", "blue"] });
  await madeLink(server.url, admin, "adm-two", { tags: ["red"] });
  await madeLink(server.url, alice, "alice-one", { tags: ["red", "green"] });
  await madeLink(server.url, bob, "bob-one", { tags: ["blue"] });
  await visit(server.url, "adm-one", [{ ua: UA.firefoxLinux }, { ua: UA.chromeWindows }, { ua: UA.googlebot }]);
  await visit(server.url, "alice-one", [{ ua: UA.safariIphone }]);
  await waitForClicks(server.url, "adm-one", 3);
  await waitForClicks(server.url, "alice-one", 1);
  receiver = startReceiver();
  const hook = await api(server.url, admin, "POST", "/api/webhooks", { url: receiver.url, events: ["link.updated"] });
  if (hook.status !== 201) throw new Error(`webhook: ${JSON.stringify(hook.body)}`);
  receiver.setSecret(hook.body.data.secret);
}, 120_000);

afterAll(async () => {
  receiver?.stop();
  await server?.dispose();
});

test("GET /tags/stats with an admin key: every tag, its links and their visits (TagInfo.json: tag, shortUrlsCount, visitsSummary)", async () => {
  const r = await shlink(admin, "GET", "/tags/stats");
  expect(r.status).toBe(200);
  expect(r.body.tags.data).toEqual([
    { tag: "blue", shortUrlsCount: 2, visitsSummary: { total: 3, nonBots: 2, bots: 1 } },
    { tag: "green", shortUrlsCount: 1, visitsSummary: { total: 1, nonBots: 1, bots: 0 } },
    { tag: "red", shortUrlsCount: 3, visitsSummary: { total: 4, nonBots: 3, bots: 1 } },
  ]);
  // No itemsPerPage: every tag, one page (Pagination.json's five fields).
  expect(r.body.tags.pagination).toEqual({ currentPage: 1, pagesCount: 1, itemsPerPage: 3, itemsInCurrentPage: 3, totalItems: 3 });
});

test("GET /tags/stats with a create key: the tags of its own links, counted over them alone", async () => {
  const r = await shlink(alice, "GET", "/tags/stats");
  expect(r.status).toBe(200);
  expect(r.body.tags.data).toEqual([
    { tag: "green", shortUrlsCount: 1, visitsSummary: { total: 1, nonBots: 1, bots: 0 } },
    { tag: "red", shortUrlsCount: 1, visitsSummary: { total: 1, nonBots: 1, bots: 0 } },
  ]);
  // A key with no links has no tags: one empty page (Pagerfanta counts at least one).
  const none = (await shlink(makeKey(server.dbPath, "carol", "create"), "GET", "/tags/stats")).body.tags;
  expect([none.data, none.pagination.currentPage, none.pagination.pagesCount, none.pagination.totalItems]).toEqual([[], 1, 1, 0]);
});

test("GET /tags/stats orders by shortUrlsCount, visits and nonBotVisits (ties by name), and pages", async () => {
  const order = async (q: string) => (await shlink(admin, "GET", `/tags/stats?${q}`)).body.tags.data.map((t: { tag: string }) => t.tag);
  expect(await order("orderBy=shortUrlsCount-DESC")).toEqual(["red", "blue", "green"]);
  expect(await order("orderBy=visits-ASC")).toEqual(["green", "blue", "red"]);
  expect(await order("orderBy=nonBotVisits-DESC")).toEqual(["red", "blue", "green"]);
  expect(await order("orderBy=tag-DESC")).toEqual(["red", "green", "blue"]);
  const page = await shlink(admin, "GET", "/tags/stats?orderBy=shortUrlsCount-DESC&page=2&itemsPerPage=2");
  expect(page.body.tags).toEqual({
    data: [{ tag: "green", shortUrlsCount: 1, visitsSummary: { total: 1, nonBots: 1, bots: 0 } }],
    pagination: { currentPage: 2, pagesCount: 2, itemsPerPage: 2, itemsInCurrentPage: 1, totalItems: 3 },
  });
});

test("GET /tags: the names (v1_tags.json: data is a list of strings), searchTerm, orderBy and pages", async () => {
  expect((await shlink(admin, "GET", "/tags")).body.tags).toEqual({ data: ["blue", "green", "red"], pagination: { currentPage: 1, pagesCount: 1, itemsPerPage: 3, itemsInCurrentPage: 3, totalItems: 3 } });
  expect((await shlink(bob, "GET", "/tags")).body.tags.data).toEqual(["blue"]);
  expect((await shlink(admin, "GET", "/tags?searchTerm=RE")).body.tags.data).toEqual(["green", "red"]);
  expect((await shlink(admin, "GET", "/tags?orderBy=tag-DESC&itemsPerPage=1&page=2")).body.tags).toEqual({ data: ["green"], pagination: { currentPage: 2, pagesCount: 3, itemsPerPage: 1, itemsInCurrentPage: 1, totalItems: 3 } });
  // Shlink's TagsParams: a page below 1 is the first; OrderableField::toValidField: an unknown field orders by name.
  expect((await shlink(admin, "GET", "/tags?page=0&itemsPerPage=1")).body.tags.data).toEqual(["blue"]);
  expect((await shlink(admin, "GET", "/tags?orderBy=bogus-DESC")).body.tags.data).toEqual(["red", "green", "blue"]);
});

test("a wrong key is invalid-api-key on every tag route, a missing one missing-authentication", async () => {
  for (const [method, path] of [["GET", "/tags"], ["GET", "/tags/stats"], ["PUT", "/tags"], ["DELETE", "/tags?tags[]=red"]] as const) {
    expectProblem(await shlink("not-a-key", method, path, method === "PUT" ? { oldName: "red", newName: "x" } : undefined), 401, "invalid-api-key");
    expectProblem(await shlink(null, method, path), 401, "missing-authentication");
  }
  expect(await tagsOf("adm-one")).toEqual(["blue", "red"]);
});

test("bad input is invalid-data naming Shlink's field, never a 5xx", async () => {
  const perPage = await shlink(admin, "GET", "/tags/stats?itemsPerPage=many");
  expectProblem(perPage, 400, "invalid-data");
  expect(perPage.body.invalidElements).toEqual(["itemsPerPage"]);
  expect((await shlink(admin, "GET", "/tags?page=x")).body.invalidElements).toEqual(["page"]);
  expect((await shlink(admin, "GET", "/tags?itemsPerPage=0")).body.invalidElements).toEqual(["itemsPerPage"]);
  // v1_tags.json (PUT, 400): both names are named when one is missing.
  const missing = await shlink(admin, "PUT", "/tags", { oldName: "red" });
  expectProblem(missing, 400, "invalid-data");
  expect(missing.body.invalidElements).toEqual(["oldName", "newName"]);
  const badName = await shlink(admin, "PUT", "/tags", { oldName: "red", newName: "two words" });
  expectProblem(badName, 400, "invalid-data");
  expect(badName.body.invalidElements).toEqual(["newName"]);
  expectProblem(await shlink(admin, "PUT", "/tags", "{not json"), 400, "invalid-data");
  expect(await tagsOf("adm-one")).toEqual(["blue", "red"]);
});

test("a create key may neither rename nor delete tags: 403 forbidden-tag-operation, and nothing changes", async () => {
  const rename = await shlink(alice, "PUT", "/tags", { oldName: "red", newName: "crimson" });
  expectProblem(rename, 403, "forbidden-tag-operation");
  expect(rename.body.detail).toBe("You are not allowed to rename tags");
  const remove = await shlink(alice, "DELETE", "/tags?tags[]=red");
  expectProblem(remove, 403, "forbidden-tag-operation");
  expect(remove.body.detail).toBe("You are not allowed to delete tags");
  expect([await tagsOf("adm-one"), await tagsOf("alice-one")]).toEqual([["blue", "red"], ["green", "red"]]);
  expect(server.output()).toContain('management key=alice action=tag-rename id="red -> crimson" result=admin_only');
  expect(server.output()).toContain("management key=alice action=tag-delete id=red result=admin_only");
});

test("PUT /tags: an unknown tag is tag-not-found, a name links carry already tag-conflict (409)", async () => {
  const unknown = await shlink(admin, "PUT", "/tags", { oldName: "purple", newName: "violet" });
  expectProblem(unknown, 404, "tag-not-found");
  expect(unknown.body.tag).toBe("purple");
  const conflict = await shlink(admin, "PUT", "/tags", { oldName: "red", newName: "blue" });
  expectProblem(conflict, 409, "tag-conflict");
  expect([conflict.body.oldName, conflict.body.newName]).toEqual(["red", "blue"]);
  expect([await tagsOf("adm-one"), await tagsOf("bob-one")]).toEqual([["blue", "red"], ["blue"]]);
});

test("PUT /tags renames the tag on every link, whoever owns it: 204, and one link.updated event a link", async () => {
  const r = await shlink(admin, "PUT", "/tags", { oldName: "red", newName: "crimson" });
  expect([r.status, r.body]).toEqual([204, null]);
  expect([await tagsOf("adm-one"), await tagsOf("adm-two"), await tagsOf("alice-one"), await tagsOf("bob-one")]).toEqual([["blue", "crimson"], ["crimson"], ["crimson", "green"], ["blue"]]);
  expect((await shlink(alice, "GET", "/tags")).body.tags.data).toEqual(["crimson", "green"]);
  const events = await eventually(async () => receiver.unique(), (got) => got.length >= 3);
  const told = events.map((e) => [e.body.data.link.id, e.body.data.link.tags, e.body.data.changed]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  expect(told).toEqual([["adm-one", ["blue", "crimson"], ["tags"]], ["adm-two", ["crimson"], ["tags"]], ["alice-one", ["crimson", "green"], ["tags"]]]);
  expect(server.output()).toContain('management key=admin action=tag-rename id="red -> crimson" result="ok 3"');
});

test("DELETE /tags takes the tags off every link; an unknown name is no error (204)", async () => {
  const before = receiver.unique().length;
  const r = await shlink(admin, "DELETE", "/tags?tags[]=crimson&tags[]=nowhere");
  expect([r.status, r.body]).toEqual([204, null]);
  expect([await tagsOf("adm-one"), await tagsOf("adm-two"), await tagsOf("alice-one"), await tagsOf("bob-one")]).toEqual([["blue"], [], ["green"], ["blue"]]);
  expect((await shlink(admin, "GET", "/tags")).body.tags.data).toEqual(["blue", "green"]);
  const events = await eventually(async () => receiver.unique().slice(before), (got) => got.length >= 3);
  expect(events.map((e) => e.body.data.link.id).sort()).toEqual(["adm-one", "adm-two", "alice-one"]);
  expect(server.output()).toContain('management key=admin action=tag-delete id=crimson,nowhere result="ok 3"');
  expect((await shlink(admin, "DELETE", "/tags")).status).toBe(204);
  // Indexed, as PHP clients encode a list (Shlink's module/Rest/test-api/Action/DeleteTagsTest.php goes through Guzzle).
  expect((await shlink(admin, "DELETE", "/tags?tags%5B0%5D=green")).status).toBe(204);
  expect(await tagsOf("alice-one")).toEqual([]);
});
