// GET /<id>: the redirect and what each click records, on a real server.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { click, drained, stats, UA, waitForClicks } from "../support/clicks.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
});
afterAll(() => server.dispose());

describe("redirect", () => {
  test("302 to the original URL with no-store caching", async () => {
    await createLink(server.url, { url: "https://example.com/landing", custom_url: "r-basic" });
    const res = await click(server.url, "r-basic");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://example.com/landing");
    expect(res.headers.get("cache-control")).toContain("no-store");
  });

  test("the click's query string adds to the destination's, never replacing one of its parameters, keeping its fragment", async () => {
    await createLink(server.url, { url: "https://example.com/p?a=1&utm_source=own#top", custom_url: "r-merge" });
    const res = await click(server.url, "r-merge?utm_source=news&b=2");
    expect(res.headers.get("location")).toBe("https://example.com/p?a=1&utm_source=own&b=2#top");
    const plain = await click(server.url, "r-merge");
    expect(plain.headers.get("location")).toBe("https://example.com/p?a=1&utm_source=own#top");
  });

  test("a stored non-ASCII URL is sent as a valid ASCII Location", async () => {
    await createLink(server.url, { url: "https://bücher.example/straße?q=ü", custom_url: "r-iri" });
    const res = await click(server.url, "r-iri");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%BC");
  });

  test("unknown ids and junk paths are an HTML 404", async () => {
    for (const path of ["nope-not-here", "x", "a".repeat(5000), "..%2F..%2Fetc", "%zz", "ab.cd"]) {
      const res = await click(server.url, path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("text/html");
      await res.text();
    }
  });

  test("HEAD answers like GET but is not counted", async () => {
    await createLink(server.url, { url: "https://example.com/head", custom_url: "r-head" });
    const head = await click(server.url, "r-head", {}, "HEAD");
    expect(head.status).toBe(302);
    expect(head.headers.get("location")).toBe("https://example.com/head");
    await click(server.url, "r-head", { "user-agent": UA.firefoxLinux });
    const body = await waitForClicks(server.url, "r-head", 1);
    await drained(server.url); // a HEAD would have been written by now
    expect((await stats(server.url, "id=r-head")).data.stats.totalClicks).toBe(1);
    expect(body.data.stats.browserStats).toEqual([{ name: "Firefox", count: 1 }]);
  });
});

describe("what a click records", () => {
  test("browser, OS, device, referrer host, UTM, bot flag", async () => {
    await createLink(server.url, { url: "https://example.com/rec?utm_medium=email", custom_url: "r-rec" });
    await click(server.url, "r-rec?utm_source=newsletter&utm_campaign=launch", { "user-agent": UA.chromeWindows, referer: "https://www.google.com/search?q=secret" });
    await click(server.url, "r-rec", { "user-agent": UA.safariIphone, referer: "https://news.ycombinator.com/item?id=1" });
    await click(server.url, "r-rec", { "user-agent": UA.googlebot });
    await click(server.url, "r-rec", { "user-agent": UA.slack });
    await click(server.url, "r-rec", { "user-agent": "" });
    const body = await waitForClicks(server.url, "r-rec", 5);
    const s = body.data.stats;
    expect(s.totalClicks).toBe(5);
    expect(s.humanClicks).toBe(2);
    expect(s.botPercentage).toBe(60);
    expect(s.browserStats).toContainEqual({ name: "Chrome", count: 1 });
    expect(s.browserStats).toContainEqual({ name: "Safari", count: 1 });
    expect(s.osStats).toContainEqual({ name: "Windows", count: 1 });
    expect(s.osStats).toContainEqual({ name: "iOS", count: 1 });
    expect(s.deviceStats).toContainEqual({ name: "mobile", count: 1 });
    expect(s.referrerStats).toContainEqual({ name: "google.com", count: 1 });
    expect(s.referrerStats).toContainEqual({ name: "news.ycombinator.com", count: 1 });
    expect(s.referrerStats).toContainEqual({ name: "Direct", count: 3 });
    expect(s.utmStats).toContainEqual({ source: "newsletter", medium: "email", campaign: "launch", count: 1 });
    expect(s.utmStats).toContainEqual({ source: null, medium: "email", campaign: null, count: 4 });
    // Loopback has no country: never guessed.
    expect(s.countryStats).toEqual([{ name: "Unknown", count: 5 }]);
    expect(s.recentVisits).toHaveLength(5);
    expect(s.recentVisits.filter((v: any) => v.isBot)).toHaveLength(3);
    // Nothing of the referrer but its host is kept.
    expect(JSON.stringify(body)).not.toContain("secret");
  });

  test("a bot is counted under its name: the browser breakdown and recent visits say Googlebot, Slackbot, Facebook", async () => {
    await createLink(server.url, { url: "https://example.com/bots", custom_url: "r-bots" });
    const googlebotSmartphone = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.129 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    for (const ua of [UA.googlebot, googlebotSmartphone, UA.slack, "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", UA.chromeWindows]) {
      await click(server.url, "r-bots", { "user-agent": ua });
    }
    const s = (await waitForClicks(server.url, "r-bots", 5)).data.stats;
    expect(s.browserStats).toEqual([
      { name: "Googlebot", count: 2 },
      { name: "Chrome", count: 1 },
      { name: "Facebook", count: 1 },
      { name: "Slackbot", count: 1 },
    ]);
    // The smartphone crawler keeps its system and device.
    expect(s.osStats).toContainEqual({ name: "Android", count: 1 });
    expect(s.recentVisits.map((v: any) => [v.browser, v.isBot]).sort()).toEqual([
      ["Chrome", false], ["Facebook", true], ["Googlebot", true], ["Googlebot", true], ["Slackbot", true],
    ]);
    expect((await stats(server.url, "id=r-bots&bots=exclude")).data.stats.browserStats).toEqual([{ name: "Chrome", count: 1 }]);
  });

  test("breakdowns are sorted by count, descending", async () => {
    await createLink(server.url, { url: "https://example.com/sort", custom_url: "r-sort" });
    for (const ua of [UA.firefoxLinux, UA.chromeWindows, UA.firefoxLinux, UA.firefoxLinux, UA.chromeWindows, UA.safariIphone]) {
      await click(server.url, "r-sort", { "user-agent": ua });
    }
    const s = (await waitForClicks(server.url, "r-sort", 6)).data.stats;
    expect(s.browserStats).toEqual([
      { name: "Firefox", count: 3 },
      { name: "Chrome", count: 2 },
      { name: "Safari", count: 1 },
    ]);
  });
});

describe("client address and proxies", () => {
  test("X-Forwarded-For from an untrusted peer is ignored", async () => {
    await createLink(server.url, { url: "https://example.com/xff", custom_url: "r-xff" });
    await click(server.url, "r-xff", { "user-agent": UA.firefoxLinux, "x-forwarded-for": "8.8.8.8", "x-real-ip": "8.8.8.8", "cf-connecting-ip": "8.8.8.8" });
    const s = (await waitForClicks(server.url, "r-xff", 1)).data.stats;
    expect(s.countryStats).toEqual([{ name: "Unknown", count: 1 }]);
  });

  test("from a trusted proxy, the rightmost untrusted X-Forwarded-For hop gives the country", async () => {
    const proxied = await startServer({ args: ["--trust-proxy", "127.0.0.1,10.0.0.0/8"] });
    try {
      await createLink(proxied.url, { url: "https://example.com/geo", custom_url: "r-geo" });
      // 1.1.1.1 is spoofed by the client; 8.8.8.8 reached our proxy chain (10.0.0.2 is trusted).
      await click(proxied.url, "r-geo", { "user-agent": UA.firefoxLinux, "x-forwarded-for": "1.1.1.1, 8.8.8.8, 10.0.0.2" });
      await click(proxied.url, "r-geo", { "user-agent": UA.firefoxLinux, "x-forwarded-for": "2a00:1450:4001:800::200e" });
      const s = (await waitForClicks(proxied.url, "r-geo", 2)).data.stats;
      expect(s.countryStats.find((c: any) => c.name === "US")?.count).toBe(1);
      expect(s.countryStats).toHaveLength(2);
      expect(s.countryStats.every((c: any) => /^[A-Z]{2}$/.test(c.name))).toBe(true);
    } finally {
      await proxied.dispose();
    }
  });
});
