// Issue #37: several domains at the door (docs/several-domains.md: Hosts, What each domain
// answers). The real service, on both engines (SHORTENER_TEST_ENGINE), with domains and links
// written through the storage ports while it is stopped, then started again: the Host of each
// request is sent byte for byte.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStorage } from "../../src/db/open-storage.ts";
import { DEFAULT_SETTINGS, type Domain } from "../../src/domains/domain.ts";
import { linkKey } from "../../src/domains/link-key.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { rawRequest } from "../support/raw-http.ts";
import { eventually } from "../support/eventually.ts";

setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "shortener-domains-"));
let server: RunningServer;
let dbPath: string;
const domain = (name: string, settings: Partial<Domain> = {}): Domain => ({ ...DEFAULT_SETTINGS, name, isDefault: false, createdAt: 1, ...settings });

beforeAll(async () => {
  const first = await startServer({ dir });
  dbPath = first.dbPath;
  await first.stop();
  const storage = await openStorage(dbPath, { busyTimeoutMs: 5_000, password: null });
  try {
    await storage.domains.add(domain("a.example", { isDefault: true }));
    await storage.domains.add(domain("b.example", { notFoundRedirect: "https://b.example.net/missing", rootRedirect: "https://b.example.net/home", fallbackRedirect: "https://b.example.net/over", robots: "none" }));
    await storage.domains.add(domain("c.example"));
    const now = Date.now();
    await storage.links.create({ url: "https://one.example.net/a", alias: "guide" }, now);
    await storage.links.create({ url: "https://two.example.net/b", alias: "guide", domain: "b.example" }, now);
    await storage.links.create({ url: "https://two.example.net/off", alias: "off-b", domain: "b.example" }, now);
    await storage.links.create({ url: "https://one.example.net/off", alias: "off-a" }, now);
    await storage.links.update(linkKey("b.example", "off-b"), { disabled: true });
    await storage.links.update("off-a", { disabled: true });
    await storage.links.create({ url: "https://crawl.example.net/", alias: "crawl-c", domain: "c.example", crawlable: true }, now);
  } finally {
    await storage.close();
  }
  server = await startServer({ dir, args: ["--trust-proxy", "127.0.0.1", "--not-found-redirect", "https://instance.example.net/nf"] });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, host: string, extra = "") => rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`);

describe("a click answers only on its own domain", () => {
  test("the same alias leads to each domain's own link, whatever the case or port of the Host", async () => {
    expect((await get("/guide", "a.example")).headers.location).toBe("https://one.example.net/a");
    expect((await get("/guide", "b.example")).headers.location).toBe("https://two.example.net/b");
    expect((await get("/guide", "B.Example:443")).headers.location).toBe("https://two.example.net/b");
    expect((await get("/guide", "b.example.")).headers.location).toBe("https://two.example.net/b");
    // The service reached directly is its default domain.
    expect((await get("/guide", `127.0.0.1:${server.port}`)).headers.location).toBe("https://one.example.net/a");
    expect((await get("/guide", `localhost:${server.port}`)).headers.location).toBe("https://one.example.net/a");
  });

  test("an alias unknown on the asked domain is that domain's not-found, never another domain's link", async () => {
    const onC = await get("/guide", "c.example");
    expect(onC.status).toBe(302);
    expect(onC.headers.location).toBe("https://instance.example.net/nf");
    const onB = await get("/crawl-c", "b.example");
    expect(onB.headers.location).toBe("https://b.example.net/missing");
  });

  test("a host no domain has gets 421 and names no link", async () => {
    for (const path of ["/guide", "/", "/api/links", "/robots.txt"]) {
      const r = await get(path, "evil.example");
      expect(r.status).toBe(421);
      expect(r.body).not.toContain("one.example.net");
      expect(r.headers.location).toBeUndefined();
    }
    expect(JSON.parse((await get("/api/links", "evil.example")).body)).toMatchObject({ success: false, code: "host_unknown" });
  });
});

describe("each domain's front door", () => {
  test("root: the domain's own redirect; the default's public form; another domain without one goes to the default's root", async () => {
    expect((await get("/", "b.example")).headers.location).toBe("https://b.example.net/home");
    expect((await get("/", "a.example")).status).toBe(200);
    expect((await get("/", "c.example")).headers.location).toBe("https://a.example/");
  });

  test("a disabled link without a fallback of its own: its domain's fallback, else the 410 page", async () => {
    expect((await get("/off-b", "b.example")).headers.location).toBe("https://b.example.net/over");
    expect((await get("/off-a", "a.example")).status).toBe(410);
  });

  test("robots.txt follows the domain's policy and lists only its own crawlable links", async () => {
    expect((await get("/robots.txt", "b.example")).body).toBe("User-agent: *\nDisallow: /\n");
    const onC = (await get("/robots.txt", "c.example")).body;
    expect(onC).toContain("Allow: /crawl-c$");
    expect((await get("/robots.txt", "a.example")).body).not.toContain("crawl-c");
  });

  test("the management surfaces answer on the default domain only", async () => {
    const api = await get("/api/links", "b.example");
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body)).toMatchObject({ success: false, code: "not_found" });
    expect((await get("/en/links", "b.example")).status).toBe(404);
    expect((await get("/metrics", "b.example")).status).toBe(404);
    // On the default domain they are there (the API asks for credentials).
    expect((await get("/api/links", "a.example")).status).toBe(401);
    expect((await get("/health", "b.example")).status).toBe(200);
  });
});

describe("the forwarded host", () => {
  test("X-Forwarded-Host from a trusted proxy names the domain", async () => {
    expect((await get("/guide", "a.example", "X-Forwarded-Host: b.example\r\n")).headers.location).toBe("https://two.example.net/b");
  });

  test("from a peer that is not trusted it is not believed", async () => {
    const untrusted = await startServer({ dir, args: ["--port", "0"] });
    try {
      const r = await rawRequest(untrusted.port, `GET /guide HTTP/1.1\r\nHost: a.example\r\nX-Forwarded-Host: b.example\r\nConnection: close\r\n\r\n`);
      expect(r.headers.location).toBe("https://one.example.net/a");
    } finally {
      await untrusted.stop();
    }
  });
});

test("each domain's clicks are its link's own", async () => {
  for (let i = 0; i < 3; i++) await get("/guide", "b.example");
  await get("/guide", "a.example");
  await server.stop();
  const storage = await openStorage(dbPath, { busyTimeoutMs: 5_000, password: null });
  try {
    const onA = await storage.links.get("guide");
    const onB = await storage.links.get(linkKey("b.example", "guide"));
    expect(onB!.totalClicks - onA!.totalClicks).toBe(2);
    expect(onA!.domain).toBe("");
    expect(onB!.domain).toBe("b.example");
  } finally {
    await storage.close();
  }
});

test("another process makes another domain the default: within its refresh, each host answers its own link, none from the cache of the other", async () => {
  server = await startServer({ dir, args: ["--trust-proxy", "127.0.0.1"] });
  expect((await get("/guide", "a.example")).headers.location).toBe("https://one.example.net/a"); // cached under "guide"
  const storage = await openStorage(dbPath, { busyTimeoutMs: 5_000, password: null });
  try {
    const made = await storage.domains.makeDefault("b.example");
    expect(typeof made === "object" && "name" in made ? made.isDefault : made).toBe(true);
  } finally {
    await storage.close();
  }
  // b.example's links are stored as the default's now: its "guide" is the key "guide" the cache held for a.example.
  const onB = await eventually(async () => (await get("/guide", "b.example")).headers.location, (l) => l === "https://two.example.net/b", 20_000);
  expect(onB).toBe("https://two.example.net/b");
  expect((await get("/guide", "a.example")).headers.location).toBe("https://one.example.net/a");
});
