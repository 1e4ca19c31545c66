// The Kutt clients people bring (#38), their exact requests replayed against a real server on either
// engine, their answers read the way each client reads them:
// - ShareX's Kutt shortener: github.com/ShareX/ShareX ShareX.UploadersLib/URLShorteners/KuttURLShortener.cs
//   (POST <host>/api/v2/links, X-API-KEY, JSON {target, password, customurl, reuse, domain} as
//   Newtonsoft writes it, nulls included; the answer's `link` read as the short URL).
// - The Kutt browser extension: github.com/thedevs-network/kutt-extension source/Background/index.ts
//   (checkApiKey: GET /api/v2/users with X-API-Key, reading {apikey, email, domains}; shortenUrl:
//   POST /api/v2/links with {target, customurl?, password?, reuse, domain?}, reading `link`, a 401
//   as "Invalid API Key" and a 400's `error` as the message; fetchUrlsHistory: GET
//   /api/v2/links?limit=15 reading {limit, skip, total, data}), source/Options/Form.tsx (a key must
//   have exactly 40 characters), source/Popup/Popup.tsx (a domain's `address` is what it sends).
// - --compat: without kutt, /api/v2/links is our API's 404.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openStorage } from "../../src/db/open-storage.ts";
import { DEFAULT_SETTINGS, type Domain } from "../../src/domains/domain.ts";
import { startServer, type RunningServer } from "../support/server.ts";

const T = 60_000;
type Keys = { admin: string; maker: string };
let first: RunningServer;
let server: RunningServer;
const keys = {} as Keys;

const domain = (name: string): Domain => ({ ...DEFAULT_SETTINGS, name, isDefault: false, createdAt: 1 });

beforeAll(async () => {
  first = await startServer();
  await first.stop();
  const storage = await openStorage(first.dbPath, { busyTimeoutMs: 5_000, password: null });
  try {
    for (const [name, scope] of [["admin", "admin"], ["maker", "create"]] as const) keys[name] = (await storage.keys.create(name, scope, Date.now())).key;
    await storage.domains.add(domain("s.example.org"));
  } finally {
    await storage.close();
  }
  server = await startServer({ dir: first.dir });
}, T);
afterAll(async () => {
  await server?.stop();
  await first?.dispose();
}, T);

/** ShareX's Submit(url): the request it sends and the `link` it reads (null when the answer has none). */
async function sharexShorten(host: string, settings: { APIKey: string; Password?: string | null; Reuse?: boolean; Domain?: string | null }, url: string) {
  // KuttShortenLinkBody in declaration order; Newtonsoft writes null properties as null.
  const json = JSON.stringify({ target: url, password: settings.Password ?? null, customurl: null, reuse: settings.Reuse ?? false, domain: settings.Domain ?? null });
  const res = await fetch(`${host.replace(/\/$/, "")}/api/v2/links`, { method: "POST", headers: { "Content-Type": "application/json", "X-API-KEY": settings.APIKey }, body: json });
  const text = await res.text();
  const parsed = text === "" ? null : (JSON.parse(text) as { id?: string; link?: string });
  return { status: res.status, link: parsed?.link ?? null, id: parsed?.id ?? null, body: parsed };
}

