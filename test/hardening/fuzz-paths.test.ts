// Property: random paths at /<id> and the UI routes, and random query strings at /api/stats, sent
// byte for byte over TCP (fetch would normalize `../` and re-encode `%`), never get a 5xx; every
// /api answer is JSON {success:false, error} unless it is a real 200. Request lines Bun's HTTP
// parser rejects (NUL, spaces, bare LF) are answered by Bun itself; the server must stay up.

import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { rawGet, rawRequest, type RawResponse } from "../support/raw-http.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  expect((await createLink(server.url, { url: "https://example.com/fuzz", custom_url: "fuzz-me" })).status).toBe(201);
});
afterAll(() => server.dispose());

// Pieces a hostile path is made of; joined, they give `../`, `%zz`, truncated UTF-8 escapes, long ids.
const piece = fc.oneof(
  fc.constantFrom("..", "../", "./", "/", "//", "%", "%2", "%zz", "%00", "%2e%2e%2f", "%E0%A4%A", "%ED%A0%80", "%FF", "%C0%AF", "?", "#", "&", "=", ";", "fuzz-me", "api", "stats", "en", "health", "\u00e9", "\u{1F600}", "\\"),
  fc.stringMatching(/^[A-Za-z0-9_~!$'()*+,;=:@.-]{1,12}$/),
  fc.integer({ min: 31, max: 5000 }).map((n) => "a".repeat(n)),
);
const path = fc.array(piece, { minLength: 1, maxLength: 8 }).map((xs) => "/" + xs.join(""));

// Only the byte limits HTTP itself puts on a request target: no space, CR, LF, NUL (those are the
// parser's business, tested below). Non-ASCII goes out as raw UTF-8 bytes.
const target = (p: string) => Buffer.from(p.replace(/[\s\u0000]/g, "_"), "utf8").toString("latin1");

function get(p: string): Promise<RawResponse> {
  return rawRequest(server.port, Buffer.from(`GET ${target(p)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, "latin1"));
}

function expectApiJson(r: RawResponse) {
  expect(r.headers["content-type"]).toContain("application/json");
  const body = JSON.parse(r.body);
  if (r.status === 200) expect(body.success).toBe(true);
  else expect(body).toMatchObject({ success: false, error: expect.any(String) });
}

test("random paths at /<id>, /stats/<id>, /<lang>/stats/<id> and /api/<x>: never 5xx", async () => {
  const prefix = fc.constantFrom("", "/stats", "/en/stats", "/api", "/assets");
  await fc.assert(
    fc.asyncProperty(prefix, path, async (pre, p) => {
      const r = await get(pre + p);
      // 431: Bun refuses a request line over its 16 KiB header budget before we see it.
      expect(r.status).not.toBeNull();
      expect(r.status!).toBeLessThan(500);
      // A path under /api/ is the API's and must answer JSON. Bun resolves dot segments the way a
      // URL parser does (/api/../x is /x), so "under /api/" means after that resolution.
      // "/api/" itself is left out: it falls to the /:id route today (see the todo below).
      const resolved = new URL(`http://x${target(pre + p)}`).pathname;
      if (resolved.startsWith("/api/") && resolved !== "/api/" && r.status !== 431) expectApiJson(r);
    }),
    { numRuns: 300 },
  );
  expect((await rawGet(server.port, "/health")).status).toBe(200);
}, 30_000);

// Found by the property above: after a dot segment Elysia hands an undecodable parameter as null,
// which made looksLikeId throw and every such path a 500.
test("undecodable ids after dot segments are the 404 page, not a 500", async () => {
  for (const p of ["/./%FF", "/a/../%E0%A4%A", "/../%ED%A0%80,", "/en/stats/./%FF", "/stats/./%FF"]) {
    const r = await rawGet(server.port, p);
    expect(r.status!).toBeLessThan(500);
  }
  expect(server.output()).not.toContain("request failed");
});

// Also found by the property above: Elysia matches "/api/" and "/api" to the /:id route (id "api"),
// so they get the HTML 404 page instead of the API's JSON 404. Fix belongs in src/app.ts.
test("/api and /api/ answer the JSON API 404", async () => {
  for (const p of ["/api", "/api/", "/api/?x=1"]) {
    const r = await rawGet(server.port, p);
    expect(r.status).toBe(404);
    expectApiJson(r);
  }
});

test("a 5,000-character id and a 100 KB path: 404 page or 414/431, never 5xx", async () => {
  const long = await rawGet(server.port, "/" + "A".repeat(5000));
  expect(long.status).toBe(404);
  expect(long.headers["content-type"]).toContain("text/html");
  const huge = await rawGet(server.port, "/" + "A".repeat(100_000));
  expect([414, 431]).toContain(huge.status!);
  expect((await rawGet(server.port, "/fuzz-me")).status).toBe(302);
});

test("random query strings at /api/stats: never 5xx, always the JSON API shape", async () => {
  const key = fc.constantFrom("id", "from", "to", "bots", "ID", "id[]", "", "%69d");
  const val = fc.oneof(
    fc.constantFrom("fuzz-me", "2026-01-01", "2026-02-30", "9999-12-31", "0000-01-01", "exclude", "include", "%", "%zz", "%E0%A4%A", "%00", "..%2F..%2F"),
    fc.stringMatching(/^[A-Za-z0-9%._~+-]{0,20}$/),
    fc.integer({ min: 31, max: 5000 }).map((n) => "b".repeat(n)),
  );
  const query = fc.array(fc.tuple(key, fc.option(val)), { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join("&"));
  await fc.assert(
    fc.asyncProperty(query, async (q) => {
      const r = await get(`/api/stats?${q}`);
      expect(r.status).not.toBeNull();
      expect(r.status!).toBeLessThan(500);
      if (r.status !== 431) expectApiJson(r); // 431: over Bun's 16 KiB request-head limit, answered by Bun
    }),
    { numRuns: 300 },
  );
  expect((await rawGet(server.port, "/health")).status).toBe(200);
}, 30_000);

test("request lines and headers Bun's parser rejects: 400/505 from Bun, then the server still answers", async () => {
  const lines = ["GET /a\u0000b HTTP/1.1", "GET /a b HTTP/1.1", "GET /fuzz-me HTTP/9.9", "GARBAGE", "GET", "G\u0001T / HTTP/1.1", "GET * HTTP/1.1", "BREW /fuzz-me HTTP/1.1"];
  const heads = ["Host: x\r\nX-A: a\u0000b", "Host: x\r\nno colon here", "Host: x\r\nContent-Length: -1", "Host: x\r\nContent-Length: 2\r\nContent-Length: 3"];
  const sent = [...lines.map((l) => `${l}\r\nHost: x\r\nConnection: close\r\n\r\n`), ...heads.map((h) => `GET /fuzz-me HTTP/1.1\r\n${h}\r\nConnection: close\r\n\r\n`), "GET /fuzz-me HTTP/1.1\nHost: x\n\n"];
  for (const raw of sent) {
    const r = await rawRequest(server.port, Buffer.from(raw, "latin1"));
    // Bun answers an unparsable request line with "505 HTTP Version Not Supported" and no body —
    // its own parser's choice, outside our handlers; what matters is that it is not our 500.
    if (r.status !== null && r.status >= 500) {
      expect(r.status).toBe(505);
      expect(r.body).toBe("");
    }
    expect((await rawGet(server.port, "/fuzz-me")).status).toBe(302);
  }
  expect(server.output()).not.toContain("request failed");
});
