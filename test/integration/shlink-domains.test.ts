// Shlink's domain routes (#39) against a real server, on either engine: GET /domains lists the
// domains a key may make links on with their redirects and the instance's (--root-redirect,
// --not-found-redirect), PATCH /domains/redirects sets ours (root redirect, not-found redirect),
// merged, admins only, and a visitor meets them. Shapes: shlink docs/swagger/paths/v2_domains.json
// (domains.data[] requires domain, isDefault, redirects), v2_domains_redirects.json (the answer
// requires baseUrlRedirect, regular404Redirect, invalidShortUrlRedirect),
// definitions/NotFoundRedirects.json; the SDK's ShlinkDomainsList / ShlinkDomainRedirects
// (shlink-js-sdk src/api-contract/types.ts); what the web client sends: shlink-web-component
// src/domains/helpers/EditDomainRedirectsModal.tsx (all three, null for an empty field).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";

const HOST = "s.example.org";
let server: RunningServer;
let admin: string;
let creator: string;

beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0", "--base-url", `https://${HOST}`, "--root-redirect", "https://home.example/", "--not-found-redirect", "https://nf.example/"] });
  admin = makeKey(server.dbPath, "admin");
  creator = makeKey(server.dbPath, "creator", "create");
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

type Answer = { status: number; type: string; body: any };

/** One call of Shlink's API under `host`, as the SDK makes it (X-Api-Key, JSON body). */
async function shlink(method: string, path: string, key: string | null, body?: unknown, host = HOST, s = server): Promise<Answer> {
  const headers: Record<string, string> = { host };
  if (key !== null) headers["X-Api-Key"] = key;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${s.url}/rest/v3${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, type: res.headers.get("content-type") ?? "", body: await res.json() };
}

function expectProblem(a: Answer, status: number, type: string) {
  expect(a.status).toBe(status);
  expect(a.type).toStartWith("application/problem+json");
  expect(a.body).toMatchObject({ type, status });
  expect(typeof a.body.title).toBe("string");
  expect(typeof a.body.detail).toBe("string");
}
const shlinkType = (t: string) => `https://shlink.io/api/error/${t}`;

/** Where a visitor of `path` on `host` is sent (null: not redirected). */
async function visit(host: string, path: string): Promise<string | null> {
  const res = await fetch(`${server.url}${path}`, { headers: { host }, redirect: "manual" });
  await res.arrayBuffer();
  return res.status >= 300 && res.status < 400 ? res.headers.get("location") : null;
}

const none = { baseUrlRedirect: null, regular404Redirect: null, invalidShortUrlRedirect: null };

describe("GET /domains", () => {
  test("the default (named by --base-url, before it has a row) and the instance's redirects", async () => {
    const r = await shlink("GET", "/domains", admin);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      domains: {
        data: [{ domain: HOST, isDefault: true, redirects: none }],
        defaultRedirects: { baseUrlRedirect: "https://home.example/", regular404Redirect: null, invalidShortUrlRedirect: "https://nf.example/" },
      },
    });
  });

  test("a create key lists the domains it may make links on, with their redirects; an admin every domain", async () => {
    expect((await api(server.url, admin, "POST", "/api/domains", { name: "go.example.net", rootRedirect: "https://go.example/" }, { host: HOST })).status).toBe(201);
    expect((await api(server.url, admin, "POST", "/api/domains", { name: "team.example.net", creators: { users: [], keys: [] } }, { host: HOST })).status).toBe(201);
    const mine = await shlink("GET", "/domains", creator);
    expect(mine.status).toBe(200);
    expect(mine.body.domains.data).toEqual([
      { domain: HOST, isDefault: true, redirects: none },
      { domain: "go.example.net", isDefault: false, redirects: { ...none, baseUrlRedirect: "https://go.example/" } },
    ]);
    const all = await shlink("GET", "/domains", admin);
    expect(all.body.domains.data.map((d: any) => d.domain)).toEqual([HOST, "go.example.net", "team.example.net"]);
  });

  test("a wrong or missing key: 401 as Shlink's problems", async () => {
    expectProblem(await shlink("GET", "/domains", "nope"), 401, shlinkType("invalid-api-key"));
    expectProblem(await shlink("GET", "/domains", null), 401, shlinkType("missing-authentication"));
  });
});

