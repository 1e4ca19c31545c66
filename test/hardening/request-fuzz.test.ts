// Issue #33's request fuzzer: thousands of generated requests, sent byte for byte on raw sockets
// (no HTTP client would send them), while other connections click a link. Host variants, request
// targets in every form (absolute, `//`, `*`, dot segments, percent-encodings, fragments, invalid
// UTF-8), duplicated, oversized, empty and undecodable headers, odd methods and versions. Against
// the compiled binary in CI (SHORTENER_BIN), from source in `npm test`.
// Asserted: the process stays up; every answer is below 500 and shows no working directory, file
// path or stack; the known link still redirects; every click acknowledged with a 302 is counted.

import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { createLink, REPO_ROOT, startServer, type RunningServer } from "../support/server.ts";
import { rawRequest, type RawResponse } from "../support/raw-http.ts";
import { drained } from "../support/clicks.ts";
import { makeKey } from "../support/admin.ts";

const REQUESTS = 3000;
const PARALLEL = 8;
// The click load's link: an id the generator below can never produce.
const LOAD_ID = "click-load-9q7w";

let server: RunningServer;
let key: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0", "--trust-proxy", "127.0.0.1", "--auth-header", "remote-user"] });
  for (const [id, url] of [["fuzz-me", "https://example.com/fuzz"], [LOAD_ID, "https://example.com/load"]]) {
    expect((await createLink(server.url, { url: url!, custom_url: id! })).status).toBe(201);
  }
  key = makeKey(server.dbPath, "fuzz-admin");
});
afterAll(() => server.dispose());

