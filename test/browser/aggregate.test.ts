// Statistics above the single link in Chromium against the real service (docs/statistics.md: Tags
// and domains, Comparing, The previous period): a tag's page sums its links' figures, each beside
// the previous period; the comparison draws one line a tag with a row of figures each; the dashboard
// leads to the tag's page; a reader without a session is told to sign in. Axe on each page.
// Screenshots: aggregate-tag-{desktop,phone}-{light,dark}, aggregate-compare-{desktop,phone}-{light,dark}.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { MESSAGES } from "../../web/i18n/index.ts";
import { api, makeKey } from "../support/admin.ts";
import { drained } from "../support/clicks.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { signedIn, visit } from "./dashboard-support.ts";

setDefaultTimeout(90_000);
let server: RunningServer;
let browser: Browser;
let key: string;
const en = MESSAGES.en;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  key = makeKey(server.dbPath, "owner");
  for (const [alias, tags] of [["promo-one", ["promo"]], ["promo-two", ["promo", "mail"]], ["mail-one", ["mail"]]] as const) {
    const made = await api(server.url, key, "POST", "/api/create", { url: `https://example.org/${alias}`, custom_url: alias, tags });
    if (made.status !== 201) throw new Error(`create ${alias}: ${made.status}`);
  }
  // promo: 3 + 2 clicks; mail: 2 + 1.
  for (const [alias, n] of [["promo-one", 3], ["promo-two", 2], ["mail-one", 1]] as const) {
    for (let i = 0; i < n; i++) expect((await visit(server.url, alias)).status).toBe(302);
  }
  await drained(server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe("a tag's statistics", () => {
  test("the sum of its links, each figure beside the previous period; reached from the dashboard's tag filter", async () => {
    const g = await signedIn(browser, server.url, key);
    const { page } = g;
    await page.fill("#f-tag", "promo");
    await page.waitForSelector("#f-tag-stats:not([hidden])");
    expect(await page.getAttribute("#f-tag-stats", "href")).toBe("/en/stats/tag/promo");
    await page.click("#f-tag-stats");
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "5");
    expect(await page.textContent("#aggregate-links")).toBe(en["aggregate.links"].replace("{count}", "2"));
    // Every click is today's: the 30 days before had none, so each count is new.
    expect(await page.textContent("#kpi-total-prev")).toBe(en["aggregate.previous_line"].replace("{value}", "0").replace("{change}", en["aggregate.new"]));
    expect(await page.isVisible("#kpi-human-prev")).toBe(true);
    expect(await page.locator("#recent-table tbody tr").count()).toBe(5);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("a link's stats page shows the previous period beside each figure too", async () => {
    const g = await signedIn(browser, server.url, key);
    await g.page.goto(`${server.url}/en/stats/promo-one`);
    await g.page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "3");
    await g.page.waitForSelector("#kpi-unique-prev:not([hidden])");
    expect(await g.page.textContent("#kpi-total-prev")).toContain(en["aggregate.new"]);
    await g.context.close();
  });

  test("without a session: told to sign in, no figures", async () => {
    const g = await guardedPage(browser);
    await g.page.goto(`${server.url}/en/stats/tag/promo`);
    await g.page.waitForSelector("#stats-error:not([hidden])");
    expect(await g.page.textContent("#stats-error")).toBe(en["aggregate.sign_in"]);
    expect(await g.page.isVisible("#kpi-total")).toBe(false);
    await g.context.close();
  });
});

describe("comparing", () => {
  test("two tags: one line each, a row of figures each", async () => {
    const g = await signedIn(browser, server.url, key);
    await g.page.goto(`${server.url}/en/compare`);
    await g.page.check('input[name="kind"][value="tags"]');
    await g.page.fill("#compare-names", "promo, mail");
    await g.page.click('#compare-form button[type="submit"]');
    await g.page.waitForSelector("#compare-card:not([hidden])");
    const rows = await g.page.$$eval("#compare-table tbody tr", (trs) => trs.map((tr) => [tr.querySelector("th")?.textContent, tr.querySelector("td")?.firstChild?.textContent]));
    expect(rows).toEqual([["promo", "5"], ["mail", "3"]]);
    expect(await g.page.locator("#compare-chart .u-series").count()).toBe(3); // the date and two lines
    expect(new URL(g.page.url()).search).toBe("?tags=promo%2Cmail");
    expect(g.errors).toEqual([]);
    await g.context.close();
  });
});

/** Each series keyed by its own colour and dash, in the legend as in the table; each figure above its
 * previous period's line; the bots switch clear of the button. */
async function compareReadsApart(page: Page, scheme: "light" | "dark"): Promise<void> {
  const keys = await page.evaluate(() => {
    const css = getComputedStyle(document.documentElement);
    const lines = (root: string) => [...document.querySelectorAll(`${root} .compare-swatch line`)].map((l) => [l.getAttribute("stroke"), l.getAttribute("stroke-dasharray")]);
    return { legend: lines("#compare-chart"), table: lines("#compare-table"), vars: [1, 2].map((i) => css.getPropertyValue(`--compare-${i}`).trim()) };
  });
  expect(keys.legend).toEqual(keys.table);
  expect(keys.legend.map(([stroke]) => stroke)).toEqual(keys.vars);
  expect(new Set(keys.legend.map((k) => k.join())).size).toBe(2);
  expect(keys.vars[0]).toBe(scheme === "dark" ? "#8b93ff" : "#4f46e5");
  const [figure, before] = [(await page.locator("#compare-table tbody td .compare-figure").first().boundingBox())!, (await page.locator("#compare-table tbody td .kpi-prev").first().boundingBox())!];
  expect(before.y).toBeGreaterThanOrEqual(figure.y + figure.height - 1);
  const [track, button] = [(await page.locator("#compare-form .switch").boundingBox())!, (await page.locator('#compare-form button[type="submit"]').boundingBox())!];
  const apart = button.y >= track.y + track.height || button.x >= track.x + track.width + 12;
  expect(apart).toBe(true);
}

for (const [name, path, ready] of [
  ["tag", "/en/stats/tag/promo", "#kpi-total-prev:not([hidden])"],
  ["compare", "/en/compare?tags=promo,mail", "#compare-card:not([hidden])"],
] as const) {
  for (const [size, width] of [["desktop", 1280], ["phone", 390]] as const) {
    for (const scheme of ["light", "dark"] as const) {
      test(`${name} looks right: ${size}, ${scheme}`, async () => {
        const g = await signedIn(browser, server.url, key, { viewport: { width, height: 800 }, colorScheme: scheme });
        await g.page.goto(`${server.url}${path}`);
        await g.page.waitForSelector(ready);
        expect(await hasHorizontalScroll(g.page)).toBe(false);
        expect(await seriousViolations(g.page)).toEqual([]);
        if (name === "compare") await compareReadsApart(g.page, scheme);
        await screenshot(g.page, `aggregate-${name}-${size}-${scheme}`);
        await g.context.close();
      });
    }
  }
}
