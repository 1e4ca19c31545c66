// The dashboard's "Move from…" dialog in Chromium: an admin picks Shlink (a local server answering
// as Shlink's API v3 does: test/support/peers/shlink.ts), gives its address and key, and watches
// the import run to its result; the list then shows the links. A create key does not see it.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import { MESSAGES } from "../../web/i18n/index.ts";
import { makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { shlinkShortUrl, shlinkVisit, shlinkVisitsKey, startShlink } from "../support/peers/shlink.ts";
import type { Peer } from "../support/peers/fault.ts";
import { launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { settled, shownIds, signedIn } from "./dashboard-support.ts";

setDefaultTimeout(90_000);
const en = MESSAGES.en;
let server: RunningServer;
let browser: Browser;
let shlink: Peer;

beforeAll(async () => {
  const visits = Array.from({ length: 40 }, (_, i) => shlinkVisit({ date: `2025-05-${String(1 + (i % 28)).padStart(2, "0")}T09:00:00+00:00`, userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0" }));
  [server, browser, shlink] = await Promise.all([
    // The Shlink here answers on a loopback address: the dashboard reaches it only with the flag.
    startServer({ args: ["--import-allow-private"] }),
    launchBrowser(),
    startShlink({
      apiKey: "the-shlink-key",
      shortUrls: [
        shlinkShortUrl({ shortCode: "moved-1", longUrl: "https://example.com/moved-1", tags: ["moved"], visitsSummary: { total: 40, nonBots: 40, bots: 0 } }),
        shlinkShortUrl({ shortCode: "moved-2", longUrl: "https://example.com/moved-2" }),
      ],
      visits: new Map([[shlinkVisitsKey("moved-1"), visits]]),
    }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await shlink?.close();
  await server?.dispose();
});

test("an admin moves links and their visits from Shlink through the dialog", async () => {
  const g = await signedIn(browser, server.url, makeKey(server.dbPath, "owner"));
  const { page } = g;
  await page.click("#migrate-open");
  await page.waitForSelector("#migrate-dialog[open]");
  // Only Shlink's fields show for Shlink; YOURLS's for YOURLS.
  expect(await page.isVisible("#migrate-source-db")).toBe(false);
  await page.selectOption("#migrate-from", "yourls");
  expect(await page.isVisible("#migrate-source-db")).toBe(true);
  expect(await page.isVisible("#migrate-api-key")).toBe(false);
  await page.selectOption("#migrate-from", "shlink");
  // Without the key the API says what is missing, in the dialog.
  await page.fill("#migrate-url", shlink.url);
  await page.click("#migrate-submit");
  await page.waitForSelector("#migrate-error:not([hidden])");
  expect(await page.textContent("#migrate-error")).toContain("API key is required");
  await page.fill("#migrate-api-key", "the-shlink-key");
  await page.click("#migrate-submit");
  await page.waitForFunction((done) => document.getElementById("migrate-status")?.textContent === done, en.migrate_done);
  const lines = await page.textContent("#migrate-lines");
  expect(lines).toContain("shlink: 2 links read; 2 created, 0 imported before, 0 skipped, 0 renamed.");
  expect(lines).toContain("40 visits imported.");
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, "migrate-dialog-done", false);
  await page.click("#migrate-dialog [data-close]");
  await settled(page);
  expect((await shownIds(page)).sort()).toEqual(["moved-1", "moved-2"]);
  // The one 400 was the missing key's, asked for above; nothing else went wrong in the page.
  expect(g.errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  expect(shlink.requests.every((r) => r.method === "GET")).toBe(true);
  await g.context.close();
});

test("a create key sees no such dialog", async () => {
  const g = await signedIn(browser, server.url, makeKey(server.dbPath, "creator", "create"));
  expect(await g.page.isVisible("#migrate-open")).toBe(false);
  await g.context.close();
});
