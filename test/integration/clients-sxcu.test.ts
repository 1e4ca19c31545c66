// The ShareX uploader the dashboard offers (docs/clients.md: ShareX): the file for this server's
// address, read as ShareX reads it, its request built and sent as ShareX sends it
// (test/support/sharex.ts cites ShareX's source), and the answer read with the file's own
// expressions: the short URL on a success, our error text on a refusal. Both engines.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { sharexRequest, sharexResult, type Sxcu } from "../support/sharex.ts";
import { SHAREX_KEY_PLACEHOLDER, sharexFileName, sharexUploader } from "../../web/client/dashboard/client-files.ts";

let server: RunningServer;
let key: string;
let file: Sxcu;

beforeAll(async () => {
  server = await startServer();
  key = makeKey(server.dbPath, "sharex", "create");
  file = JSON.parse(sharexUploader(server.url)) as Sxcu;
}, 60_000);

afterAll(async () => {
  await server?.dispose();
});

async function visit(shortUrl: string): Promise<{ status: number; location: string | null }> {
  const res = await fetch(shortUrl, { redirect: "manual" });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get("location") };
}

describe("the ShareX uploader", () => {
  test("is a URL shortener for this server's /api/create in ShareX 15's syntax, with no key in it", () => {
    expect(file.Version).toBe("15.0.0");
    expect(file.DestinationType).toBe("URLShortener");
    expect(file.RequestMethod).toBe("POST");
    expect(file.RequestURL).toBe(`${server.url}/api/create`);
    expect(file.Body).toBe("JSON");
    expect(file.Headers).toEqual({ Authorization: `Bearer ${SHAREX_KEY_PLACEHOLDER}` });
    expect(sharexFileName(server.url)).toBe(`127.0.0.1_${server.port}-shortener.sxcu`);
  });

  test("ShareX's request with a pasted key makes the link, and the file's URL expression reads its short URL", async () => {
    // A URL with characters a JSON body must escape (ShareX JSON-encodes {input}).
    const input = 'https://example.com/docs/a\\b?q="café"&tab=1';
    const request = sharexRequest(file, input, SHAREX_KEY_PLACEHOLDER, key);
    expect(request.headers.get("authorization")).toBe(`Bearer ${key}`);
    expect(request.headers.get("content-type")).toBe("application/json");
    const res = await fetch(request);
    expect(res.status).toBe(201);
    const { url, error } = await sharexResult(file, res);
    expect(error).toBeNull();
    expect(url).toStartWith(`${server.url}/`);
    const click = await visit(url!);
    expect(click.status).toBe(302);
    expect(decodeURI(click.location!)).toBe(decodeURI(new URL(input).href));
  }, 30_000);

  test("a key left as the placeholder: ShareX shows our error text, not a URL", async () => {
    const res = await fetch(sharexRequest(file, "https://example.com/x", SHAREX_KEY_PLACEHOLDER, SHAREX_KEY_PLACEHOLDER));
    expect(res.status).toBe(401);
    const { url, error } = await sharexResult(file, res);
    expect(url).toBeNull();
    expect(error).toContain("key");
  }, 30_000);

  test("a URL we refuse: ShareX shows why", async () => {
    const res = await fetch(sharexRequest(file, "ftp://example.com/file", SHAREX_KEY_PLACEHOLDER, key));
    expect(res.status).toBe(400);
    const { url, error } = await sharexResult(file, res);
    expect(url).toBeNull();
    expect(error).toMatch(/http/i);
  }, 30_000);
});
