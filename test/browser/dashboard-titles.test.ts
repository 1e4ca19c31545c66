// Titles in the dashboard and on the stats page (docs/web-ui.md: Web UI): the list shows a link's
// title above its short URL with the destination still under it, the dialog sets, changes and
// clears it (PATCH title: null), the list's search finds a link by a word only its title has, the
// API's refusal shows under the field, and the stats page's heading is the title, as text (a
// title may come from a fetched page). A password-protected link's title is not shown to a
// stranger. Screenshots: the list, the dialog and the stats heading, desktop and phone, light and dark.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { choose, closed, row, settled, shownIds, signedIn } from "./dashboard-support.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;
let admin: string;
const HOSTILE = `<img src=x onerror="alert('title')"> Quarterly & "final"`;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = makeKey(server.dbPath, "laptop");
  await madeLink(server.url, admin, "plain");
  await madeLink(server.url, admin, "report", { title: "Annual report 2026 for the board of the association" });
  await madeLink(server.url, admin, "hostile", { title: HOSTILE });
  await madeLink(server.url, admin, "secret", { title: "Salary table", password: "correct horse" });
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const titleOf = (page: Page, id: string) => row(page, id).locator(".link-title").allTextContents();

async function search(page: Page, text: string): Promise<string[]> {
  await page.fill("#f-q", text);
  await page.press("#f-q", "Enter");
  await page.waitForFunction((q) => new URLSearchParams(location.search).get("q") === (q || null), text);
  await settled(page);
  return shownIds(page);
}

describe("titles in the dashboard", () => {
  test("the list shows each title as text above the short URL, the destination still there", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    expect(await titleOf(page, "report")).toEqual(["Annual report 2026 for the board of the association"]);
    expect(await titleOf(page, "plain")).toEqual([]);
    expect(await titleOf(page, "hostile")).toEqual([HOSTILE]);
    expect(await row(page, "hostile").locator("img").count()).toBe(0);
    expect(await row(page, "report").locator(".dest").textContent()).toContain("example.com/report");
    expect(g.dialogs).toEqual([]);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("create with a title, find it by a word of the title only, change it, clear it", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await page.click("#new-link");
    await page.waitForSelector("#link-dialog[open]");
    await page.fill("#lf-url", "https://example.com/minutes");
    await page.fill("#lf-title", "Minutes of the   spring\nmeeting");
    await page.fill("#lf-alias", "minutes");
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    await settled(page);
    // Whitespace collapsed by the server (src/links/title.ts), shown as stored.
    expect(await titleOf(page, "minutes")).toEqual(["Minutes of the spring meeting"]);

    // "spring" is in no id and no destination: only the title can match.
    expect(await search(page, "spring")).toEqual(["minutes"]);
    expect(await search(page, "board of the")).toEqual(["report"]);
    expect(await search(page, "")).toContain("plain");

    await choose(page, "minutes", "edit");
    await page.waitForSelector("#link-dialog[open]");
    expect(await page.inputValue("#lf-title")).toBe("Minutes of the spring meeting");
    await page.fill("#lf-title", "Minutes, approved");
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    await page.waitForFunction(() => document.querySelector('#links-body tr[data-id="minutes"] .link-title')?.textContent === "Minutes, approved");

    await choose(page, "minutes", "edit");
    await page.waitForSelector("#link-dialog[open]");
    await page.fill("#lf-title", "");
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    await page.waitForFunction(() => document.querySelector('#links-body tr[data-id="minutes"]') !== null && document.querySelector('#links-body tr[data-id="minutes"] .link-title') === null);
    const stored = await api(server.url, admin, "GET", "/api/links/minutes");
    expect(stored.body.data.title).toBeNull();
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("a title the API refuses shows its message under the field", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await choose(page, "plain", "edit");
    await page.waitForSelector("#link-dialog[open]");
    // Past the field's maxlength only by a script: the server's limit is the one that decides.
    await page.evaluate(() => ((document.getElementById("lf-title") as HTMLInputElement).value = "t".repeat(501)));
    await page.click("#lf-submit");
    await page.waitForSelector("#lf-title-error:not([hidden])");
    expect(await page.textContent("#lf-title-error")).toBe("A title is text of at most 500 characters.");
    expect((await api(server.url, admin, "GET", "/api/links/plain")).body.data.title).toBeNull();
    await g.context.close();
  });

  test("the stats page's heading is the title, as text; a password link's is not shown to a stranger", async () => {
    const g = await guardedPage(browser);
    const { page } = g;
    await page.goto(`${server.url}/en/stats/hostile`);
    await page.waitForSelector("#stats-for:not([hidden])");
    expect(await page.textContent("#stats-heading")).toBe(HOSTILE);
    expect(await page.locator("#stats-heading img").count()).toBe(0);
    expect(await page.textContent("#stats-for")).toBe("Statistics for /hostile");
    expect(await page.title()).toStartWith(HOSTILE);

    await page.goto(`${server.url}/en/stats/secret`);
    await page.waitForFunction(() => document.getElementById("created-at")?.textContent !== "…");
    expect(await page.textContent("#stats-heading")).toBe("Statistics for /secret");
    expect(await page.isHidden("#stats-for")).toBe(true);
    expect(await page.content()).not.toContain("Salary table");
    expect(g.dialogs).toEqual([]);
    await g.context.close();
  });
});

describe("screenshots", () => {
  for (const scheme of ["light", "dark"] as const) {
    for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
      test(`${device} ${scheme}: the list with titles, the dialog, the stats heading; axe clean, no sideways scroll`, async () => {
        const g = await signedIn(browser, server.url, admin, { viewport: { width, height: 900 }, colorScheme: scheme });
        const { page } = g;
        await page.locator("#links-table").scrollIntoViewIfNeeded();
        await screenshot(page, `dashboard-titles-list-${device}-${scheme}`, false);
        expect(await hasHorizontalScroll(page)).toBe(false);
        await choose(page, "report", "edit");
        await page.waitForSelector("#link-dialog[open]");
        await screenshot(page, `dashboard-titles-dialog-${device}-${scheme}`, false);
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");
        await closed(page, "link-dialog");
        await page.goto(`${server.url}/en/stats/report`);
        await page.waitForSelector("#stats-for:not([hidden])");
        await screenshot(page, `stats-title-${device}-${scheme}`, false);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await hasHorizontalScroll(page)).toBe(false);
        await g.context.close();
      });
    }
  }
});
