// Issue #33, findings 1-3: a hostile Host header. Sent byte for byte (no HTTP client sends an empty
// Host, two of them, or none over HTTP/1.1), against the real service. Before the front door
// (src/http/front-door.ts): `Host:` on /api/stats stopped the process (exit 1), `Host: x` routed
// `/zz/metrics` as `/metrics`, and a malformed Host answered Bun's development error page.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLink, REPO_ROOT, startServer, type RunningServer } from "../support/server.ts";
import { rawRequest, type RawResponse } from "../support/raw-http.ts";
import { makeKey } from "../support/admin.ts";

let server: RunningServer;
let key: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  expect((await createLink(server.url, { url: "https://example.com/host-test", custom_url: "host-link" })).status).toBe(201);
  key = makeKey(server.dbPath, "host-admin");
});
afterAll(() => server.dispose());

const send = (head: string) => rawRequest(server.port, `${head}\r\nConnection: close\r\n\r\n`);

/** No working directory, source file, source line or stack in an answer. */
function expectNoInternals(r: RawResponse) {
  expect(r.raw).not.toContain(REPO_ROOT);
  expect(r.raw).not.toContain(server.dir);
  expect(r.raw).not.toMatch(/\.ts:\d+|\bat [\w.<>]+ \(|node_modules|\/src\//);
}

async function stillServing() {
  expect((await rawRequest(server.port, `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`)).status).toBe(200);
  const click = await rawRequest(server.port, `GET /host-link HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
  expect(click.status).toBe(302);
  expect(click.headers.location).toBe("https://example.com/host-test");
}

describe("a Host that names no authority is a 400 bad_request, and the service goes on", () => {
  const hosts = ["", "   ", "a b", "x:99999", "x:abc", "[::1", "::1]", "x/y", "x?y", "x#y", "user@x", "x\\y", "x%2fy", "\xc3\xa9.com"];
  for (const route of ["/api/stats?id=host-link", "/api/stats/live?id=host-link", "/host-link", "/", "/metrics", "/api/links", "/en/stats/host-link"]) {
    test(`on ${route}`, async () => {
      for (const host of hosts) {
        for (const version of ["1.0", "1.1"]) {
          const r = await send(`GET ${route} HTTP/${version}\r\nHost: ${host}`);
          expect(r.status).toBe(400);
          expect(JSON.parse(r.body)).toMatchObject({ success: false, code: "bad_request" });
          expectNoInternals(r);
        }
      }
      await stillServing();
    });
  }

  test("two Host headers are one too many", async () => {
    const r = await send(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nHost: evil.example`);
    expect(r.status).toBe(400);
    await stillServing();
  });
});

describe("HTTP/1.0 without any Host", () => {
  test("/health answers, as old load balancers' checks expect", async () => {
    for (const method of ["GET", "HEAD"]) {
      const r = await send(`${method} /health HTTP/1.0`);
      expect(r.status).toBe(200);
    }
  });

  test("everything else is a 400 that says why, and nothing stops", async () => {
    for (const target of ["/api/stats?id=host-link", "/api/stats/live?id=host-link", "/host-link", "/metrics", "/"]) {
      const r = await send(`GET ${target} HTTP/1.0`);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body).error).toContain("Host");
    }
    await stillServing();
  });
});

describe("the path the router sees is the path the request names", () => {
  test("with a one-letter Host, /zz/metrics and /zz/api/links are not /metrics and /api/links", async () => {
    for (const host of ["x", "a:1", "[::1]"]) {
      const metrics = await send(`GET /zz/metrics HTTP/1.1\r\nHost: ${host}`);
      expect(metrics.status).toBe(404);
      expect(metrics.body).not.toContain("shortener_build_info");
      const links = await send(`GET /zz/api/links HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}`);
      expect(links.status).toBe(404);
      expect(links.body).not.toContain("host-link");
      // The real paths still answer under the same Host.
      expect((await send(`GET /metrics HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}`)).status).toBe(200);
    }
  });

  test("a fragment in the request target is refused, not routed", async () => {
    const r = await send(`GET /health#x HTTP/1.1\r\nHost: 127.0.0.1:${server.port}`);
    expect(r.status).toBe(400);
  });

  test("nothing was logged as a failure of ours", () => {
    expect(server.output()).not.toContain("request failed");
    expect(server.output()).not.toContain("uncaught");
  });
});
