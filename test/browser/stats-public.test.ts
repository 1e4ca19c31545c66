// Public statistics are said where they show (#34): on the stats page and on the home page's result
// card, in every language, and not under --stats-access key; and the pictures of the stats page's
// empty state and of the result card, light and dark, desktop and phone, checked by axe-core.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { LANGUAGES } from "../../src/lang.ts";
import { MESSAGES } from "../../web/i18n/index.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { seed } from "../support/seed.ts";
import { UA, click, guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations, type Guarded } from "./browser.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  await createLink(server.url, { url: "https://example.com/fresh", custom_url: "fresh" });
  await click(server.url, "fresh", [{ ua: UA.firefoxLinux }]);
  await seed(server, async ({ links }) => {
    await links.create({ url: "https://example.com/paused", alias: "paused" }, Date.now() - 86_400_000);
    await links.update("paused", { disabled: true });
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

/** Opens a stats page and waits for its first answer to be shown (figures or the empty state). */
async function open(g: Guarded, id: string, lang = "en"): Promise<Page> {
  await g.page.goto(`${server.url}/${lang}/stats/${id}`);
  // The page says "loading" in its own language, and the link's status fills in with the first answer.
  const loading = (MESSAGES as Record<string, { loading: string }>)[lang]!.loading;
  await g.page.waitForFunction(
    (text) => document.getElementById("updated")?.textContent !== text && document.getElementById("link-status")?.textContent !== "…",
    loading,
  );
  return g.page;
}

describe("public statistics are said where they show", () => {
  test("the stats page says so in every language", async () => {
    const g = await guardedPage(browser);
    for (const lang of LANGUAGES) {
      const page = await open(g, "fresh", lang);
      expect(await page.textContent("#stats-public")).toBe(MESSAGES[lang].stats_public_note);
      expect(await page.textContent("#link-status")).toBe(MESSAGES[lang].status_active);
    }
    await g.context.close();
  });

  test("the home page's result card says so, in every language; not under --stats-access key", async () => {
    const g = await guardedPage(browser);
    for (const lang of LANGUAGES) {
      await g.page.goto(`${server.url}/${lang}/`);
      await g.page.fill("#url", "https://example.com/told");
      await g.page.press("#url", "Enter");
      await g.page.waitForSelector("#result:not([hidden])");
      expect(await g.page.textContent("#result-public")).toBe(MESSAGES[lang].result_stats_public);
    }
    const closed = await startServer({ args: ["--stats-access", "key"] });
    try {
      await g.page.goto(`${closed.url}/en/`);
      await g.page.fill("#url", "https://example.com/untold");
      await g.page.press("#url", "Enter");
      await g.page.waitForSelector("#result:not([hidden])");
      expect(await g.page.locator("#result-public").count()).toBe(0);
    } finally {
      await closed.dispose();
    }
    expect(g.errors).toEqual([]);
    await g.context.close();
  });
});

describe("look", () => {
  for (const scheme of ["light", "dark"] as const) {
    for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
      test(`the empty state and the result card are accessible and fit at ${width} px in ${scheme} mode`, async () => {
        const g = await guardedPage(browser, { viewport: { width, height: 800 }, colorScheme: scheme });
        const page = await open(g, "paused");
        await page.waitForFunction(() => (document.getElementById("empty-qr-img") as HTMLImageElement).naturalWidth > 0);
        expect(await hasHorizontalScroll(page)).toBe(false);
        await screenshot(page, `stats-empty-${device}-${scheme}`);
        expect(await seriousViolations(page)).toEqual([]);
        await page.goto(`${server.url}/en/`);
        await page.fill("#url", "https://example.com/a/long/path/to/see/how/the/card/wraps");
        await page.press("#url", "Enter");
        await page.waitForFunction(() => (document.getElementById("qr-img") as HTMLImageElement).naturalWidth > 0);
        expect(await hasHorizontalScroll(page)).toBe(false);
        await screenshot(page, `home-result-${device}-${scheme}`);
        expect(await seriousViolations(page)).toEqual([]);
        expect(g.errors).toEqual([]);
        expect(g.offHost).toEqual([]);
        await g.context.close();
      });
    }
  }
});
