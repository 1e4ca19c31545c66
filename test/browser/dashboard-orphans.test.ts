// The overview's card of visits to no link (docs/statistics.md: Visits to no link): an admin sees
// the three types with people and bots apart and the most visited paths, axe-clean, on a desktop
// and a phone, light and dark; a create key's overview has no card (the API would refuse it).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
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

  test("a create key's overview has no card", async () => {
    const g = await signedIn(browser, server.url, creator);
    expect(await g.page.isHidden("#orphans-card")).toBe(true);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });
});
