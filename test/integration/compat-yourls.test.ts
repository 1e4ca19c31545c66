// /yourls-api.php (docs/yourls-api.md) on a real server, both engines: every action in every
// format with a create key and an admin key, a wrong key, another key's link, and bad input, each
// answered in YOURLS's own shape and never with a 5xx. The shapes are YOURLS's own:
// github.com/YOURLS/YOURLS, yourls-api.php and includes/functions-api.php (the actions and
// yourls_api_output), includes/functions-shorturls.php (yourls_add_new_link, yourls_get_keyword_stats),
// includes/functions.php (yourls_get_stats, yourls_get_db_stats), includes/auth.php (the 403).

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let alice: string;
let bob: string;
let admin: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-access", "key", "--stats-access", "key"] });
  alice = makeKey(server.dbPath, "alice", "create");
  bob = makeKey(server.dbPath, "bob", "create");
  admin = makeKey(server.dbPath, "root", "admin");
}, 60_000);
afterAll(() => server.dispose());

type Answer = { status: number; type: string; text: string; json: any };

/** One call, GET with the parameters in the query (or POST them urlencoded); never a 5xx. */
async function yourls(params: Record<string, string>, method: "GET" | "POST" = "GET"): Promise<Answer> {
  const body = new URLSearchParams(params);
  const res = method === "GET" ? await fetch(`${server.url}/yourls-api.php?${body}`) : await fetch(`${server.url}/yourls-api.php`, { method, body });
  const text = await res.text();
  expect(res.status).toBeLessThan(500);
  const type = res.headers.get("content-type") ?? "";
  return { status: res.status, type, text, json: type.startsWith("application/json") ? JSON.parse(text) : null };
}

