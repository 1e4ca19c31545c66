// POST /api/create against a real server on a real port with a temp SQLite file.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
});
afterAll(() => server.dispose());

describe("success", () => {
  test("multipart with a generated id: 201, shortUrl and statsUrl on the request's host", async () => {
    const res = await createLink(server.url, { url: "https://example.com/some/page?q=1" });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const { shortUrl, statsUrl } = res.body.data;
    const id = shortUrl.slice(server.url.length + 1);
    expect(id).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz]{7}$/);
    expect(shortUrl).toBe(`${server.url}/${id}`);
    expect(statsUrl).toBe(`${server.url}/en/stats/${id}`);
    expect(res.headers.get("content-type")).toContain("application/json");
  });

  test("custom alias becomes the id; the URL is stored trimmed, in its WHATWG form (scheme and host lower-case)", async () => {
    const res = await createLink(server.url, { url: "  HTTPS://Example.com/A%20b?x=1#frag  ", custom_url: "My_Alias-1" });
    expect(res.status).toBe(201);
    expect(res.body.data.shortUrl).toBe(`${server.url}/My_Alias-1`);
    const stats = await (await fetch(`${server.url}/api/stats?id=My_Alias-1`)).json();
    expect(stats.data.link.originalUrl).toBe("https://example.com/A%20b?x=1#frag");
    expect(stats.data.link.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  test("an empty custom_url means no alias", async () => {
    const res = await createLink(server.url, { url: "https://example.com/", custom_url: "" });
    expect(res.status).toBe(201);
    expect(res.body.data.shortUrl).toMatch(/\/[A-Za-z0-9]{7}$/);
  });

  test("urlencoded and JSON bodies are accepted with the same field names", async () => {
    const a = await fetch(`${server.url}/api/create`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "url=https%3A%2F%2Fexample.org%2F&custom_url=form-enc",
    });
    expect(a.status).toBe(201);
    const b = await fetch(`${server.url}/api/create`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: "https://example.org/json", custom_url: "json-alias" }),
    });
    expect(b.status).toBe(201);
    expect((await b.json()).data.shortUrl).toBe(`${server.url}/json-alias`);
  });

  test("statsUrl language follows Accept-Language", async () => {
    const res = await createLink(server.url, { url: "https://example.com/" }, { "accept-language": "fr-CA,fr;q=0.9,en;q=0.5" });
    expect(res.body.data.statsUrl).toMatch(new RegExp(`^${server.url}/fr/stats/`));
    const res2 = await createLink(server.url, { url: "https://example.com/" }, { "accept-language": "sv, pt-BR;q=0.4" });
    expect(res2.body.data.statsUrl).toMatch(new RegExp(`^${server.url}/pt/stats/`));
  });

  test("aliases are case-sensitive: Foo and foo are two links", async () => {
    expect((await createLink(server.url, { url: "https://a.example/", custom_url: "CaseX" })).status).toBe(201);
    expect((await createLink(server.url, { url: "https://b.example/", custom_url: "casex" })).status).toBe(201);
    const upper = await fetch(`${server.url}/CaseX`, { redirect: "manual" });
    const lower = await fetch(`${server.url}/casex`, { redirect: "manual" });
    expect(upper.headers.get("location")).toBe("https://a.example/");
    expect(lower.headers.get("location")).toBe("https://b.example/");
  });
});

