// Issue #37: the dashboard's overview per domain (docs/web-ui.md: Overview): GET /api/overview
// counts every domain, or with ?domain=<name> that domain's links only, the same alias on two
// domains counted apart; an unknown name is 400 domain_unknown. The real service on both engines
// (SHORTENER_TEST_ENGINE), its domains and links written through the storage ports while stopped.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStorage } from "../../src/db/open-storage.ts";
import { DEFAULT_SETTINGS, type Domain } from "../../src/domains/domain.ts";
import { api, makeKey } from "../support/admin.ts";
import { drained } from "../support/clicks.ts";
import { rawRequest } from "../support/raw-http.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "shortener-overview-domains-"));
let server: RunningServer;
let admin: string;
let creator: string;
const domain = (name: string, isDefault = false): Domain => ({ ...DEFAULT_SETTINGS, name, isDefault, createdAt: 1 });

beforeAll(async () => {
  const first = await startServer({ dir });
  admin = makeKey(first.dbPath, "owner");
  creator = makeKey(first.dbPath, "maker", "create");
  const dbPath = first.dbPath;
  await first.stop();
  const storage = await openStorage(dbPath, { busyTimeoutMs: 5_000, password: null });
  try {
    await storage.domains.add(domain("a.example", true));
    await storage.domains.add(domain("b.example"));
    const now = Date.now();
    await storage.links.create({ url: "https://one.example.net/a", alias: "guide" }, now);
    await storage.links.create({ url: "https://two.example.net/b", alias: "guide", domain: "b.example" }, now);
    // The create key's: one link on each domain.
    const maker = (await storage.keys.list()).find((k) => k.name === "maker")!;
    await storage.links.create({ url: "https://two.example.net/quiet", alias: "quiet", domain: "b.example", ownerKeyId: maker.id }, now);
    await storage.links.create({ url: "https://one.example.net/mine", alias: "mine", ownerKeyId: maker.id }, now);
  } finally {
    await storage.close();
  }
  server = await startServer({ dir });
  // Clicks: guide on a.example three times, guide on b.example once.
  for (const host of ["a.example", "a.example", "a.example", "b.example"]) {
    const res = await rawRequest(server.port, `GET /guide HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0\r\nConnection: close\r\n\r\n`);
    if (res.status !== 302) throw new Error(`click on ${host}: ${res.status}`);
  }
  await drained(server.url);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const overview = async (query = "", key = admin) => (await api(server.url, key, "GET", `/api/overview${query}`)).body;
const figures = (body: { data: { links: number; clicksToday: number; top: { id: string; domain: string | null; clicks: number }[] } }) => ({
  links: body.data.links,
  today: body.data.clicksToday,
  top: body.data.top.map((t) => [t.domain, t.id, t.clicks]),
});

describe("GET /api/overview?domain=", () => {
  test("without a domain: every domain's links, each top link with its domain's name", async () => {
    expect(figures(await overview())).toEqual({ links: 4, today: 4, top: [["a.example", "guide", 3], ["b.example", "guide", 1]] });
  });

  test("one domain's links only, by its name (the default's too, in any case)", async () => {
    expect(figures(await overview("?domain=b.example"))).toEqual({ links: 2, today: 1, top: [["b.example", "guide", 1]] });
    expect(figures(await overview("?domain=A.Example"))).toEqual({ links: 2, today: 3, top: [["a.example", "guide", 3]] });
  });

  test("a create key: its own links of that domain only", async () => {
    expect(figures(await overview("?domain=b.example", creator))).toEqual({ links: 1, today: 0, top: [] });
    expect(figures(await overview("", creator))).toEqual({ links: 2, today: 0, top: [] });
  });

  test("a name no domain has: 400 domain_unknown on the field domain", async () => {
    const res = await api(server.url, admin, "GET", "/api/overview?domain=nowhere.example");
    expect(res.status).toBe(400);
    expect({ success: res.body.success, code: res.body.code, field: res.body.field }).toEqual({ success: false, code: "domain_unknown", field: "domain" });
  });
});
