// Preview cards (docs/sharing.md: Preview cards): the real service, on both engines
// (SHORTENER_TEST_ENGINE). The listed link-preview agents get a link's card page; people, search
// crawlers and scripts get what they got before. Links are written through the storage ports while
// the service is stopped (the API takes card fields once part C of #40 lands), then it is started again.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStorage } from "../../src/db/open-storage.ts";
import { DEFAULT_SETTINGS } from "../../src/domains/domain.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { rawRequest } from "../support/raw-http.ts";
import { drained, stats } from "../support/clicks.ts";
import { BOTS, BROWSERS, LINK_PREVIEW_FETCHERS } from "../fixtures/user-agents.ts";

setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "shortener-cards-"));
let server: RunningServer;

const agent = (name: string) => LINK_PREVIEW_FETCHERS.find((f) => f.name === name)!.ua;
const WHATSAPP = agent("WhatsApp");
const DISCORD_PROXY = agent("Discord media proxy");
const IMESSAGE = agent("iMessage");
const CHROME = BROWSERS.find((b) => b.name === "Chrome on Windows")!.ua!;
const GOOGLEBOT = BOTS.find((b) => b.name === "Googlebot")!.ua!;
const CURL = BOTS.find((b) => b.name === "curl")!.ua!;
const CARD = { cardTitle: "Launch day", cardDescription: "All about it", cardImage: "https://img.example/card.png" };