/** The extension's axios call with its X-API-Key header (axios sends data as JSON). */
async function extension(method: string, path: string, apikey: string, data?: unknown) {
  const headers: Record<string, string> = { "X-API-Key": apikey, Accept: "application/json, text/plain, */*" };
  if (data !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${server.url}${path}`, { method, headers, body: data === undefined ? undefined : JSON.stringify(data) });
  return { status: res.status, data: (await res.json()) as any };
}

/** What the extension makes of a shortenUrl answer (its error branches in order). */
function shortenOutcome(r: { status: number; data: any }): { error: boolean; message: string } {
  if (r.status >= 200 && r.status < 300) return { error: false, message: r.data.link };
  if (r.status === 401) return { error: true, message: "Error: Invalid API Key" };
  if (r.status === 400 && Object.prototype.hasOwnProperty.call(r.data, "error")) return { error: true, message: `Error: ${r.data.error}` };
  return { error: true, message: "Error: Something went wrong" };
}

describe("ShareX's Kutt shortener", () => {
  test("its POST makes a link; the `link` it reads redirects to the URL", async () => {
    const r = await sharexShorten(server.url + "/", { APIKey: keys.maker }, "https://example.com/sharex/screenshot.png");
    expect(r.status).toBe(201);
    expect(r.link).toMatch(new RegExp(`^${server.url}/[A-Za-z0-9_-]+$`));
    expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    const click = await fetch(r.link!, { redirect: "manual" });
    expect(click.status).toBe(302);
    expect(click.headers.get("location")).toBe("https://example.com/sharex/screenshot.png");
  }, T);

  test("Reuse gives the same link again; Password makes a protected link; Domain puts it on that domain", async () => {
    const url = "https://example.com/sharex/reused";
    const once = await sharexShorten(server.url, { APIKey: keys.maker, Reuse: true }, url);
    const again = await sharexShorten(server.url, { APIKey: keys.maker, Reuse: true }, url);
    expect(once.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.link).toBe(once.link!);
    // Without Reuse, a new link each time.
    expect((await sharexShorten(server.url, { APIKey: keys.maker }, url)).link).not.toBe(once.link!);
    const locked = await sharexShorten(server.url, { APIKey: keys.maker, Password: "open sesame" }, "https://example.com/sharex/locked");
    expect(locked.status).toBe(201);
    expect(locked.body).toMatchObject({ password: true });
    expect((await fetch(locked.link!, { redirect: "manual" })).status).not.toBe(302);
    const onDomain = await sharexShorten(server.url, { APIKey: keys.maker, Domain: "s.example.org" }, "https://example.com/sharex/domain");
    expect(onDomain.status).toBe(201);
    expect(onDomain.link).toMatch(/^https:\/\/s\.example\.org\/[A-Za-z0-9_-]+$/);
  }, T);

  test("a wrong key: no link, a 401 with Kutt's error", async () => {
    const r = await sharexShorten(server.url, { APIKey: "sk_" + "x".repeat(32) }, "https://example.com/sharex/nope");
    expect(r.status).toBe(401);
    expect(r.link).toBeNull();
    expect(typeof (r.body as any).error).toBe("string");
  }, T);
});

describe("the Kutt browser extension", () => {
  test("its 40-character key (ours with _kutt) passes the users check, then its shorten and history calls work", async () => {
    const apikey = `${keys.maker}_kutt`;
    expect(apikey.trim().length).toBe(40); // what its Options form demands
    const user = await extension("GET", "/api/v2/users", apikey);
    expect(user.status).toBe(200);
    expect(user.data.apikey).toBe(apikey);
    expect(typeof user.data.email).toBe("string");
    // The popup offers each domain's address (its label the homepage).
    expect(user.data.domains.map((d: any) => d.address)).toEqual(["s.example.org"]);
    expect(user.data.domains[0]).toMatchObject({ banned: false, homepage: "s.example.org" });
    expect(user.data.domains[0].id).toMatch(/^[0-9a-f-]{36}$/);

    const body = { target: "https://example.com/extension/page", customurl: "ext-page", reuse: false, domain: user.data.domains[0].address };
    const made = await extension("POST", "/api/v2/links", apikey, body);
    expect(shortenOutcome(made)).toEqual({ error: false, message: "https://s.example.org/ext-page" });
    // The same alias again: a 400 whose error the popup shows.
    const taken = shortenOutcome(await extension("POST", "/api/v2/links", apikey, body));
    expect(taken.error).toBe(true);
    expect(taken.message).toStartWith("Error: ");
    expect(taken.message).toContain("ext-page");
    // Without a domain and alias, as the popup sends an untouched form.
    const plain = await extension("POST", "/api/v2/links", apikey, { target: "https://example.com/extension/plain", reuse: false });
    expect(shortenOutcome(plain).message).toStartWith(server.url + "/");

    const history = await extension("GET", "/api/v2/links?limit=15", apikey);
    expect(history.status).toBe(200);
    expect(history.data).toMatchObject({ limit: 15, skip: 0 });
    expect(history.data.total).toBeGreaterThanOrEqual(2);
    const targets = history.data.data.map((l: any) => l.target);
    expect(targets).toContain("https://example.com/extension/page");
    expect(history.data.data[0].target).toBe("https://example.com/extension/plain"); // newest first
  }, T);

  test("a wrong key is 'Invalid API Key' on the users check and on shorten; a bad target is shown as the 400's error", async () => {
    const wrong = "sk_" + "y".repeat(32) + "_kutt";
    expect((await extension("GET", "/api/v2/users", wrong)).status).toBe(401);
    expect(shortenOutcome(await extension("POST", "/api/v2/links", wrong, { target: "https://example.com/x", reuse: false }))).toEqual({ error: true, message: "Error: Invalid API Key" });
    const bad = shortenOutcome(await extension("POST", "/api/v2/links", `${keys.maker}_kutt`, { target: "https://exa mple.com/", reuse: false }));
    expect(bad.error).toBe(true);
    expect(bad.message).toContain("target");
  }, T);
});

describe("--compat", () => {
  for (const flag of ["off", "yourls"]) {
    test(`--compat ${flag}: /api/v2/links and /api/v2/users are our API's 404`, async () => {
      const s = await startServer({ args: ["--compat", flag] });
      try {
        for (const path of ["/api/v2/links", "/api/v2/users"]) {
          const res = await fetch(`${s.url}${path}`, { headers: { "X-API-KEY": "sk_" + "z".repeat(32) } });
          expect(res.status).toBe(404);
          expect(await res.json()).toMatchObject({ success: false, code: "not_found" });
        }
      } finally {
        await s.dispose();
      }
    }, T);
  }

  test("--compat kutt (and the default): the Kutt routes answer", async () => {
    const s = await startServer({ args: ["--compat", "kutt"] });
    try {
      const res = await fetch(`${s.url}/api/v2/health`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("OK");
    } finally {
      await s.dispose();
    }
    const health = await fetch(`${server.url}/api/v2/health`);
    expect(await health.text()).toBe("OK");
  }, T);
});
