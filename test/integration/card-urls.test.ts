// A card page's og:url is the link's short URL as the API gives it (docs/sharing.md: Preview
// cards): --base-url, else what a trusted proxy forwards, never a hostile Host. Both engines
// (SHORTENER_TEST_ENGINE). And the Vary that keeps a cache from handing the card page to people.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { rawRequest } from "../support/raw-http.ts";
import { BROWSERS, LINK_PREVIEW_FETCHERS } from "../fixtures/user-agents.ts";

setDefaultTimeout(60_000);

const WHATSAPP = LINK_PREVIEW_FETCHERS.find((f) => f.name === "WhatsApp")!.ua;
const CHROME = BROWSERS.find((b) => b.name === "Chrome on Windows")!.ua!;
const meta = (html: string, key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1] ?? null;

let based: RunningServer;
let proxied: RunningServer;

beforeAll(async () => {
  [based, proxied] = await Promise.all([startServer({ args: ["--base-url", "https://s.example"] }), startServer({ args: ["--trust-proxy", "127.0.0.1"] })]);
  for (const s of [based, proxied]) {
    expect((await createLink(s.url, { url: "https://dest.example/cc", custom_url: "cc1", card_title: "Launch" })).status).toBe(201);
    expect((await createLink(s.url, { url: "https://dest.example/plain", custom_url: "plain1" })).status).toBe(201);
  }
});
afterAll(async () => {
  await Promise.all([based?.dispose(), proxied?.dispose()]);
});

const port = (s: RunningServer) => Number(new URL(s.url).port);
const get = (s: RunningServer, path: string, headers: string) =>
  rawRequest(port(s), `GET ${path} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`);

describe("a card's og:url", () => {
  test("--base-url names it, whatever Host the agent's request carries", async () => {
    const res = await get(based, "/cc1?x=1", `Host: evil.example\r\nUser-Agent: ${WHATSAPP}\r\n`);
    expect(res.status).toBe(200);
    expect(meta(res.body, "og:url")).toBe("https://s.example/cc1");
    expect(meta(res.body, "og:site_name")).toBe("s.example");
    expect(res.body).not.toContain("evil.example");
  });

  test("behind a trusted proxy: the scheme and host it forwards, as the API shows the link", async () => {
    const res = await get(proxied, "/cc1", `Host: 127.0.0.1:${port(proxied)}\r\nX-Forwarded-Proto: https\r\nX-Forwarded-Host: s.example\r\nUser-Agent: ${WHATSAPP}\r\n`);
    expect(res.status).toBe(200);
    expect(meta(res.body, "og:url")).toBe("https://s.example/cc1");
    expect(meta(res.body, "og:site_name")).toBe("s.example");
    // The page is kept per short URL: reached directly afterwards, it names the direct URL again.
    const direct = await get(proxied, "/cc1", `Host: 127.0.0.1:${port(proxied)}\r\nUser-Agent: ${WHATSAPP}\r\n`);
    expect(meta(direct.body, "og:url")).toBe(`http://127.0.0.1:${port(proxied)}/cc1`);
  });
});

describe("Vary: User-Agent", () => {
  test("on the card page; a carded link's redirect is no-store, so no cache can hand it to an agent", async () => {
    const agent = await fetch(`${based.url}/cc1`, { redirect: "manual", headers: { "user-agent": WHATSAPP } });
    expect(agent.status).toBe(200);
    expect(agent.headers.get("vary")).toBe("User-Agent");
    const person = await fetch(`${based.url}/cc1`, { redirect: "manual", headers: { "user-agent": CHROME } });
    expect([person.status, person.headers.get("cache-control")]).toEqual([302, "no-store, max-age=0"]);
    const plain = await fetch(`${based.url}/plain1`, { redirect: "manual", headers: { "user-agent": CHROME } });
    expect([plain.status, plain.headers.get("vary")]).toEqual([302, null]);
  });
});
