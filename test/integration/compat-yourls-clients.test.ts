// The YOURLS API (docs/yourls-api.md) against the requests of the clients people bring along,
// replayed as their sources make them and read as their sources read the answers, on a real
// server (both engines: SHORTENER_TEST_ENGINE=postgres).
//
// - ShareX: github.com/ShareX/ShareX, ShareX.UploadersLib/URLShorteners/YourlsURLShortener.cs
//   (a multipart POST of signature, or username and password, then action, url, format=simple;
//   the answer's whole body taken as the short URL).
// - n8n's Yourls node: github.com/n8n-io/n8n, packages/nodes-base/nodes/Yourls/GenericFunctions.ts
//   and Yourls.node.ts (a GET whose query holds url, action and the additional fields keyword and
//   title, then signature and format=json; a non-2xx answer or `status: "fail"` is an error; the
//   stats operation keeps `link`). Its request library also sends a JSON body `{}` with the GET,
//   which fetch cannot, and which YOURLS (PHP) never reads on a GET: left out.
// - The YOURLS Firefox extension: github.com/binfalse/YOURLS-FirefoxExtension, webextension/
//   background.js and popup.js (POST application/x-www-form-urlencoded; `action=version&signature=`
//   matched by /^.*<version>(\d+\.\d+.*)<\/version>.*$/ in the default XML, then
//   `action=shorturl&format=simple&url=&signature=&keyword=` matched by /^\s*(\S+)\s*$/; only
//   status 200 or 201 is read, 403 is "not allowed").

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let creator: string;
let api: string;
beforeAll(async () => {
  server = await startServer();
  creator = makeKey(server.dbPath, "sharex", "create");
  api = `${server.url}/yourls-api.php`;
}, 60_000);
afterAll(() => server.dispose());

/** Where a short URL leads: its redirect's Location. */
async function destinationOf(shortUrl: string): Promise<string | null> {
  const res = await fetch(shortUrl, { redirect: "manual" });
  return res.headers.get("location");
}

/** ShareX's SendRequestMultiPart of its arguments, in the order it adds them; its result is the body. */
async function sharex(args: [string, string][]): Promise<{ status: number; shortened: string }> {
  const form = new FormData();
  for (const [name, value] of args) form.append(name, value);
  const res = await fetch(api, { method: "POST", body: form });
  return { status: res.status, shortened: await res.text() };
}

describe("ShareX's YOURLS shortener", () => {
  test("signature: the body is the short URL, and it leads to the URL", async () => {
    const url = "https://example.com/sharex/screenshot.png";
    const { status, shortened } = await sharex([["signature", creator], ["action", "shorturl"], ["url", url], ["format", "simple"]]);
    expect(status).toBe(200);
    expect(shortened).toMatch(new RegExp(`^${server.url}/[A-Za-z0-9]+$`));
    expect(await destinationOf(shortened)).toBe(url);
  });

  test("username and password (the API key): the same", async () => {
    const url = "https://example.com/sharex/with-password";
    const { status, shortened } = await sharex([["username", "anything"], ["password", creator], ["action", "shorturl"], ["url", url], ["format", "simple"]]);
    expect(status).toBe(200);
    expect(await destinationOf(shortened)).toBe(url);
  });

  test("a wrong password: 403, and the body is YOURLS's words, not a short URL", async () => {
    const { status, shortened } = await sharex([["username", "me"], ["password", "not-a-key"], ["action", "shorturl"], ["url", "https://example.com/"], ["format", "simple"]]);
    expect(status).toBe(403);
    expect(shortened).toBe("Invalid username or password");
  });
});

/** n8n's yourlsApiRequest: GET, the node's query, then signature and format=json; a failure as the node sees it. */
async function n8n(qs: Record<string, string>): Promise<any> {
  const query = new URLSearchParams({ ...qs, signature: creator, format: "json" });
  const res = await fetch(`${api}?${query}`);
  const response = await res.json();
  // request-promise rejects a non-2xx answer; the node then rejects `status: "fail"`.
  if (!res.ok) throw new Error(`status ${res.status}: ${response.message}`);
  if (response.status === "fail") throw new Error(`Yourls error response [400]: ${response.message}`);
  return response;
}

describe("n8n's Yourls node", () => {
  test("shorten with keyword and title, expand, stats", async () => {
    const shortened = await n8n({ url: "https://example.com/n8n/flow", action: "shorturl", keyword: "n8n-flow", title: "An n8n flow" });
    expect(shortened.status).toBe("success");
    expect(shortened.shorturl).toBe(`${server.url}/n8n-flow`);
    expect(shortened.url.keyword).toBe("n8n-flow");
    expect(shortened.title).toBe("An n8n flow");

    const expanded = await n8n({ shorturl: shortened.shorturl, action: "expand" });
    expect(expanded.longurl).toBe("https://example.com/n8n/flow");
    expect(expanded.keyword).toBe("n8n-flow");
    expect(expanded.title).toBe("An n8n flow");

    await fetch(`${server.url}/n8n-flow`, { redirect: "manual" });
    const stats = (await n8n({ shorturl: shortened.shorturl, action: "url-stats" })).link;
    expect(stats.shorturl).toBe(`${server.url}/n8n-flow`);
    expect(stats.url).toBe("https://example.com/n8n/flow");
    expect(stats.title).toBe("An n8n flow");
    expect(stats.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  test("a keyword taken: the node reports YOURLS's failure", async () => {
    await n8n({ url: "https://example.com/n8n/one", action: "shorturl", keyword: "n8n-taken" });
    await expect(n8n({ url: "https://example.com/n8n/two", action: "shorturl", keyword: "n8n-taken" })).rejects.toThrow(/already exists in database or is reserved/);
  });

  test("a bad URL: the node reports it", async () => {
    await expect(n8n({ url: "ftp://example.com/file", action: "shorturl" })).rejects.toThrow(/Missing or malformed URL/);
  });
});

/** The extension's YOURLS(): a urlencoded POST of the options in order; the match of `expected` in a 200/201 answer. */
async function firefox(options: Record<string, string>, expected = "^\\s*(\\S+)\\s*$"): Promise<{ url?: string; error?: string; status: number }> {
  const qParams = Object.entries(options).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  const res = await fetch(api, { method: "POST", headers: { "Content-type": "application/x-www-form-urlencoded" }, body: qParams });
  const text = await res.text();
  if (res.status !== 200 && res.status !== 201) return { error: `Error: Server returned status ${res.status}`, status: res.status };
  const match = text.match(new RegExp(expected));
  return match ? { url: match[1], status: res.status } : { error: `Invalid response from Server: ${text}`, status: res.status };
}

describe("the YOURLS Firefox extension", () => {
  test("checks the settings with version in the default XML, then shortens with format=simple", async () => {
    const version = await firefox({ action: "version", signature: creator }, "^.*<version>(\\d+\\.\\d+.*)<\\/version>.*$");
    expect(version.error).toBeUndefined();
    expect(version.url).toMatch(/^\d+\.\d+/);

    const url = "https://example.com/firefox/page?x=1&y=2";
    const shortened = await firefox({ action: "shorturl", format: "simple", url, signature: creator, keyword: "ff-ext" });
    expect(shortened.url).toBe(`${server.url}/ff-ext`);
    expect(await destinationOf(shortened.url!)).toBe(url);
  });

  test("a wrong signature: 403, which it tells the person as not allowed", async () => {
    const version = await firefox({ action: "version", signature: "wrong-signature" }, "^.*<version>(\\d+\\.\\d+.*)<\\/version>.*$");
    expect(version.status).toBe(403);
  });
});
