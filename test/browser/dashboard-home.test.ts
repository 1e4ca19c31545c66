// Sessions beyond the dashboard: the home page of a signed-in owner lists their recent links and
// creates links that are theirs; under --create-access key the form asks to sign in first (and
// comes back after); under --stats-access key the private stats page offers the sign-in.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import { MESSAGES } from "../../web/i18n/index.ts";
import { api, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { signedIn } from "./dashboard-support.ts";

setDefaultTimeout(90_000);

let open: RunningServer;
let closed: RunningServer;
let browser: Browser;
const en = MESSAGES.en;

beforeAll(async () => {
  [open, closed, browser] = await Promise.all([
    startServer({ args: ["--create-rate-limit", "0"] }),
    startServer({ args: ["--create-access", "key", "--stats-access", "key"] }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([open?.dispose(), closed?.dispose()]);
});

describe("the home page with a session", () => {
  test("signed in: 'Your recent links' shows the last five; a link made here joins them and is the key's own", async () => {
    const key = makeKey(open.dbPath, "home-owner", "create");
    for (let i = 1; i <= 6; i++) await api(open.url, key, "POST", "/api/create", { url: `https://example.com/r${i}`, custom_url: `recent-${i}` });
    // Signed out, there is no such list.
    const anon = await guardedPage(browser);
    await anon.page.goto(`${open.url}/en/`);
    await anon.page.waitForLoadState("networkidle");
    expect(await anon.page.isHidden("#recent")).toBe(true);
    await anon.context.close();

    const g = await signedIn(browser, open.url, key);
    const { page } = g;
    await page.goto(`${open.url}/en/`);
    await page.waitForSelector("#recent:not([hidden])");
    expect(await page.locator("#recent-links .recent-id").allTextContents()).toEqual(["/recent-6", "/recent-5", "/recent-4", "/recent-3", "/recent-2"]);
    expect(await page.getAttribute("#recent-links li:first-child .recent-id", "href")).toBe("/en/stats/recent-6");
    expect(await page.getAttribute("#recent a[href='/en/links']", "href")).toBe("/en/links");
    await page.fill("#url", "https://example.com/made-at-home");
    await page.fill("#custom_url", "made-at-home");
    await page.click("#submit");
    await page.waitForSelector("#result:not([hidden])");
    await page.waitForFunction(() => document.querySelector("#recent-links .recent-id")?.textContent === "/made-at-home");
    // Made with the session, it belongs to the signed-in key.
    expect((await api(open.url, key, "GET", "/api/links/made-at-home")).status).toBe(200);
    expect(await hasHorizontalScroll(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "home-recent-desktop-light");
    expect(g.errors).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });

  test("--create-access key, not signed in: the form asks to sign in instead of failing, and comes back after", async () => {
    const key = makeKey(closed.dbPath, "owner");
    const g = await guardedPage(browser, { viewport: { width: 360, height: 800 } });
    const { page } = g;
    await page.goto(`${closed.url}/en/`);
    await page.waitForSelector("#signin-needed:not([hidden])");
    expect(await page.isHidden("#submit")).toBe(true);
    expect(await page.isDisabled("#url")).toBe(true);
    expect(await page.textContent("#signin-needed p")).toBe(en.signin_to_create);
    expect(await hasHorizontalScroll(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "home-signin-needed-phone-light");
    await page.click("#signin-needed a");
    await page.waitForURL(`${closed.url}/en/links?next=%2Fen%2F`);
    await page.fill("#sign-in-key", key);
    await page.press("#sign-in-key", "Enter");
    await page.waitForURL(`${closed.url}/en/`);
    await page.waitForSelector("#recent:not([hidden])");
    expect(await page.isHidden("#signin-needed")).toBe(true);
    await page.fill("#url", "https://example.com/after-sign-in");
    await page.click("#submit");
    await page.waitForSelector("#result:not([hidden])");
    expect(await page.textContent("#short-url")).toMatch(new RegExp(`^${closed.url}/[A-Za-z0-9]{7}$`));
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("--stats-access key: the private stats page offers the sign-in, which leads back to the stats", async () => {
    const key = makeKey(closed.dbPath, "stats-owner");
    await api(closed.url, key, "POST", "/api/create", { url: "https://example.com/private", custom_url: "private-one" });
    const g = await guardedPage(browser);
    const { page } = g;
    const res = await page.goto(`${closed.url}/en/stats/private-one`);
    expect(res?.status()).toBe(401);
    expect(await page.textContent("h1")).toBe(en.stats_private_title);
    await page.click(`a[href^="/en/links?next="]`);
    await page.fill("#sign-in-key", key);
    await page.press("#sign-in-key", "Enter");
    await page.waitForURL(`${closed.url}/en/stats/private-one`);
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "0");
    expect(g.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
    // Only this service's own pages are followed after signing in, never another site.
    for (const next of ["//evil.example/", "https://evil.example/", "/en/links/../../evil"]) {
      const other = await guardedPage(browser);
      await other.page.goto(`${closed.url}/en/links?next=${encodeURIComponent(next)}`);
      await other.page.fill("#sign-in-key", key);
      await other.page.press("#sign-in-key", "Enter");
      await other.page.waitForSelector("#dashboard:not([hidden])");
      expect(new URL(other.page.url()).pathname).toBe("/en/links");
      expect(other.offHost).toEqual([]);
      await other.context.close();
    }
  });
});