const bytes = (s: string) => Buffer.from(s, "latin1").toString("latin1");
const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", " ", "\xff\xfe", "\xc3\x28", "\xe2\x80\xae", "\x7f", "%00", "../..", "\"'<>", "a".repeat(9000), "\xf0\x9f\x98\x80", "=?utf-8?q?x?="),
).map((s) => s.replace(/[\r\n\0]/g, "_"));
const port = () => String(server.port);
const host = fc.oneof(
  fc.constantFrom("127.0.0.1:PORT", "localhost:PORT", "x", "s.example.org", "[::1]:PORT", "my_app", "S.EXAMPLE.ORG.", "a:1"),
  fc.constantFrom("", " ", "   ", "a b", "x:99999", "x:abc", "[::1", "x/y", "x?y", "x#y", "user@x", "x\\y", "x%2fy", "\xc3\xa9.com", "\xff", "x, y", "x:", "[]", "h".repeat(300)),
);
const path = fc
  .array(fc.oneof(fc.constantFrom("fuzz-me", "api", "stats", "links", "metrics", "health", "en", "de", "create", "live", "export", "overview", "session", "openapi.json", "assets", "..", ".", "%2e%2e", "%2F", "%zz", "%FF", "%C0%AF", "\xff", "\\", "", "?id=fuzz-me", "?id=", "#f", ";", "~"), fc.stringMatching(/^[A-Za-z0-9_~!$'()*+,;=:@.-]{1,8}$/)), { maxLength: 6 })
  .map((parts) => "/" + parts.join("/"));
const target = fc.oneof(
  { weight: 6, arbitrary: path },
  { weight: 1, arbitrary: fc.tuple(host, path).map(([h, p]) => `http://${h}${p}`) },
  { weight: 1, arbitrary: path.map((p) => "/" + p) },
  { weight: 1, arbitrary: fc.constantFrom("*", "x:80", "fuzz-me", "", "/fuzz-me#frag", "/api/stats?id=fuzz-me#x", "/" + "a".repeat(20_000)) },
);
const header = fc.oneof(
  fc.tuple(fc.constantFrom("User-Agent", "Referer", "X-Forwarded-For", "Forwarded", "Cookie", "Origin", "Accept-Language", "X-Link-Password", "Remote-User", "X-Forwarded-Host", "X-Forwarded-Proto", "Content-Type", "Accept", "If-None-Match", "Range"), junk),
  fc.tuple(fc.constantFrom("Authorization"), fc.oneof(junk.map((j) => `Bearer ${j}`), fc.constant("Bearer KEY"), junk)),
  fc.tuple(fc.constantFrom("Content-Length"), fc.constantFrom("abc", "-1", "1e3", "99999999999999999999", " 0", "0, 0")),
  fc.tuple(fc.constantFrom("Transfer-Encoding"), fc.constantFrom("chunked", "gzip, chunked", "identity", "chunked, chunked", "x")),
  fc.tuple(fc.constantFrom("X Bad", "\xff", "Header:Colon", "", "Ünïcode"), junk),
);
const request = fc.record({
  method: fc.constantFrom("GET", "GET", "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "get", "FOO", "G\xe9T"),
  target,
  version: fc.constantFrom("HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/0.9", "http/1.1", "HTTP/1.10"),
  hosts: fc.oneof({ weight: 1, arbitrary: fc.constant([] as string[]) }, { weight: 6, arbitrary: fc.array(host, { minLength: 1, maxLength: 2 }) }),
  headers: fc.array(header, { maxLength: 5 }),
  body: fc.oneof(fc.constant(""), fc.constant('{"url":"https://example.com/fuzzed"}'), fc.constant("url=https%3A%2F%2Fexample.com%2F"), junk),
});

type FuzzRequest = typeof request extends fc.Arbitrary<infer T> ? T : never;

function render(r: FuzzRequest): string {
  const lines = [`${r.method} ${r.target} ${r.version}`.replaceAll("PORT", port())];
  for (const h of r.hosts) lines.push(`Host: ${h.replaceAll("PORT", port())}`);
  for (const [name, value] of r.headers) lines.push(`${name}: ${value.replace("KEY", key)}`);
  // Content-Length never promises more than is sent: a server waiting for the rest is within its rights.
  if (r.body !== "" && !r.headers.some(([n]) => n === "Content-Length" || n === "Transfer-Encoding")) lines.push(`Content-Length: ${Buffer.byteLength(r.body, "latin1")}`);
  lines.push("Connection: close", "", r.body);
  return bytes(lines.join("\r\n"));
}

/**
 * The problem with an answer, or null: a 5xx, or anything of our insides shown. A request line
 * Bun's HTTP parser cannot read (a method with non-ASCII letters, `HTTP/1.10`) is refused by the
 * HTTP server before any code of ours runs, with a bodiless 505 (docs/security.md: Security): not ours.
 */
function problem(r: RawResponse): string | null {
  const parserRefusal = r.status === 505 && r.body === "" && r.headers["content-type"] === undefined;
  if (r.status !== null && r.status >= 500 && !parserRefusal) return `answered ${r.status}`;
  for (const inside of [REPO_ROOT, server.dir, "node_modules", "/src/", "/$bunfs/"]) if (r.raw.includes(inside)) return `shows ${inside}`;
  if (/\.ts:\d+|\n\s+at [\w.<>]+ \(/.test(r.raw)) return "shows a stack";
  return null;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]);
/**
 * Whether a request is one HTTP/1.x can read, so that the connection must end with an answer:
 * a known method, version 1.0 or 1.1, an origin- or absolute-form target, header names that are
 * tokens, and no framing header of the generator's (a server may wait for a body it announces).
 * Anything else Bun's parser may refuse by closing the connection.
 */
function mustAnswer(r: FuzzRequest): boolean {
  return METHODS.has(r.method) && (r.version === "HTTP/1.1" || r.version === "HTTP/1.0") && /^(\/|http:\/\/)/.test(r.target) &&
    r.headers.every(([name]) => /^[A-Za-z0-9-]+$/.test(name) && name !== "Content-Length" && name !== "Transfer-Encoding");
}

/** Clicks LOAD_ID on keep-alive connections until told to stop; counts the 302s answered. */
function clickLoad(connections: number) {
  let stop = false;
  let acknowledged = 0;
  const unexpected: string[] = [];
  const loops = Array.from({ length: connections }, async () => {
    while (!stop) {
      const res = await fetch(`${server.url}/${LOAD_ID}`, { redirect: "manual", headers: { "X-Forwarded-For": `203.0.113.${(acknowledged % 250) + 1}` } });
      if (res.status === 302) acknowledged++;
      else unexpected.push(String(res.status));
    }
  });
  return { stop: async () => ((stop = true), await Promise.all(loops), { acknowledged, unexpected }) };
}

test(`${REQUESTS} generated hostile requests under click load: the service stays up, answers below 500 without internals, and counts every acknowledged click`, async () => {
  const load = clickLoad(4);
  const requests = fc.sample(request, { numRuns: REQUESTS, seed: 33 }).map((r) => ({ request: r, bytes: render(r) }));
  const failures: string[] = [];
  const unanswered: string[] = [];
  let answered = 0;
  for (let at = 0; at < requests.length; at += PARALLEL) {
    const batch = requests.slice(at, at + PARALLEL);
    const answers = await Promise.all(batch.map((r) => rawRequest(server.port, Buffer.from(r.bytes, "latin1"), 3000)));
    answers.forEach((r, i) => {
      if (r.status !== null) answered++;
      else if (mustAnswer(batch[i]!.request) && unanswered.length < 5) unanswered.push(JSON.stringify(batch[i]!.bytes.slice(0, 300)));
      const p = problem(r);
      if (p !== null && failures.length < 5) failures.push(`${p}: ${JSON.stringify(batch[i]!.bytes.slice(0, 300))} -> ${JSON.stringify(r.raw.slice(0, 300))}`);
    });
    expect(server.proc.exitCode).toBeNull();
  }
  const { acknowledged, unexpected } = await load.stop();
  expect(failures).toEqual([]);
  // Every request HTTP/1.x can read gets an answer; the others are Bun's parser's to close.
  expect(unanswered).toEqual([]);
  expect(answered).toBeGreaterThan(REQUESTS / 2);
  expect(server.proc.exitCode).toBeNull();
  expect(unexpected).toEqual([]);
  expect(acknowledged).toBeGreaterThan(0);

  const click = await fetch(`${server.url}/fuzz-me`, { redirect: "manual" });
  expect(click.status).toBe(302);
  await drained(server.url);
  const stats = (await (await fetch(`${server.url}/api/stats?id=${LOAD_ID}`)).json()) as { data: { stats: { totalClicks: number } } };
  expect(stats.data.stats.totalClicks).toBe(acknowledged);
  expect(server.output()).not.toContain("uncaught");
}, 240_000);
