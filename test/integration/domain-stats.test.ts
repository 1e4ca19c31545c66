// Statistics per domain (#37, docs/api.md: Read statistics) against the real service, on either
// engine: the same alias on two domains has two links whose clicks are counted apart; each is read
// by ?domain= on the main domain and by its own host; an unknown ?domain= is a 400 naming the field;
// the stats page finds the link of its host or of ?domain=, and writes its short URL on its domain;
// the live view of a link on a second domain gets its visits, never the other domain's same alias.

import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { UA, drained } from "../support/clicks.ts";
import { onHost, serverWithDomains } from "../support/domains.ts";
import { closeStreams, liveStream } from "../support/live-stream.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

let server: RunningServer;

async function clickOn(host: string, alias: string): Promise<void> {
  const res = await onHost(server, host, `/${alias}`, { headers: { "User-Agent": UA.firefoxLinux } });
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`click on ${host}/${alias} answered ${res.status}`);
}

async function statsOn(host: string, query: string): Promise<{ status: number; body: any }> {
  const res = await onHost(server, host, `/api/stats?${query}`);
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  server = await serverWithDomains(
    [{ name: "a.example", isDefault: true }, { name: "b.example", https: false }],
    [
      { url: "https://one.example.org/", alias: "same" },
      { url: "https://two.example.org/", alias: "same", domain: "b.example" },
      { url: "https://only-b.example.org/", alias: "onlyb", domain: "b.example" },
    ],
  );
  // Two clicks of a.example's "same", one of b.example's.
  await clickOn("a.example", "same");
  await clickOn("a.example", "same");
  await clickOn("b.example", "same");
  await drained(server.url);
}, 60_000);

afterEach(closeStreams);

afterAll(async () => {
  await server?.dispose();
});

describe("GET /api/stats on several domains", () => {
  test("the same alias on two domains: each link's own clicks, read by ?domain= on the main domain", async () => {
    const a = await statsOn("a.example", "id=same");
    expect(a.status).toBe(200);
    expect(a.body.data.link).toMatchObject({ id: "same", domain: "a.example", totalClicks: 2 });
    expect(a.body.data.stats.totalClicks).toBe(2);
    const b = await statsOn("a.example", "id=same&domain=b.example");
    expect(b.status).toBe(200);
    expect(b.body.data.link).toMatchObject({ id: "same", domain: "b.example", totalClicks: 1 });
    expect(b.body.data.stats.totalClicks).toBe(1);
    // The domain's name in any case, as a client may type it.
    expect((await statsOn("a.example", "id=same&domain=B.Example")).body.data.link.domain).toBe("b.example");
  });

  test("on a short domain, without ?domain=, the link of that domain", async () => {
    const b = await statsOn("b.example", "id=same");
    expect(b.status).toBe(200);
    expect(b.body.data.link).toMatchObject({ id: "same", domain: "b.example", totalClicks: 1 });
    // An alias only b.example has is not the main domain's.
    expect((await statsOn("a.example", "id=onlyb")).status).toBe(404);
    expect((await statsOn("b.example", "id=onlyb")).status).toBe(200);
    // A link is named by alias and domain apart: an id that spells a key (alias@domain) is none.
    expect((await statsOn("a.example", `id=${encodeURIComponent("onlyb@b.example")}`)).status).toBe(404);
  });

  test("a ?domain= that names no domain here: 400 domain_unknown on the field domain", async () => {
    const res = await statsOn("a.example", "id=same&domain=c.example");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: "domain_unknown", field: "domain" });
  });
});

describe("the stats page on several domains", () => {
  test("its short URL is on the link's domain, and its language links keep ?domain=", async () => {
    const res = await onHost(server, "a.example", "/en/stats/same?domain=b.example");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<span id="short-url" class="break">http://b.example/same</span>');
    expect(html).toContain('href="/de/stats/same?domain=b.example"');
  });

  test("on its own host, the page of that domain's link; an unknown domain's page is not found", async () => {
    const own = await onHost(server, "b.example", "/en/stats/onlyb");
    expect(own.status).toBe(200);
    expect(await own.text()).toContain("http://b.example/onlyb");
    expect((await onHost(server, "a.example", "/en/stats/onlyb")).status).toBe(404);
    expect((await onHost(server, "a.example", "/en/stats/same?domain=c.example")).status).toBe(404);
  });

  test("/stats/<id> keeps ?domain= in its redirect to the language's page", async () => {
    const res = await onHost(server, "a.example", "/stats/same?domain=b.example", { headers: { "Accept-Language": "en" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/en/stats/same?domain=b.example");
  });
});

describe("the live view on several domains", () => {
  test("a link on the second domain, by ?domain= on the main one: its visits, named by alias and domain, not the default's same alias", async () => {
    const stream = await liveStream(server.url, "?id=same&domain=b.example", { Host: "a.example" });
    expect(stream.status).toBe(200);
    expect((await stream.next("ready", 5_000))?.data).toEqual({ id: "same", domain: "b.example", totalClicks: 1, humanClicks: 1 });
    // The main domain's "same" first: had its visit come to this stream, it would come before b's.
    await clickOn("a.example", "same");
    await clickOn("b.example", "same");
    const visit = await stream.next("visit", 10_000);
    expect(visit?.data).toMatchObject({ id: "same", domain: "b.example" });
    await drained(server.url);
    expect(stream.all("visit")).toHaveLength(1);
  });

  test("on its own host, without ?domain=, that domain's link", async () => {
    const stream = await liveStream(server.url, "?id=onlyb", { Host: "b.example" });
    expect(stream.status).toBe(200);
    expect((await stream.next("ready", 5_000))?.data).toMatchObject({ id: "onlyb", domain: "b.example" });
    const unknown = await liveStream(server.url, "?id=same&domain=c.example", { Host: "a.example" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: "domain_unknown", field: "domain" });
  });
});

describe("metrics on several domains", () => {
  test("/metrics counts each configured domain's links, labelled by its name", async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    const lines = (await res.text()).split("\n").filter((l) => l.startsWith("shortener_domain_links"));
    expect(lines.sort()).toEqual(['shortener_domain_links{domain="a.example"} 1', 'shortener_domain_links{domain="b.example"} 2']);
  });
});

describe("an instance named only by --base-url (no domain added)", () => {
  test("its links' domain is the base URL's host, and ?domain= of that name reads them", async () => {
    const named = await startServer({ args: ["--base-url", "https://s.example.org"] });
    try {
      await createLink(named.url, { url: "https://example.com/", custom_url: "based" });
      const plain = (await (await fetch(`${named.url}/api/stats?id=based`)).json()) as any;
      expect(plain.data.link.domain).toBe("s.example.org");
      const res = await fetch(`${named.url}/api/stats?id=based&domain=S.Example.org`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).data.link).toMatchObject({ id: "based", domain: "s.example.org" });
      expect((await fetch(`${named.url}/api/stats?id=based&domain=other.example.org`)).status).toBe(400);
    } finally {
      await named.dispose();
    }
  });
});
