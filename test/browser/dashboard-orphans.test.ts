// The overview's card of visits to no link (docs/statistics.md: Visits to no link): an admin sees
// the three types with people and bots apart and the most visited paths, axe-clean, on a desktop
// and a phone, light and dark; its Export menu downloads them (CSV, JSON lines), axe-clean open; a
// create key's overview has no card (the API would refuse it).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { parseCsv } from "../../src/util/csv.ts";
import { makeKey } from "../support/admin.ts";
import { drained, UA } from "../support/clicks.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { signedIn } from "./dashboard-support.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;
let admin: string;
let creator: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = makeKey(server.dbPath, "laptop");
  creator = makeKey(server.dbPath, "helper", "create");
  const visits: [string, string][] = [["/", UA.firefoxLinux], ["/old-promo", UA.firefoxLinux], ["/old-promo", UA.chromeWindows], ["/old-promo", UA.googlebot], ["/wp-login.php", UA.googlebot]];
  for (const [path, ua] of visits) await (await fetch(`${server.url}${path}`, { headers: { "User-Agent": ua }, redirect: "manual" })).arrayBuffer();
  await drained(server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe("visits to no link on the overview", () => {
  test("an admin's card: each type, people and bots, the top paths; axe-clean", async () => {
    for (const scheme of ["light", "dark"] as const) {
      for (const width of [1280, 390]) {
        const g = await signedIn(browser, server.url, admin, { viewport: { width, height: 900 }, colorScheme: scheme });
        const { page } = g;
        await page.waitForSelector("#orphans-card:not([hidden])");
        expect(await page.textContent("#orphans-base_url")).toBe("1");
        expect(await page.textContent("#orphans-invalid_short_url")).toBe("3");
        expect(await page.textContent("#orphans-invalid_short_url-split")).toBe("People: 2, bots: 1");
        expect(await page.textContent("#orphans-regular_404")).toBe("1");
        expect(await page.locator("#orphans-paths .top-id").allTextContents()).toEqual(["/old-promo", "/", "/wp-login.php"]);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await hasHorizontalScroll(page)).toBe(false);
        await page.locator("#orphans-card").scrollIntoViewIfNeeded();
        await screenshot(page, `dashboard-orphans-${width}-${scheme}`, false);
        expect(g.errors).toEqual([]);
        await g.context.close();
      }
    }
  });

  test("the card's Export menu: visits to no link as CSV and JSON lines; axe-clean open", async () => {
    for (const width of [1280, 390]) {
      const g = await signedIn(browser, server.url, admin, { viewport: { width, height: 900 } });
      const { page } = g;
      await page.waitForSelector("#orphans-card:not([hidden])");
      await page.locator("#orphans-card").scrollIntoViewIfNeeded();
      await page.click("#orphans-export-open");
      await page.waitForSelector("#orphans-export-jsonl:visible");
      expect(await page.getAttribute("#orphans-export-open", "aria-haspopup")).toBe("menu");
      expect(await page.getAttribute("#orphans-export-open", "aria-expanded")).toBe("true");
      // Placed under its button, as the dashboard's menus are (not at the popover's default corner).
      const [button, menu] = [(await page.locator("#orphans-export-open").boundingBox())!, (await page.locator("#orphans-export-menu").boundingBox())!];
      expect(menu.y).toBeGreaterThanOrEqual(button.y + button.height);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await hasHorizontalScroll(page)).toBe(false);
      await screenshot(page, `dashboard-orphans-export-${width}`, false);
      await page.keyboard.press("Escape");
      const rows = parseCsv(await download(page, "#orphans-export-csv"));
      expect(rows[0]).toEqual(["visitId", "timestamp", "type", "visitedPath", "browser", "os", "device", "country", "referrer", "isBot"]);
      expect(rows.slice(1).map((r) => [r[2], r[3], r[9]])).toEqual([
        ["base_url", "/", "false"],
        ["invalid_short_url", "/old-promo", "false"],
        ["invalid_short_url", "/old-promo", "false"],
        ["invalid_short_url", "/old-promo", "true"],
        ["regular_404", "/wp-login.php", "true"],
      ]);
      const lines = (await download(page, "#orphans-export-jsonl")).split("\n").filter(Boolean).map((l) => JSON.parse(l));
      expect(lines.map((l) => l.visitedPath)).toEqual(["/", "/old-promo", "/old-promo", "/old-promo", "/wp-login.php"]);
      expect(g.errors).toEqual([]);
      await g.context.close();
    }
  });

  test("a create key's overview has no card", async () => {
    const g = await signedIn(browser, server.url, creator);
    expect(await g.page.isHidden("#orphans-card")).toBe(true);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });
});

/** Opens the card's Export menu, chooses the item, and returns the downloaded file's text. */
async function download(page: Page, item: string): Promise<string> {
  // A download leaves the page, and the menu, as they were: opened again only when closed.
  if (!(await page.isVisible(item))) await page.click("#orphans-export-open");
  await page.waitForSelector(`${item}:visible`);
  const [file] = await Promise.all([page.waitForEvent("download"), page.click(item)]);
  return readFileSync((await file.path())!, "utf8");
}
