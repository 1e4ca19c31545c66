// The Apple Shortcut recipe of docs/clients.md ("Apple Shortcuts"), replayed: "Get Contents of
// URL" with Method POST, an Authorization header and a JSON request body of two text fields (the
// page's URL and its name), as Shortcuts sends it (Content-Type application/json, its own user
// agent); then "Get Dictionary Value" data, then shortUrl, as the recipe reads the answer. The
// link keeps the page's name as its title. Both engines.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { api, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";

let server: RunningServer;
let key: string;

beforeAll(async () => {
  server = await startServer();
  key = makeKey(server.dbPath, "iphone", "create");
}, 60_000);

afterAll(async () => {
  await server?.dispose();
});

/** The recipe's "Get Contents of URL" step. */
function shortcutRequest(url: string, name: string, secret: string): Promise<Response> {
  return fetch(`${server.url}/api/create`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${secret}`,
      "Content-Type": "application/json",
      Accept: "*/*",
      "User-Agent": "Shortcuts/2607.0.3 CFNetwork/1568.100.1 Darwin/24.0.0",
    },
    body: JSON.stringify({ url, title: name }),
  });
}

/** The two "Get Dictionary Value" steps: data, then shortUrl (a missing key gives nothing). */
function dictionaryValue(answer: unknown): string | null {
  const data = (answer as { data?: { shortUrl?: unknown } } | null)?.data;
  return typeof data?.shortUrl === "string" ? data.shortUrl : null;
}

test("the recipe's request makes the link with the page's name as its title, and its two steps read the short URL", async () => {
  const res = await shortcutRequest("https://example.com/recipes/bread", "Bread – a recipe", key);
  expect(res.status).toBe(201);
  const shortUrl = dictionaryValue(await res.json());
  expect(shortUrl).toStartWith(`${server.url}/`);
  const click = await fetch(shortUrl!, { redirect: "manual" });
  expect(click.status).toBe(302);
  expect(click.headers.get("location")).toBe("https://example.com/recipes/bread");
  const id = new URL(shortUrl!).pathname.slice(1);
  const link = await api(server.url, key, "GET", `/api/links/${id}`);
  expect(link.body.data.title).toBe("Bread – a recipe");
}, 30_000);

test("a wrong key: the answer has no short URL to copy, and says why", async () => {
  const res = await shortcutRequest("https://example.com/recipes/soup", "Soup", "sk_not-a-key");
  expect(res.status).toBe(401);
  const body = (await res.json()) as { error: string };
  expect(dictionaryValue(body)).toBeNull();
  expect(body.error).toContain("key");
}, 30_000);
