// Abuse of create: links back to this service (a redirect loop) under every name it is reachable by
// (--base-url, the request's Host, a trusted proxy's X-Forwarded-Host), and dangerous schemes or
// credentials in spellings test/integration/create.test.ts does not already try.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";

let based: RunningServer; // --base-url https://s.example.org
let proxied: RunningServer; // behind a trusted proxy on 127.0.0.1
let direct: RunningServer; // no proxy trusted
beforeAll(async () => {
  [based, proxied, direct] = await Promise.all([
    startServer({ args: ["--create-rate-limit", "0", "--base-url", "https://s.example.org"] }),
    startServer({ args: ["--create-rate-limit", "0", "--trust-proxy", "127.0.0.1"] }),
    startServer({ args: ["--create-rate-limit", "0"] }),
  ]);
});
afterAll(async () => {
  await Promise.all([based.dispose(), proxied.dispose(), direct.dispose()]);
});

async function expectRefused(server: RunningServer, url: string, code: string, headers: Record<string, string> = {}) {
  const res = await createLink(server.url, { url }, headers);
  expect({ url, status: res.status, code: res.body.code, field: res.body.field }).toEqual({ url, status: 400, code, field: "url" });
  expect(res.body.success).toBe(false);
  expect(res.body.error.length).toBeGreaterThan(10);
}

describe("links to the service itself", () => {
  test("via the --base-url host, in any spelling that names the same host", async () => {
    for (const url of [
      "https://s.example.org/abc",
      "HTTPS://S.EXAMPLE.ORG/abc",
      "http://s.example.org/abc", // other scheme, same host: still us
      "https://s.example.org:443/abc", // default port spelled out
      "https://s%2Eexample.org/abc", // percent-encoded dot in the host
      "https://s.example.org./abc", // the fully qualified form with a trailing dot
    ]) {
      await expectRefused(based, url, "url_self");
    }
    // Another host on the same domain is not us.
    expect((await createLink(based.url, { url: "https://www.example.org/abc" })).status).toBe(201);
  });

  test("via the request's Host when there is no --base-url", async () => {
    const host = new URL(direct.url).host;
    await expectRefused(direct, `http://${host}/abc`, "url_self");
    // an IPv4 host with a trailing dot is not written as a.b.c.d: refused before it is compared (#21)
    await expectRefused(direct, `http://127.0.0.1.:${direct.port}/abc`, "url_invalid");
    await expectRefused(direct, `http://localhost:${direct.port}/abc`, "url_local");
  });

  test("via X-Forwarded-Host from a trusted proxy; from an untrusted peer the header is ignored", async () => {
    await expectRefused(proxied, "https://public.example.net/x", "url_self", { "x-forwarded-host": "public.example.net", "x-forwarded-proto": "https" });
    const spoofed = await createLink(direct.url, { url: "https://public.example.net/x" }, { "x-forwarded-host": "public.example.net" });
    expect(spoofed.status).toBe(201);
  });
});

describe("dangerous schemes and credentials, more spellings", () => {
  const SCHEMES = [
    "JavaScript:alert(1)",
    "  javascript:alert(1)",
    "javascript://example.com/%0Aalert(1)",
    "vbscript:msgbox(1)",
    "DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "FILE:///etc/passwd",
    "file://localhost/etc/passwd",
    "blob:https://example.com/uuid",
    "about:blank",
    "//example.com/protocol-relative",
    "https:example.com", // no slashes: not the absolute form
  ];
  test.each(SCHEMES)("%s → url_scheme or url_invalid", async (url) => {
    const res = await createLink(direct.url, { url });
    expect(res.status).toBe(400);
    expect(["url_scheme", "url_invalid"]).toContain(res.body.code);
  });

  test("a tab inside the scheme, a newline in the host and a line separator in the path are refused", async () => {
    for (const url of ["java\tscript:alert(1)", "https://exa\nmple.com/", "https://example.com/a\u2028b"]) {
      const res = await createLink(direct.url, { url });
      expect(res.status).toBe(400);
    }
  });

  const CREDENTIALS = ["https://user@example.com/", "https://:secret@example.com/", "HTTPS://USER:PASS@EXAMPLE.COM/", "https://us%65r:p@example.com/", "http://a:b@127.0.0.1:9/"];
  test.each(CREDENTIALS)("%s → url_credentials", async (url) => {
    await expectRefused(direct, url, "url_credentials");
  });
});
