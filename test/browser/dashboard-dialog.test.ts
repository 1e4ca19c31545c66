// The link dialog's fields laid out well (docs/web-ui.md: Web UI): at 1280 and 360 px, light and
// dark, and in every language, no select's option is cut off, no text is cut short, each control
// sits under its label and fills its field without being stretched, fields side by side line up
// (labels, then controls), and checkboxes sit beside their text; axe finds nothing serious.
// Screenshots of the dialog's top and of its Behaviour section.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { LANGUAGES } from "../../src/lang.ts";
import { madeLink, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { choose, closed, signedIn } from "./dashboard-support.ts";
import { layoutProblems } from "./dialog-layout.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;
let admin: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = makeKey(server.dbPath, "laptop");
  // Every field of the dialog in use, so its Behaviour section opens with all of it shown.
  await madeLink(server.url, admin, "everything", {
    password: "correct horse",
    expires_at: "2031-12-31",
    max_clicks: 500,
    tags: ["launch"],
    valid_from: "2031-06-01T08:00:00Z",
    fallback_url: "https://example.com/over",
    crawlable: true,
    redirect_type: 308,
    rules: [{ conditions: [{ type: "device", value: "mobile" }, { type: "query", key: "beta", value: "1" }], url: "https://example.com/m" }],
    variants: [{ url: "https://example.com/a", weight: 1 }, { url: "https://example.com/b", weight: 3 }],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

async function openEdit(page: Page): Promise<void> {
  await choose(page, "everything", "edit");
  await page.waitForSelector("#link-dialog[open] #lf-advanced[open]");
}

const problems = (page: Page) => page.evaluate(layoutProblems, "#link-dialog");

describe("the link dialog's fields", () => {
  for (const scheme of ["light", "dark"] as const) {
    for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
      test(`${device} ${scheme}: nothing cut off or out of line, with and without the redirect's warning; axe clean; screenshots`, async () => {
        const g = await signedIn(browser, server.url, admin, { viewport: { width, height: 900 }, colorScheme: scheme });
        const { page } = g;
        await openEdit(page);
        // 308: the permanent redirect's warning shows under the select.
        expect(await page.textContent("#lf-redirect-warning")).not.toBe("");
        expect(await problems(page)).toEqual([]);
        await screenshot(page, `dashboard-dialog-fields-${device}-${scheme}`, false);
        await page.evaluate(() => document.getElementById("lf-advanced")!.scrollIntoView({ block: "start" }));
        await screenshot(page, `dashboard-dialog-behaviour-${device}-${scheme}`, false);
        // The default code: no warning, and the field beside it taller than the select's.
        await page.selectOption("#lf-redirect", "302");
        expect(await page.textContent("#lf-redirect-warning")).toBe("");
        expect(await problems(page)).toEqual([]);
        // An error in a field of a row keeps the row in line (the error takes the hint's place).
        await page.fill("#lf-max", "0");
        await page.click("#lf-submit");
        await page.waitForSelector("#lf-max-error:not([hidden])");
        expect(await problems(page)).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await hasHorizontalScroll(page)).toBe(false);
        await page.keyboard.press("Escape");
        await closed(page, "link-dialog");

        // The new-link dialog, its Behaviour section opened by hand.
        await page.click("#new-link");
        await page.waitForSelector("#link-dialog[open]");
        await page.click("#lf-advanced > summary");
        expect(await problems(page)).toEqual([]);
        // The one console error is the 400 of the refused click limit above.
        expect(g.errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
        await g.context.close();
      });
    }
  }

  test("every language, desktop and phone: nothing cut off or out of line", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    const found: Record<string, string[]> = {};
    for (const lang of LANGUAGES) {
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.url}/${lang}/links`);
        await page.waitForSelector("#dashboard:not([hidden])");
        await page.waitForSelector('#links-body tr[data-id="everything"]');
        await openEdit(page);
        const seen = [...(await problems(page))];
        await page.selectOption("#lf-redirect", "302");
        seen.push(...(await problems(page)));
        if (seen.length > 0) found[`${lang} ${width}`] = seen;
      }
    }
    expect(found).toEqual({});
    expect(g.errors).toEqual([]);
    await g.context.close();
  });
});
