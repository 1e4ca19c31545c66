// Share links in the browser (docs/statistics.md: Sharing statistics), under --stats-access key: the
// dashboard's "Share statistics" dialog makes one (its URL shown once, copied), lists and revokes
// it; the shared page, opened with no session, shows the link's figures and never a protected
// link's destination, and opens no live stream. Screenshots: the dialog, the shared page; axe clean.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { madeLink, makeKey } from "../support/admin.ts";
import { drained } from "../support/clicks.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { click, guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations, UA } from "./browser.ts";
import { choose, closed, signedIn } from "./dashboard-support.ts";
import { MESSAGES } from "../../web/i18n/index.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;
let owner: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ args: ["--stats-access", "key", "--create-rate-limit", "0"] }), launchBrowser()]);
  owner = makeKey(server.dbPath, "owner", "create");
  await madeLink(server.url, owner, "quarterly", { title: "Quarterly report" });
  await madeLink(server.url, owner, "vault", { url: "https://hidden.example.net/plans", title: "Secret plans", password: "open sesame" });
  await click(server.url, "quarterly", [{ ua: UA.chromeWindows }, { ua: UA.firefoxLinux }, { ua: UA.safariIphone }]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

/** Makes a share through the dialog of the link's row; the URL it shows once. */
async function madeInDialog(page: Page, id: string, label: string): Promise<string> {
  await choose(page, id, "share");
  await page.waitForSelector("#share-dialog[open]");
  await page.waitForSelector("#share-empty:not([hidden])");
  await page.fill("#share-label", label);
  await page.fill("#share-expires", "2099-12-31T18:00");
  await page.click("#share-submit");
  await page.waitForSelector("#share-made:not([hidden])");
  await page.waitForFunction(() => document.querySelectorAll("#share-table tbody tr").length === 1);
  return (await page.textContent("#share-url")) ?? "";
}

test("the dialog makes a share (URL shown once, copied), lists it and revokes it; axe clean", async () => {
  const g = await signedIn(browser, server.url, owner, { permissions: ["clipboard-read", "clipboard-write"] });
  const { page } = g;
  const url = await madeInDialog(page, "quarterly", "The board");
  expect(url).toMatch(new RegExp(`^${server.url}/stats/shared/[A-Za-z0-9_-]{43}$`));
  await page.click("#share-copy");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  const cells = await page.$$eval("#share-table tbody td", (tds) => tds.map((td) => td.textContent));
  expect(cells[0]).toBe("The board");
  expect(cells[2]).toContain("2099");
  expect(cells[3]).toBe("Not used yet");
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, "share-dialog", false);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await hasHorizontalScroll(page)).toBe(false);
  await screenshot(page, "share-dialog-phone", false);
  // The token opens the statistics until it is revoked.
  expect((await fetch(url.replace("/stats/shared/", "/api/stats/shared/"))).status).toBe(200);
  await page.click("#share-table tbody button");
  await page.waitForSelector("#share-empty:not([hidden])");
  expect((await fetch(url.replace("/stats/shared/", "/api/stats/shared/"))).status).toBe(404);
  await page.keyboard.press("Escape");
  await closed(page, "share-dialog");
  expect(g.errors).toEqual([]);
  await g.context.close();
}, 120_000);

test("the shared page, with no session: the link's figures, no live stream; a protected link's destination hidden; axe clean", async () => {
  const owned = await signedIn(browser, server.url, owner);
  const open = await madeInDialog(owned.page, "quarterly", "Agency");
  await owned.page.keyboard.press("Escape");
  const guarded = await madeInDialog(owned.page, "vault", "Auditor");
  await owned.context.close();
  await drained(server.url);

  const g = await guardedPage(browser);
  const { page } = g;
  const asked: string[] = [];
  page.on("request", (r) => asked.push(new URL(r.url()).pathname));
  await page.goto(open);
  await page.waitForFunction(() => document.getElementById("kpi-total")!.textContent === "3");
  expect(await page.textContent("#stats-heading")).toContain("Quarterly report");
  expect(await page.isVisible("#stats-shared")).toBe(true);
  expect(asked.some((p) => p.startsWith("/api/stats/live"))).toBe(false);
  expect(asked.some((p) => p === "/api/stats")).toBe(false);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, "share-page");

  await page.goto(guarded);
  await page.waitForSelector("#stats-empty:not([hidden])");
  const text = (await page.textContent("body")) ?? "";
  expect(text).not.toContain("hidden.example.net");
  expect(text).not.toContain("Secret plans");
  expect(await page.isVisible("#original-url .protected-note")).toBe(true);
  // No visit yet: the lead speaks to a reader and offers no QR code, which a shared page does not show.
  expect(await page.textContent("#empty-lead-active")).toBe(MESSAGES.en["share.empty_lead"]);
  expect(await page.locator("#stats-empty img, #stats-empty .qr-panel").count()).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, "share-page-protected");
  expect(g.errors).toEqual([]);
  expect(g.offHost).toEqual([]);
  await g.context.close();

  // On a phone in dark mode: nothing wider than the screen, axe clean, with figures and without.
  const phone = await guardedPage(browser, { viewport: { width: 390, height: 800 }, colorScheme: "dark" });
  for (const [url, ready, name] of [[open, "#kpi-total-prev:not([hidden])", "share-page-phone-dark"], [guarded, "#stats-empty:not([hidden])", "share-page-protected-phone-dark"]] as const) {
    await phone.page.goto(url);
    await phone.page.waitForSelector(ready);
    expect(await hasHorizontalScroll(phone.page)).toBe(false);
    expect(await seriousViolations(phone.page)).toEqual([]);
    await screenshot(phone.page, name);
  }
  expect(phone.errors).toEqual([]);
  await phone.context.close();
}, 120_000);