describe("every action in every format", () => {
  test("shorturl: json, xml, jsonp and simple, with a create key and an admin key", async () => {
    const json = await yourls({ action: "shorturl", url: "https://example.com/a", keyword: "fmt-json", signature: alice, format: "json" });
    expect(json.status).toBe(200);
    expect(json.json).toMatchObject({ status: "success", code: "", errorCode: "", statusCode: "200", shorturl: `${server.url}/fmt-json`, url: { keyword: "fmt-json", url: "https://example.com/a" } });
    expect(json.json.message).toBe("https://example.com/a added to database");
    expect(json.json.url.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const xml = await yourls({ action: "shorturl", url: "https://example.com/b", keyword: "fmt-xml", signature: admin });
    expect(xml.type).toStartWith("application/xml");
    expect(xml.text).toStartWith('<?xml version="1.0" encoding="UTF-8"?><root><status>success</status>');
    expect(xml.text).toContain(`<shorturl>${server.url}/fmt-xml</shorturl>`);
    expect(xml.text).toContain("<keyword>fmt-xml</keyword>");

    const jsonp = await yourls({ action: "shorturl", url: "https://example.com/c", keyword: "fmt-jsonp", signature: alice, format: "jsonp", callback: "cb.done_1" });
    expect(jsonp.type).toStartWith("application/javascript");
    const called = /^cb\.done_1\((.*)\)$/.exec(jsonp.text);
    expect(JSON.parse(called![1]!)).toMatchObject({ shorturl: `${server.url}/fmt-jsonp`, callback: "cb.done_1" });

    const simple = await yourls({ action: "shorturl", url: "https://example.com/d", keyword: "fmt-simple", signature: alice, format: "simple" });
    expect([simple.status, simple.type.split(";")[0], simple.text]).toEqual([200, "text/plain", `${server.url}/fmt-simple`]);
  });

  test("expand and url-stats: the link's URL and counts, in each format", async () => {
    await yourls({ action: "shorturl", url: "https://example.com/expand-me", keyword: "exp-1", signature: alice });
    const json = await yourls({ action: "expand", shorturl: "exp-1", signature: alice, format: "json" });
    expect(json.json).toEqual({ keyword: "exp-1", shorturl: `${server.url}/exp-1`, longurl: "https://example.com/expand-me", title: "https://example.com/expand-me", message: "success", statusCode: "200" });
    const byUrl = await yourls({ action: "expand", shorturl: `${server.url}/exp-1`, signature: alice, format: "simple" });
    expect(byUrl.text).toBe("https://example.com/expand-me");
    const xml = await yourls({ action: "url-stats", shorturl: "exp-1", signature: admin });
    expect(xml.text).toContain(`<link><shorturl>${server.url}/exp-1</shorturl><url>https://example.com/expand-me</url>`);
    expect(xml.text).toContain("<clicks>0</clicks>");
    const simple = await yourls({ action: "url-stats", shorturl: "exp-1", signature: alice, format: "simple" });
    expect(simple.text).toBe("Need either XML or JSON format for stats");
  });

  test("stats (top, bottom, last, rand; limit; start) and db-stats count the key's own links only", async () => {
    for (const [i, clicks] of [3, 1, 2].entries()) {
      await yourls({ action: "shorturl", url: `https://example.com/bob/${i}`, keyword: `bob-${i}`, signature: bob });
      for (let c = 0; c < clicks; c++) await fetch(`${server.url}/bob-${i}`, { redirect: "manual" });
    }
    const counted = async (filter: string, extra: Record<string, string> = {}) => {
      for (let round = 0; round < 100; round++) {
        const { json } = await yourls({ action: "stats", filter, limit: "10", signature: bob, format: "json", ...extra });
        if (json.stats.total_clicks === 6) return json;
        await Bun.sleep(100);
      }
      throw new Error("the clicks were not counted");
    };
    const top = await counted("top");
    expect(top.stats).toEqual({ total_links: 3, total_clicks: 6 });
    expect(Object.keys(top.links)).toEqual(["link_1", "link_2", "link_3"]);
    expect(Object.values(top.links).map((l: any) => [l.shorturl, l.clicks])).toEqual([[`${server.url}/bob-0`, "3"], [`${server.url}/bob-2`, "2"], [`${server.url}/bob-1`, "1"]]);
    expect(Object.values((await counted("bottom")).links).map((l: any) => l.clicks)).toEqual(["1", "2", "3"]);
    expect(Object.values((await counted("last", { start: "1" })).links).map((l: any) => l.url)).toEqual(["https://example.com/bob/1", "https://example.com/bob/0"]);
    expect(Object.keys((await counted("rand", { limit: "2" })).links)).toHaveLength(2);
    // As YOURLS: no limit, no links; the totals still.
    const none = await yourls({ action: "stats", signature: bob, format: "json" });
    expect(none.json.links).toBeUndefined();
    expect(none.json).toMatchObject({ statusCode: "200", message: "success" });
    const db = await yourls({ action: "db-stats", signature: bob });
    expect(db.text).toContain("<db-stats><total_links>3</total_links><total_clicks>6</total_clicks></db-stats>");
    const all = await yourls({ action: "db-stats", signature: admin, format: "json" });
    expect(all.json["db-stats"].total_links).toBeGreaterThan(3);
  });

  test("version: in each format; db=1 adds the database version", async () => {
    expect((await yourls({ action: "version", signature: alice, format: "simple" })).text).toMatch(/^\d+\.\d+\.\d+$/);
    expect((await yourls({ action: "version", signature: alice, format: "json", db: "1" })).json).toEqual({ version: expect.stringMatching(/^\d+\.\d+/), db_version: expect.any(String) });
  });
});

describe("titles", () => {
  test("a title is kept, tidied to one line and cut to 500 characters as YOURLS cuts rather than refuses; none shows the URL", async () => {
    const long = await yourls({ action: "shorturl", url: "https://example.com/titled", keyword: "titled", title: `Line one\n  line two ${"é".repeat(600)}`, signature: alice, format: "json" });
    expect(long.json.status).toBe("success");
    expect([...long.json.title]).toHaveLength(500);
    expect(long.json.title).toStartWith("Line one line two é");
    const stats = await yourls({ action: "url-stats", shorturl: "titled", signature: alice });
    expect(stats.text).toContain(`<title>${long.json.title}</title>`);
    const untitled = await yourls({ action: "shorturl", url: "https://example.com/untitled", signature: alice, format: "json" });
    expect(untitled.json.title).toBe("https://example.com/untitled");
  });
});

describe("who asks", () => {
  test("no credentials where this service needs a key: 403 Please log in, in the format asked", async () => {
    for (const action of ["shorturl", "expand", "url-stats", "stats", "db-stats", "version"]) {
      const res = await yourls({ action, url: "https://example.com/", shorturl: "exp-1", format: "json" });
      expect([res.status, res.json]).toEqual([403, { message: "Please log in", errorCode: "403" }]);
    }
    const xml = await yourls({ action: "version" });
    expect(xml.text).toBe('<?xml version="1.0" encoding="UTF-8"?><root><message>Please log in</message><errorCode>403</errorCode></root>');
  });

  test("another key's link is not found; an admin's key finds it", async () => {
    await yourls({ action: "shorturl", url: "https://example.com/alices", keyword: "alices", signature: alice });
    const expand = await yourls({ action: "expand", shorturl: "alices", signature: bob, format: "json" });
    expect([expand.status, expand.json]).toEqual([404, { keyword: "alices", message: "Error: short URL not found", errorCode: "404" }]);
    expect((await yourls({ action: "url-stats", shorturl: "alices", signature: bob, format: "json" })).json).toEqual({ statusCode: "404", message: "Error: short URL not found" });
    expect((await yourls({ action: "expand", shorturl: "alices", signature: admin, format: "simple" })).text).toBe("https://example.com/alices");
  });

  test("a time-limited signature is refused with what to send instead", async () => {
    const res = await yourls({ action: "version", timestamp: String(Math.floor(Date.now() / 1000)), signature: "0123456789abcdef", hash: "sha256", format: "json" });
    expect(res.status).toBe(403);
    expect(res.json.errorCode).toBe("403");
    expect(res.json.message).toContain("signature=<your API key> without timestamp");
  });
});

describe("a URL shortened twice", () => {
  test("without a keyword, the key's own link again: YOURLS's error:url with its short URL (HTTP 200)", async () => {
    const first = await yourls({ action: "shorturl", url: "https://example.com/twice", signature: alice, format: "json" });
    const again = await yourls({ action: "shorturl", url: "https://example.com/twice", signature: alice, format: "json" });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ status: "fail", code: "error:url", statusCode: "200", shorturl: first.json.shorturl });
    expect((await yourls({ action: "shorturl", url: "https://example.com/twice", signature: alice, format: "simple" })).text).toBe(first.json.shorturl);
    // Another key's link is never given: bob gets a link of his own.
    const bobs = await yourls({ action: "shorturl", url: "https://example.com/twice", signature: bob, format: "json" });
    expect(bobs.json.status).toBe("success");
    expect(bobs.json.shorturl).not.toBe(first.json.shorturl);
    // Found among links whose URLs hold it (the list's search is a substring search).
    for (let i = 0; i < 3; i++) await yourls({ action: "shorturl", url: `https://example.com/prefix/${i}`, signature: alice });
    const prefix = await yourls({ action: "shorturl", url: "https://example.com/prefix", signature: alice, format: "json" });
    expect(prefix.json.status).toBe("success");
    expect((await yourls({ action: "shorturl", url: "https://example.com/prefix", signature: alice, format: "json" })).json).toMatchObject({ code: "error:url", shorturl: prefix.json.shorturl });
    // With a keyword: a new link.
    expect((await yourls({ action: "shorturl", url: "https://example.com/twice", keyword: "twice-2", signature: alice, format: "json" })).json.status).toBe("success");
  });
});

