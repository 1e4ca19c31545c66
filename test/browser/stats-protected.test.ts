// A password-protected link's stats page, opened by someone who is not its owner (#33, docs/security.md:
// Security, "A protected link keeps its secrets") in a real browser: its counts, its variants named by place, a notice in every language
// of the UI where the destination would be, and no URL of the link anywhere in the page.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import { LANGUAGES } from "../../src/lang.ts";
import { MESSAGES } from "../../web/i18n/index.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { drained } from "../support/clicks.ts";
import { UA, guardedPage, launchBrowser, screenshot } from "./browser.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // Trusting the test's own address: each click comes from an address of its own.
  [server, browser] = await Promise.all([startServer({ args: ["--trust-proxy", "127.0.0.1"] }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe("the stats page of a password-protected link, opened by someone who is not its owner", () => {
  const DESTINATION = "https://hidden-destination.example/launch";
  const SPLIT = ["https://hidden-a.example/offer", "https://hidden-b.example/offer"];
  const secrets = [DESTINATION, ...SPLIT].flatMap((url) => [url, new URL(url).host]);

  beforeAll(async () => {
    const variants = JSON.stringify(SPLIT.map((url) => ({ url, weight: 1 })));
    const created = await createLink(server.url, { url: DESTINATION, custom_url: "locked", password: "open sesame", variants });
    if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
    // Clicks through the password (the header scripts send), from addresses of their own.
    for (const [i, ua] of [UA.firefoxLinux, UA.chromeWindows, UA.safariIphone].entries()) {
      const res = await fetch(`${server.url}/locked`, { redirect: "manual", headers: { "user-agent": ua, "x-forwarded-for": `203.0.113.${i + 1}`, "x-link-password": "open sesame" } });
      if (res.status !== 302) throw new Error(`click answered ${res.status}`);
    }
    await drained(server.url);
  });

  test("shows the counts and a notice in place of the destination; no URL anywhere in the page", async () => {
    const g = await guardedPage(browser);
    const { page } = g;
    expect((await page.goto(`${server.url}/en/stats/locked`))?.status()).toBe(200);
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "3");
    expect(await page.textContent("#original-url")).toBe(MESSAGES.en.stats_protected);
    const variants = await page.locator("#bd-variant li").allTextContents();
    expect(variants.length).toBeGreaterThan(0);
    for (const row of variants) expect(row).toMatch(/^Variant [12]\d+(\.\d)?%$/); // name, count, share
    const column = await page.locator("#recent-table tbody tr td:last-child").allTextContents();
    expect(column.every((cell) => /^Variant [12]$/.test(cell))).toBe(true);
    const html = await page.content();
    expect(secrets.filter((s) => html.includes(s))).toEqual([]);
    await screenshot(page, "stats-protected-desktop-light");
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("the notice is in every language of the UI", async () => {
    const g = await guardedPage(browser);
    for (const lang of LANGUAGES) {
      await g.page.goto(`${server.url}/${lang}/stats/locked`);
      await g.page.waitForFunction(() => document.getElementById("kpi-total")?.textContent !== "–");
      expect({ lang, notice: await g.page.textContent("#original-url") }).toEqual({ lang, notice: MESSAGES[lang].stats_protected });
    }
    expect(g.errors).toEqual([]);
    await g.context.close();
  });
});