beforeAll(async () => {
  const first = await startServer({ dir });
  const dbPath = first.dbPath;
  await first.stop();
  const storage = await openStorage(dbPath, { busyTimeoutMs: 5_000, password: null });
  try {
    const now = Date.now();
    // Two domains: the service reached by its address is the default one, b.example a domain of its own.
    await storage.domains.add({ ...DEFAULT_SETTINGS, name: "a.example", isDefault: true, createdAt: 1 });
    await storage.domains.add({ ...DEFAULT_SETTINGS, name: "b.example", isDefault: false, createdAt: 1 });
    await storage.links.create({ url: "https://dest.example/on-b", alias: "carded", domain: "b.example", ...CARD, cardTitle: "On b" }, now);
    await storage.links.create({ url: "https://dest.example/launch", alias: "carded", ...CARD }, now);
    await storage.links.create({ url: "https://dest.example/plain", alias: "plain" }, now);
    await storage.links.create({ url: "https://dest.example/off", alias: "off", ...CARD }, now);
    await storage.links.update("off", { disabled: true });
    await storage.links.create({ url: "https://dest.example/past", alias: "past", expiresAt: now - 60_000, ...CARD }, now);
    const passwordHash = await Bun.password.hash("open sesame");
    await storage.links.create(
      { url: "https://dest.example/hidden-place", alias: "secret", title: "Hidden page title", passwordHash, cardDescription: "Ask me for the password", cardImage: "https://img.example/lock.png" },
      now,
    );
    await storage.links.create({ url: "https://dest.example/titled", alias: "titled", title: "The link's own title", cardDescription: "Only a description" }, now);
    const rules = [{ conditions: [{ type: "device" as const, value: "desktop" as const }], url: "https://desk.example/" }];
    await storage.links.create({ url: "https://dest.example/ruled", alias: "ruled", rules, ...CARD }, now);
    await storage.links.create({ url: "https://dest.example/once", alias: "once", maxClicks: 1, ...CARD }, now);
    await storage.links.create({ url: "https://dest.example/once-plain", alias: "once-plain", maxClicks: 1 }, now);
  } finally {
    await storage.close();
  }
  server = await startServer({ dir });
});
afterAll(async () => {
  await server?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const click = (path: string, ua: string, method = "GET") => fetch(`${server.url}${path}`, { method, redirect: "manual", headers: { "user-agent": ua } });
const meta = (html: string, key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1] ?? null;

describe("a link with a card", () => {
  test("a preview agent's GET: 200 and the card page, with its headers, never the destination", async () => {
    for (const ua of [WHATSAPP, DISCORD_PROXY, IMESSAGE]) {
      const res = await click("/carded?utm_source=chat", ua);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'");
      expect(res.headers.get("x-robots-tag")).toBe("noindex");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.headers.get("location")).toBeNull();
      const html = await res.text();
      expect(meta(html, "og:title")).toBe("Launch day");
      expect(meta(html, "og:description")).toBe("All about it");
      expect(meta(html, "og:image")).toBe("https://img.example/card.png");
      expect(meta(html, "twitter:card")).toBe("summary_large_image");
      // the short URL it was reached by, without the click's query
      expect(meta(html, "og:url")).toBe(`${server.url}/carded`);
      expect(meta(html, "og:site_name")).toBe(new URL(server.url).host);
      expect(html).not.toContain("dest.example");
    }
  });

  test("on a domain of its own: that domain's short URL, whatever Host spelling reached it", async () => {
    for (const host of ["b.example", "B.Example:443"]) {
      const res = await rawRequest(server.port, `GET /carded?x=1 HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: ${WHATSAPP}\r\nConnection: close\r\n\r\n`);
      expect(res.status).toBe(200);
      expect(meta(res.body, "og:title")).toBe("On b");
      expect(meta(res.body, "og:url")).toBe("https://b.example/carded");
      expect(meta(res.body, "og:site_name")).toBe("b.example");
    }
  });

  test("an agent's HEAD: the card's headers, no body", async () => {
    const res = await click("/carded", WHATSAPP, "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toBe("");
  });

  test("people, Googlebot and curl get the redirect, as before", async () => {
    for (const ua of [CHROME, GOOGLEBOT, CURL]) {
      const res = await click("/carded", ua);
      expect([ua, res.status, res.headers.get("location")]).toEqual([ua, 302, "https://dest.example/launch"]);
    }
  });

  test("no own card title: the link's title (an unprotected link's)", async () => {
    const html = await (await click("/titled", WHATSAPP)).text();
    expect(meta(html, "og:title")).toBe("The link's own title".replace("'", "&#39;"));
    expect(meta(html, "twitter:card")).toBe("summary");
  });

  test("rules and a card: the card for agents, the rules for people", async () => {
    const card = await click("/ruled", WHATSAPP);
    expect(card.status).toBe(200);
    expect(meta(await card.text(), "og:title")).toBe("Launch day");
    const person = await click("/ruled", CHROME);
    expect([person.status, person.headers.get("location")]).toEqual([302, "https://desk.example/"]);
  });

  test("a password-protected link: the card without the destination or the link's title; people get the password page", async () => {
    const res = await click("/secret", WHATSAPP);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(meta(html, "og:title")).toBe(`${new URL(server.url).host}/secret`);
    expect(meta(html, "og:description")).toBe("Ask me for the password");
    expect(html).not.toContain("hidden-place");
    expect(html).not.toContain("dest.example");
    expect(html).not.toContain("Hidden page title");
    expect((await click("/secret", CHROME)).status).toBe(401);
  });
});

describe("a preview is no click", () => {
  test("a link limited to one click: previews take none of it, the one person's click does", async () => {
    for (let i = 0; i < 3; i++) expect((await click("/once", WHATSAPP)).status).toBe(200);
    expect((await click("/once", CHROME, "HEAD")).status).toBe(302);
    const person = await click("/once", CHROME);
    expect([person.status, person.headers.get("location")]).toEqual([302, "https://dest.example/once"]);
    expect((await click("/once", CHROME)).status).toBe(410);
    // spent: agents now get what people get
    expect((await click("/once", WHATSAPP)).status).toBe(410);
  });

  test("a limited link without a card: an agent's GET is a click, as before", async () => {
    expect((await click("/once-plain", WHATSAPP)).status).toBe(302);
    expect((await click("/once-plain", CHROME)).status).toBe(410);
  });
});

describe("previews in the statistics", () => {
  test("agents' fetches through the card page show in previewStats by agent, never as clicks; a person's click does", async () => {
    const slack = agent("Slackbot");
    await drained(server.url);
    const before = (await stats(server.url, "id=ruled")).data.stats;
    const counts = (s: { previewStats: { name: string; count: number }[] }) => Object.fromEntries(s.previewStats.map((p) => [p.name, p.count]));
    for (const ua of [WHATSAPP, WHATSAPP, slack]) expect((await click("/ruled", ua)).status).toBe(200);
    expect((await click("/ruled", slack, "HEAD")).status).toBe(200); // a HEAD is no preview either
    expect((await click("/ruled", CHROME)).status).toBe(302);
    await drained(server.url);
    const after = (await stats(server.url, "id=ruled")).data.stats;
    expect(after.totalClicks - before.totalClicks).toBe(1);
    const was = counts(before);
    const now = counts(after);
    expect({ WhatsApp: (now.WhatsApp ?? 0) - (was.WhatsApp ?? 0), Slackbot: (now.Slackbot ?? 0) - (was.Slackbot ?? 0) }).toEqual({ WhatsApp: 2, Slackbot: 1 });
  });
});

describe("agents get what people get", () => {
  test("a link without a card: the redirect", async () => {
    const res = await click("/plain", WHATSAPP);
    expect([res.status, res.headers.get("location")]).toEqual([302, "https://dest.example/plain"]);
  });

  test("a disabled or expired link: its 410, no card", async () => {
    for (const path of ["/off", "/past"]) {
      const person = await click(path, CHROME);
      const preview = await click(path, WHATSAPP);
      expect([path, preview.status]).toEqual([path, person.status]);
      expect(preview.status).toBe(410);
      expect(await preview.text()).not.toContain("og:title");
    }
  });

  test("an unknown link: its 404", async () => {
    expect((await click("/nothing-here", WHATSAPP)).status).toBe(404);
  });
});
