// The stats page's "Link previews" card (docs/sharing.md: Previews in the statistics) in a real
// browser against the real service: previews recorded as the card page records them are listed
// per agent, without a share of the clicks, apart from the clicks' figures; a link without previews
// shows no such card. Screenshots at desktop and phone widths, light and dark.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import { MESSAGES } from "../../web/i18n/index.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { PREVIEW_AGENTS, recordPreviews } from "../support/previews.ts";
import { UA, click, guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  for (const id of ["shared", "plain"]) {
    const created = await createLink(server.url, { url: `https://example.com/${id}`, custom_url: id });
    if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  }
  await recordPreviews(server, "shared", [UA.slack, UA.slack, UA.slack, PREVIEW_AGENTS.whatsapp, PREVIEW_AGENTS.whatsapp]);
  await click(server.url, "shared", [{ ua: UA.firefoxLinux }]);
  await click(server.url, "plain", [{ ua: UA.firefoxLinux }]);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

test("previews are listed per agent in their own card, not as clicks", async () => {
  const g = await guardedPage(browser);
  await g.page.goto(`${server.url}/en/stats/shared`);
  await g.page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "1");
  expect(await g.page.isVisible("#bd-preview-card")).toBe(true);
  expect(await g.page.textContent("#bd-preview-title")).toBe(MESSAGES.en.breakdown_preview);
  expect(await g.page.locator("#bd-preview li .bar-name").allTextContents()).toEqual(["Slackbot", "WhatsApp"]);
  expect(await g.page.locator("#bd-preview li .bar-count").allTextContents()).toEqual(["3", "2"]);
  expect(await g.page.locator("#bd-preview .bar-share").count()).toBe(0);
  expect(await g.page.locator("#bd-browser li .bar-name").allTextContents()).toEqual(["Firefox"]);
  expect(g.errors).toEqual([]);
  await g.context.close();
});

test("a link without previews shows no preview card", async () => {
  const g = await guardedPage(browser);
  await g.page.goto(`${server.url}/de/stats/plain`);
  await g.page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "1");
  expect(await g.page.isHidden("#bd-preview-card")).toBe(true);
  expect(await g.page.textContent("#bd-preview-title")).toBe(MESSAGES.de.breakdown_preview);
  await g.context.close();
});

for (const scheme of ["light", "dark"] as const) {
  for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
    test(`the preview card is accessible and fits at ${width} px in ${scheme} mode`, async () => {
      const g = await guardedPage(browser, { viewport: { width, height: 800 }, colorScheme: scheme });
      await g.page.goto(`${server.url}/en/stats/shared`);
      await g.page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "1");
      await g.page.locator("#bd-preview-card").scrollIntoViewIfNeeded();
      expect(await hasHorizontalScroll(g.page)).toBe(false);
      await screenshot(g.page, `stats-previews-${device}-${scheme}`);
      expect(await seriousViolations(g.page)).toEqual([]);
      expect(g.errors).toEqual([]);
      expect(g.offHost).toEqual([]);
      await g.context.close();
    });
  }
}
