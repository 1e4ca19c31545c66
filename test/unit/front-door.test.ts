// The front door's pure parts (src/http/front-door.ts): which Host headers name an authority, which
// request targets are in their normal form, and the last resort that turns a handler's error into
// a 500 with a request id. The real server's side is test/hardening/host.test.ts.

import { describe, expect, test } from "bun:test";
import { createLastResort, isAuthority, targetPath } from "../../src/http/front-door.ts";
import { withClickDoor } from "../../src/http/click-door.ts";
import { DomainDirectory } from "../../src/domains/directory.ts";
import { createRequestMetrics } from "../../src/metrics/requests.ts";

describe("isAuthority", () => {
  test.each([
    "x", "localhost", "localhost:8080", "s.example.org", "s.example.org.", "S.Example.ORG:443", "127.0.0.1", "127.0.0.1:1",
    "[::1]", "[::1]:8080", "[2001:db8::1]:65535", "my_app:8080", "xn--bcher-kva.example",
  ])("%p is a host", (host) => expect(isAuthority(host)).toBe(true));

  test.each([
    "", " ", "   ", "a b", "x:99999", "x:65536", "x:abc", "x:-1", "[::1", "::1]", "[::1]]", "[1::2::3]", "[::g]", "x/y", "x?y", "x#y",
    "user@x", "x\\y", "x%2fy", "x, y", "x,y", "é.com", "\u00c3\u00a9.com", "x\ty", "-", "a".repeat(300), "x:80:80", ":80",
  ])("%p is refused", (host) => expect(isAuthority(host)).toBe(false));
});

describe("targetPath", () => {
  test.each([
    ["http://x/", "/"],
    ["http://x/zz/metrics", "/zz/metrics"],
    ["http://127.0.0.1:8080/api/stats?id=a", "/api/stats"],
    ["http://x//metrics", "//metrics"],
    ["http://[::1]:80/a/b?c=/d", "/a/b"],
    ["http://x/%6detrics", "/%6detrics"],
  ])("%p has the path %p", (url, path) => expect(targetPath(url)).toBe(path));

  test.each(["/relative", "http://x/a#frag", "http://x/a?b#c", "http://x:99999/a", "http://x%2fy/a", "http://[::1/a", "http://x"])("%p is refused", (url) => {
    expect(targetPath(url)).toBeNull();
  });
});

describe("the click door's last resort", () => {
  const logged: string[] = [];
  const log = { info: () => {}, error: (msg: string, fields?: Record<string, unknown>) => void logged.push(`${msg} ${JSON.stringify(fields)}`) };
  const requests = createRequestMetrics();
  const deps = { requests, log, ownHost: () => "localhost:1", lastResort: createLastResort(log), directory: new DomainDirectory(null, () => []), now: Date.now } as unknown as Parameters<typeof withClickDoor>[2];
  const door = (app: (r: Request) => Response | Promise<Response>) => withClickDoor(app, { routeOf: () => "/api/x" }, deps);
  const request = () => new Request("http://x/api/x", { headers: { Host: "x" } });

  test.each([
    ["a handler that throws", () => { throw new Error("secret detail at /work/src/x.ts:1"); }],
    ["a handler that rejects", () => Promise.reject(new Error("secret detail at /work/src/x.ts:1"))],
  ])("%s: 500 JSON internal with a request id, logged under it, nothing of the error shown", async (_, app) => {
    logged.length = 0;
    const response = await door(app as unknown as (r: Request) => Response)(request(), null);
    expect(response.status).toBe(500);
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f]{4}-[0-9a-z]+$/);
    const body = await response.json();
    expect(body).toMatchObject({ success: false, code: "internal" });
    expect(body.error).toContain(id!);
    expect(JSON.stringify(body)).not.toContain("secret detail");
    expect(logged.join("\n")).toContain(id!);
    expect(logged.join("\n")).toContain("secret detail");
  });

  test("two failures get two request ids", async () => {
    const app = () => { throw new Error("x"); };
    const a = (await door(app)(request(), null)).headers.get("x-request-id");
    const b = (await door(app)(request(), null)).headers.get("x-request-id");
    expect(a).not.toBe(b);
  });

  test("a Host that names no authority is a 400 before the app is asked", async () => {
    let asked = 0;
    const app = () => { asked++; return new Response("ok"); };
    const response = await door(app)(new Request("http://x/api/x", { headers: { Host: "a b" } }), null);
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe("bad_request");
    expect(asked).toBe(0);
  });
});

describe("the app's own handlers share the last resort", () => {
  test("a handler that fails on /api answers 500 internal with the request id the log names", async () => {
    const { createApp } = await import("../../src/app.ts");
    const logged: string[] = [];
    const log = { info: () => {}, error: (msg: string, fields?: Record<string, unknown>) => void logged.push(`${msg} ${JSON.stringify(fields)}`) };
    const failing = () => { throw new Error("a bug of ours at /work/src/links/store.ts:1"); };
    const app = createApp({
      version: "0.0.0", log, lastResort: createLastResort(log), now: Date.now,
      config: { statsAccess: "public", baseUrl: null, compat: { yourls: true, kutt: true, shlink: true } }, links: { get: failing },
    } as unknown as Parameters<typeof createApp>[0]);
    const response = await app.handle(new Request("http://x/api/stats?id=abcd", { headers: { Host: "x" } }));
    expect(response.status).toBe(500);
    const id = response.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f]{4}-[0-9a-z]+$/);
    const text = await response.text();
    expect(text).toContain(id);
    expect(text).not.toContain("store.ts");
    expect(logged.join("\n")).toContain(id);
    expect(logged.join("\n")).toContain("/api/stats");
  });
});