describe("bad input: YOURLS's errors, never a 5xx", () => {
  const shorten = (params: Record<string, string>) => yourls({ action: "shorturl", signature: alice, format: "json", ...params });

  test("a missing or malformed URL: error:nourl", async () => {
    expect((await shorten({})).json).toMatchObject({ status: "fail", code: "error:nourl", message: "Missing or malformed URL", errorCode: "400", statusCode: "400" });
    const bad = await shorten({ url: "javascript:alert(1)" });
    expect([bad.status, bad.json.code]).toEqual([400, "error:nourl"]);
    expect(bad.json.message).toContain("http:// or https://");
  });

  test("a URL of this service itself: error:noloop", async () => {
    expect((await shorten({ url: `${server.url}/fmt-json` })).json.code).toBe("error:noloop");
  });

  test("a keyword taken, or one our rules refuse: error:keyword naming why", async () => {
    const taken = await shorten({ url: "https://example.com/x", keyword: "fmt-json" });
    expect([taken.status, taken.json.code]).toEqual([400, "error:keyword"]);
    expect(taken.json.message).toContain("Short URL fmt-json already exists in database or is reserved");
    const invalid = await shorten({ url: "https://example.com/x", keyword: "no spaces" });
    expect([invalid.status, invalid.json.code]).toEqual([400, "error:keyword"]);
    expect(invalid.json.message).toContain("keyword");
    expect(invalid.json.message).not.toContain("custom_url");
  });

  test("an unknown or missing action: 400", async () => {
    for (const action of [undefined, "delete"]) {
      const res = await yourls({ signature: alice, format: "json", ...(action ? { action } : {}) });
      expect([res.status, res.json]).toEqual([400, { errorCode: "400", message: 'Unknown or missing "action" parameter' }]);
    }
  });

  test("an unknown format is simple, as YOURLS writes it", async () => {
    const res = await yourls({ action: "version", signature: alice, format: "yaml" });
    expect(res.type).toStartWith("text/plain");
    expect(res.text).toMatch(/^\d+\.\d+/);
  });

  test("jsonp without a callback, or with one that is not a plain name: 400", async () => {
    for (const callback of [undefined, "alert(1)", "x\\u2028", "a b"]) {
      const res = await yourls({ action: "version", signature: alice, format: "jsonp", ...(callback === undefined ? {} : { callback }) });
      expect([res.status, res.text]).toEqual([400, '{"errorCode":"400","error":"Invalid callback parameter"}']);
    }
  });

  test("a body too large or unreadable: YOURLS's shape, in the format the query asks for", async () => {
    const big = await fetch(`${server.url}/yourls-api.php?format=json`, { method: "POST", body: new URLSearchParams({ action: "shorturl", url: `https://example.com/${"a".repeat(20_000)}`, signature: alice }) });
    expect([big.status, (await big.json()).errorCode]).toEqual([413, "413"]);
    const form = new FormData();
    form.append("action", "shorturl");
    form.append("url", new Blob(["https://example.com/"]), "url.txt");
    const file = await fetch(`${server.url}/yourls-api.php?format=json`, { method: "POST", body: form });
    expect(file.status).toBe(400);
    expect((await file.json()).message).toContain("not a file");
  });

  test("bytes that are not UTF-8 in the query are refused, as in a body, never stored as U+FFFD", async () => {
    const res = await fetch(`${server.url}/yourls-api.php?action=shorturl&format=json&signature=${alice}&url=https://example.com/%ED%A0%80`);
    expect([res.status, await res.json()]).toEqual([400, { message: "url is not valid UTF-8", errorCode: "400" }]);
  });

  test("POST: the body's parameters over the query's", async () => {
    const res = await fetch(`${server.url}/yourls-api.php?action=expand&format=xml`, { method: "POST", body: new URLSearchParams({ action: "version", format: "simple", signature: alice }) });
    expect(await res.text()).toMatch(/^\d+\.\d+/);
  });
});
