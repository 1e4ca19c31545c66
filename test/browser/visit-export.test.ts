// "Export visits" in the browser (docs/statistics.md: Exporting visits): on the dashboard it downloads
// every visit the signed-in owner sees (never another owner's), on a link's stats page it is offered
// to the owner only and takes the page's bots filter; the downloaded files' rows are read back. Axe
// with each menu open; screenshots under test-artifacts/screenshots.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { api, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { parseCsv } from "../../src/util/csv.ts";
import { click, guardedPage, launchBrowser, screenshot, seriousViolations, UA } from "./browser.ts";
import { signedIn } from "./dashboard-support.ts";

setDefaultTimeout(90_000);

let s: RunningServer;
let browser: Browser;
let owner: string;

beforeAll(async () => {
  [s, browser] = await Promise.all([startServer({ args: ["--create-rate-limit", "0"] }), launchBrowser()]);
  owner = makeKey(s.dbPath, "owner", "create");
  const other = makeKey(s.dbPath, "other", "create");
  expect((await api(s.url, owner, "POST", "/api/create", { url: "https://example.com/own", custom_url: "bx-own" })).status).toBe(201);
  expect((await api(s.url, other, "POST", "/api/create", { url: "https://example.com/other", custom_url: "bx-other" })).status).toBe(201);
  await click(s.url, "bx-own", [{ ua: UA.chromeWindows }, { ua: UA.firefoxLinux, referrer: "https://news.example.org/a" }, { ua: UA.googlebot }]);
  await click(s.url, "bx-other", [{ ua: UA.safariIphone }]);
});
afterAll(async () => {
  await browser?.close();
  await s?.dispose();
});

/** Opens the menu, chooses the item, and returns the downloaded file's text. */
async function download(page: Page, opener: string, item: string): Promise<string> {
  await page.click(opener);
  await page.waitForSelector(`${item}:visible`);
  const [file] = await Promise.all([page.waitForEvent("download"), page.click(item)]);
  return readFileSync((await file.path())!, "utf8");
}

test("the dashboard downloads every visit of the owner's links, CSV; none of another owner's", async () => {
  const g = await signedIn(browser, s.url, owner);
  const { page } = g;
  await page.click("#export-open");
  await page.waitForSelector("#visits-export-jsonl:visible");
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, "visit-export-dashboard-menu", false);
  await page.keyboard.press("Escape");
  const rows = parseCsv(await download(page, "#export-open", "#visits-export-csv"));
  expect(rows[0]!.slice(0, 4)).toEqual(["visitId", "timestamp", "link", "domain"]);
  const link = rows[0]!.indexOf("link");
  const browserCol = rows[0]!.indexOf("browser");
  expect(rows.slice(1).map((r) => r[link])).toEqual(["bx-own", "bx-own", "bx-own"]);
  expect(rows.slice(1).map((r) => r[browserCol]).slice(0, 2)).toEqual(["Chrome", "Firefox"]);
  expect(g.errors).toEqual([]);
  await g.context.close();
});

test("the dashboard's one Export menu: links, a separator, visits; the admin's toolbar stays on one row at 1280 px", async () => {
  const g = await signedIn(browser, s.url, makeKey(s.dbPath, "toolbar-admin"));
  const { page } = g;
  await page.waitForSelector("#domains-open:visible");
  const tops = await page.$$eval(".dash-actions > .btn", (buttons) => buttons.filter((b) => (b as HTMLElement).offsetParent !== null).map((b) => Math.round(b.getBoundingClientRect().top)));
  expect(tops.length).toBeGreaterThanOrEqual(5);
  expect(new Set(tops).size).toBe(1);
  await page.click("#export-open");
  await page.waitForSelector("#visits-export-csv:visible");
  const items = await page.$$eval("#export-menu > *", (els) => els.map((e) => e.getAttribute("role") === "separator" ? "|" : e.getAttribute("href")));
  expect(items).toEqual(["/api/links/export?format=csv", "/api/links/export?format=json", "|", "/api/visits/export?format=csv", "/api/visits/export?format=jsonl"]);
  expect(await seriousViolations(page)).toEqual([]);
  expect(g.errors).toEqual([]);
  await g.context.close();
});

test("a link's stats page: hidden from a visitor; for its owner, JSON lines with the page's bots filter", async () => {
  const anon = await guardedPage(browser);
  await anon.page.goto(`${s.url}/en/stats/bx-own`);
  await anon.page.waitForLoadState("networkidle");
  expect(await anon.page.isHidden("#visit-export")).toBe(true);
  await anon.context.close();

  const g = await signedIn(browser, s.url, owner);
  const { page } = g;
  await page.goto(`${s.url}/en/stats/bx-own`);
  await page.waitForSelector("#visit-export-open:visible");
  const all = (await download(page, "#visit-export-open", "#visit-export-jsonl")).split("\n").filter(Boolean).map((l) => JSON.parse(l));
  expect(all.map((v) => [v.link, v.isBot])).toEqual([["bx-own", false], ["bx-own", false], ["bx-own", true]]);
  await page.check("#exclude-bots");
  await page.click("#visit-export-open");
  await page.waitForSelector("#visit-export-csv:visible");
  expect(await page.getAttribute("#visit-export-csv", "href")).toContain("bots=exclude");
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, "visit-export-stats-menu", false);
  await page.keyboard.press("Escape");
  const humans = parseCsv(await download(page, "#visit-export-open", "#visit-export-csv"));
  expect(humans).toHaveLength(3);
  expect(humans.slice(1).map((r) => r[humans[0]!.indexOf("isBot")])).toEqual(["false", "false"]);
  expect(g.errors).toEqual([]);
  await g.context.close();
});