describe("PATCH /domains/redirects", () => {
  test("absent keeps, null clears, the answer is the merged redirects; ours show them and a visitor meets them", async () => {
    const first = await shlink("PATCH", "/domains/redirects", admin, { domain: "go.example.net", invalidShortUrlRedirect: "https://go-nf.example/" });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ baseUrlRedirect: "https://go.example/", regular404Redirect: null, invalidShortUrlRedirect: "https://go-nf.example/" });
    expect(await visit("go.example.net", "/")).toBe("https://go.example/");
    expect(await visit("go.example.net", "/nosuchalias")).toBe("https://go-nf.example/");
    // As the web client sends it: all three, null for an empty field.
    const second = await shlink("PATCH", "/domains/redirects", admin, { domain: "GO.example.net", baseUrlRedirect: null, regular404Redirect: null, invalidShortUrlRedirect: "https://go-nf2.example/" });
    expect(second.body).toEqual({ ...none, invalidShortUrlRedirect: "https://go-nf2.example/" });
    const ours = (await api(server.url, admin, "GET", "/api/domains", undefined, { host: HOST })).body.domains.find((d: any) => d.name === "go.example.net");
    expect(ours).toMatchObject({ rootRedirect: null, notFoundRedirect: "https://go-nf2.example/" });
    // The instance's --root-redirect takes over once the domain's own is cleared.
    expect(await visit("go.example.net", "/")).toBe("https://home.example/");
    expect((await shlink("GET", "/domains", admin)).body.domains.data[1].redirects).toEqual(second.body);
    expect(server.output()).toContain("action=domain-update id=go.example.net");
  });

  test("the default named only by --base-url: its first redirects give it a row", async () => {
    const r = await shlink("PATCH", "/domains/redirects", admin, { domain: HOST, baseUrlRedirect: "https://default-home.example/" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...none, baseUrlRedirect: "https://default-home.example/" });
    expect(await visit(HOST, "/")).toBe("https://default-home.example/");
    const listed = await shlink("GET", "/domains", admin);
    expect(listed.body.domains.data[0]).toEqual({ domain: HOST, isDefault: true, redirects: r.body });
    const ours = (await api(server.url, admin, "GET", "/api/domains", undefined, { host: HOST })).body.domains[0];
    expect(ours).toMatchObject({ name: HOST, isDefault: true, createdAt: expect.any(String), rootRedirect: "https://default-home.example/" });
  });

  test("regular404Redirect has no setting here: a URL for it is refused by name, nothing changed", async () => {
    const r = await shlink("PATCH", "/domains/redirects", admin, { domain: "go.example.net", baseUrlRedirect: "https://changed.example/", regular404Redirect: "https://x.example/" });
    expectProblem(r, 400, shlinkType("invalid-data"));
    expect(r.body.invalidElements).toEqual(["regular404Redirect"]);
    expect(r.body.detail).toContain("regular404Redirect");
    expect((await shlink("GET", "/domains", admin)).body.domains.data[1].redirects.baseUrlRedirect).toBeNull();
  });

  test("bad input: invalid-data naming Shlink's field, an unknown domain is domain-not-found, never a 5xx", async () => {
    const bad: [unknown, string][] = [
      [{}, "domain"],
      [{ domain: "" }, "domain"],
      [{ domain: "go.example.net", baseUrlRedirect: "not a url" }, "baseUrlRedirect"],
      [{ domain: "go.example.net", invalidShortUrlRedirect: "javascript:alert(1)" }, "invalidShortUrlRedirect"],
      [{ domain: "go.example.net", baseUrlRedirect: 7 }, "baseUrlRedirect"],
    ];
    for (const [body, field] of bad) {
      const r = await shlink("PATCH", "/domains/redirects", admin, body);
      expectProblem(r, 400, shlinkType("invalid-data"));
      expect(r.body.invalidElements).toEqual([field]);
    }
    const unknown = await shlink("PATCH", "/domains/redirects", admin, { domain: "nowhere.example.com", baseUrlRedirect: "https://x.example/" });
    expectProblem(unknown, 404, shlinkType("domain-not-found"));
    expect(unknown.body.authority).toBe("nowhere.example.com");
  });

  test("a create key may not: a 403 problem, nothing changed; a wrong key 401", async () => {
    const r = await shlink("PATCH", "/domains/redirects", creator, { domain: "go.example.net", baseUrlRedirect: "https://creator.example/" });
    expectProblem(r, 403, "urn:shortener:error:admin_only");
    expect((await shlink("GET", "/domains", admin)).body.domains.data[1].redirects.baseUrlRedirect).toBeNull();
    expectProblem(await shlink("PATCH", "/domains/redirects", "nope", { domain: "go.example.net" }), 401, shlinkType("invalid-api-key"));
  });
});

test("an instance that knows no name: the default listed under the request's host; its redirects cannot be set on an address", async () => {
  const bare = await startServer({ args: ["--create-rate-limit", "0"] });
  try {
    const key = makeKey(bare.dbPath, "admin");
    const host = `127.0.0.1:${bare.port}`;
    const r = await shlink("GET", "/domains", key, undefined, host, bare);
    expect(r.body).toEqual({ domains: { data: [{ domain: host, isDefault: true, redirects: none }], defaultRedirects: none } });
    const set = await shlink("PATCH", "/domains/redirects", key, { domain: host, baseUrlRedirect: "https://x.example/" }, host, bare);
    expectProblem(set, 400, shlinkType("invalid-data"));
    expect(set.body.invalidElements).toEqual(["domain"]);
  } finally {
    await bare.dispose();
  }
}, 60_000);
