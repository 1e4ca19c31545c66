// n8n's Yourls node itself against the YOURLS API (docs/yourls-api.md), on a real server (both
// engines: SHORTENER_TEST_ENGINE=postgres). The node's code is n8n's own: Yourls.node.js and
// GenericFunctions.js of n8n-nodes-base 2.41.2 from npm (fetched on the first run into .cache/ by
// support/n8n-package.ts), with n8n's error classes from n8n-workflow. Only n8n's engine around
// it is stood in (support/n8n-runtime.ts: the parameters, the credentials, and the request helper,
// which follows n8n's own source and makes the real HTTP request). The requests alone, replayed
// from the node's source, are in compat-yourls-clients.test.ts.
//
// What the node gives back: its output items (YOURLS's JSON answer, or its `link` for stats);
// and its failures, as n8n shows them: a NodeApiError, from the request helper's error on a
// status outside 2xx, or from GenericFunctions' own check of `status: "fail"` on a 200.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";
import { loadN8nYourls, type N8nYourls, type NodeParameters } from "../support/n8n-runtime.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let n8n: N8nYourls;
let creator: string;
beforeAll(async () => {
  // First, so that a registry out of reach says so before a server is started.
  n8n = loadN8nYourls();
  server = await startServer();
  creator = makeKey(server.dbPath, "n8n", "create");
}, 300_000);
afterAll(() => server?.dispose());

/** One run of the node's URL resource with the given operation; its one output item's json. */
async function yourls(operation: string, parameters: NodeParameters, signature = creator): Promise<Record<string, any>> {
  const output = await n8n.execute({ resource: "url", operation, ...parameters }, { url: server.url, signature });
  expect(output).toHaveLength(1);
  expect(output[0]).toHaveLength(1);
  return output[0]![0]!.json;
}

/** What the node threw, which must be n8n's NodeApiError. */
async function failure(run: Promise<unknown>): Promise<Record<string, any>> {
  const thrown = await run.then(() => null, (error: unknown) => error);
  expect(thrown).toBeInstanceOf(n8n.workflow.NodeApiError);
  return thrown as Record<string, any>;
}

describe("n8n's Yourls node", () => {
  test("shorten with keyword and title, expand, stats: the node's output", async () => {
    const url = "https://example.com/n8n/real?step=1&tags=a,b:c";
    const shortened = await yourls("shorten", { url, additionalFields: { keyword: "n8n-real", title: "An n8n flow" } });
    expect(shortened.status).toBe("success");
    expect(shortened.shorturl).toBe(`${server.url}/n8n-real`);
    expect(shortened.url).toMatchObject({ keyword: "n8n-real", url, title: "An n8n flow" });
    expect(shortened.title).toBe("An n8n flow");
    const click = await fetch(shortened.shorturl, { redirect: "manual" });
    expect(click.headers.get("location")).toBe(url);

    const expanded = await yourls("expand", { shortUrl: shortened.shorturl });
    expect(expanded).toMatchObject({ keyword: "n8n-real", shorturl: `${server.url}/n8n-real`, longurl: url, title: "An n8n flow" });

    // The node's stats output is the answer's `link`; the click is counted in the background.
    const stats = await eventually(() => yourls("stats", { shortUrl: shortened.shorturl }), (link) => link.clicks === "1");
    expect(stats).toMatchObject({ shorturl: `${server.url}/n8n-real`, url, title: "An n8n flow", clicks: "1" });
    expect(stats.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  test("shorten without a keyword: a new short URL", async () => {
    const shortened = await yourls("shorten", { url: "https://example.com/n8n/plain", additionalFields: {} });
    expect(shortened.status).toBe("success");
    expect(shortened.shorturl).toMatch(new RegExp(`^${server.url}/[A-Za-z0-9_-]+$`));
    // No title: YOURLS shows the URL in its place (docs/yourls-api.md: Titles).
    expect(shortened.title).toBe("https://example.com/n8n/plain");
  });

  test("a keyword taken: n8n's NodeApiError, 400, with YOURLS's message as its description", async () => {
    await yourls("shorten", { url: "https://example.com/n8n/one", additionalFields: { keyword: "n8n-taken" } });
    const error = await failure(yourls("shorten", { url: "https://example.com/n8n/two", additionalFields: { keyword: "n8n-taken" } }));
    expect(error.httpCode).toBe("400");
    expect(error.message).toBe("Bad request - please check your parameters");
    expect(error.description).toContain("Short URL n8n-taken already exists in database or is reserved");
  });

  test("a URL shortened already: YOURLS's 200 with status fail, which the node itself turns into an error", async () => {
    const first = await yourls("shorten", { url: "https://example.com/n8n/again", additionalFields: {} });
    const error = await failure(yourls("shorten", { url: "https://example.com/n8n/again", additionalFields: {} }));
    expect(error.message).toBe(`Yourls error response [400]: https://example.com/n8n/again already exists in database (short URL: ${first.shorturl.replace(/^https?:\/\//, "")})`);
  });

  test("a bad URL: the node reports it", async () => {
    const error = await failure(yourls("shorten", { url: "ftp://example.com/file", additionalFields: {} }));
    expect(error.httpCode).toBe("400");
    expect(error.description).toContain("Missing or malformed URL");
  });

  test("expanding a short URL that does not exist: 404 as n8n words it", async () => {
    const error = await failure(yourls("expand", { shortUrl: `${server.url}/n8n-nothing-here` }));
    expect(error.httpCode).toBe("404");
    expect(error.message).toBe("The resource you are requesting could not be found");
  });

  test("a wrong signature: 403, n8n's words for credentials to check", async () => {
    const error = await failure(yourls("shorten", { url: "https://example.com/n8n/denied", additionalFields: {} }, "not-a-key"));
    expect(error.httpCode).toBe("403");
    expect(error.message).toBe("Forbidden - perhaps check your credentials?");
  });
});