// Every client mistake: status, code and the field it concerns.
const REJECTED: [string, Record<string, string>, number, string, string | undefined][] = [
  ["missing url", {}, 400, "url_missing", "url"],
  ["blank url", { url: "   " }, 400, "url_missing", "url"],
  ["no scheme", { url: "example.com" }, 400, "url_scheme", "url"],
  ["ftp", { url: "ftp://example.com/" }, 400, "url_scheme", "url"],
  ["javascript:", { url: "javascript:alert(1)" }, 400, "url_scheme", "url"],
  ["data:", { url: "data:text/html,<b>x</b>" }, 400, "url_scheme", "url"],
  ["file:", { url: "file:///etc/passwd" }, 400, "url_scheme", "url"],
  ["no host", { url: "http:///path" }, 400, "url_invalid", "url"],
  ["space inside", { url: "https://exa mple.com/" }, 400, "url_invalid", "url"],
  ["control char", { url: "https://example.com/\u0007" }, 400, "url_invalid", "url"],
  ["credentials", { url: "https://user:pass@example.com/" }, 400, "url_credentials", "url"],
  ["too long", { url: "https://example.com/" + "a".repeat(2030) }, 400, "url_too_long", "url"],
  ["alias too short", { url: "https://example.com/", custom_url: "ab" }, 400, "alias_invalid", "custom_url"],
  ["alias too long", { url: "https://example.com/", custom_url: "a".repeat(31) }, 400, "alias_invalid", "custom_url"],
  ["alias with slash", { url: "https://example.com/", custom_url: "a/b/c" }, 400, "alias_invalid", "custom_url"],
  ["alias with dot", { url: "https://example.com/", custom_url: "a.b.c" }, 400, "alias_invalid", "custom_url"],
  ["alias unicode", { url: "https://example.com/", custom_url: "ünïcode" }, 400, "alias_invalid", "custom_url"],
  ["alias reserved api", { url: "https://example.com/", custom_url: "api" }, 400, "alias_reserved", "custom_url"],
  ["alias reserved any case", { url: "https://example.com/", custom_url: "HEALTH" }, 400, "alias_reserved", "custom_url"],
  ["alias reserved stats", { url: "https://example.com/", custom_url: "stats" }, 400, "alias_reserved", "custom_url"],
];

describe("rejected input", () => {
  for (const [name, fields, status, code, field] of REJECTED) {
    test(`${name} → ${status} ${code}`, async () => {
      const res = await createLink(server.url, fields);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ success: false, code });
      expect(typeof res.body.error).toBe("string");
      expect(res.body.error.length).toBeGreaterThan(5);
      expect(res.body.field).toBe(field);
      expect(res.body.data).toBeUndefined();
    });
  }

  test("a link to this service itself is refused (redirect loop)", async () => {
    const res = await createLink(server.url, { url: `${server.url}/abc` });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("url_self");
  });

  test("a taken alias is 409", async () => {
    expect((await createLink(server.url, { url: "https://example.com/1", custom_url: "taken1" })).status).toBe(201);
    const again = await createLink(server.url, { url: "https://example.com/2", custom_url: "taken1" });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, code: "alias_taken", field: "custom_url" });
  });

  test("20 racing creates of one alias: exactly one wins", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createLink(server.url, { url: `https://example.com/race/${i}`, custom_url: "race-alias" })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  });

  test("unsupported content type is 415", async () => {
    const res = await fetch(`${server.url}/api/create`, { method: "POST", headers: { "content-type": "text/plain" }, body: "url=https://x.y/" });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ success: false, code: "unsupported_media_type" });
  });

  test("a body over the limit is 413", async () => {
    const form = new FormData();
    form.append("url", "https://example.com/");
    form.append("padding", "x".repeat(20_000));
    const res = await fetch(`${server.url}/api/create`, { method: "POST", body: form });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, code: "body_too_large" });
  });

  test("a file instead of the url field is 400", async () => {
    const form = new FormData();
    form.append("url", new Blob(["https://example.com/"]), "url.txt");
    const res = await fetch(`${server.url}/api/create`, { method: "POST", body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, code: "bad_request" });
  });

  test("malformed multipart, JSON and wrong JSON types are 400", async () => {
    const bad = [
      { ct: "multipart/form-data; boundary=xyz", body: "--xyz\r\nnot a part" },
      { ct: "application/json", body: "{not json" },
      { ct: "application/json", body: "[1,2]" },
      { ct: "application/json", body: JSON.stringify({ url: 42 }) },
    ];
    for (const { ct, body } of bad) {
      const res = await fetch(`${server.url}/api/create`, { method: "POST", headers: { "content-type": ct }, body });
      expect(res.status).toBe(400);
      expect((await res.json()).success).toBe(false);
    }
  });

  test("invalid UTF-8 is 400", async () => {
    const body = new Uint8Array([...new TextEncoder().encode("url=https://example.com/"), 0xff, 0xfe]);
    const res = await fetch(`${server.url}/api/create`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    expect(res.status).toBe(400);
  });
});

describe("API routing", () => {
  test("unknown /api route is JSON 404; wrong method is JSON 405 with Allow", async () => {
    const unknown = await fetch(`${server.url}/api/nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ success: false });
    const wrong = await fetch(`${server.url}/api/create`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    expect(await wrong.json()).toMatchObject({ success: false, code: "method_not_allowed" });
    const wrong2 = await fetch(`${server.url}/api/stats`, { method: "DELETE" });
    expect(wrong2.status).toBe(405);
  });
});
