// The stats page on several domains (#37, docs/api.md: Read statistics) in Chromium against the
// real service: opened with ?domain=, the page reads that domain's link (not the default domain's
// same alias), shows its short URL on its domain, and its live view gets that link's clicks only.
// Screenshots: stats-domain-{desktop,phone}-{light,dark}.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page, Route } from "playwright-core";
import { UA, drained } from "../support/clicks.ts";
import { onHost, serverWithDomains } from "../support/domains.ts";
import type { RunningServer } from "../support/server.ts";
import { guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";

setDefaultTimeout(90_000);
let server: RunningServer;
let browser: Browser;

async function clickOn(host: string, alias: string): Promise<void> {
  const res = await onHost(server, host, `/${alias}`, { headers: { "User-Agent": UA.firefoxLinux } });
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`click on ${host}/${alias} answered ${res.status}`);
}

/** Holds every GET /api/stats (not the live stream) from now on, unanswered: only the stream can change the page. */
async function holdStatsPolling(page: Page): Promise<void> {
  const held: Route[] = [];
  await page.route((url) => url.pathname === "/api/stats", (route) => void held.push(route));
}

beforeAll(async () => {
  [server, browser] = await Promise.all([
    serverWithDomains(
      [{ name: "a.example", isDefault: true }, { name: "go.example.net" }],
      [
        { url: "https://one.example.org/", alias: "same" },
        { url: "https://two.example.org/", alias: "same", domain: "go.example.net" },
      ],
    ),
    launchBrowser(),
  ]);
  await clickOn("a.example", "same");
  await clickOn("a.example", "same");
  await clickOn("go.example.net", "same");
  await drained(server.url);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe("stats page with ?domain=", () => {
  test("the other domain's link: its figures, its short URL on its domain, and its live clicks only", async () => {
    const g = await guardedPage(browser);
    const { page } = g;
    await page.goto(`${server.url}/en/stats/same?domain=go.example.net`);
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "1");
    expect(await page.textContent("#short-url")).toBe("https://go.example.net/same");
    expect(await page.textContent("#original-url")).toContain("two.example.org");
    await page.waitForSelector("#live:not([hidden])");
    await holdStatsPolling(page);
    // The default domain's "same" first: had its visit reached this page, it would come before.
    await clickOn("a.example", "same");
    await clickOn("go.example.net", "same");
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "2", undefined, { timeout: 10_000 });
    await drained(server.url);
    expect(await page.locator("#recent-table tbody tr").count()).toBe(2);
    expect(await page.textContent("#kpi-total")).toBe("2");
    expect(g.errors).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });

  for (const [size, width] of [["desktop", 1280], ["phone", 390]] as const) {
    for (const scheme of ["light", "dark"] as const) {
      test(`looks right: ${size}, ${scheme}`, async () => {
        const g = await guardedPage(browser, { viewport: { width, height: 800 }, colorScheme: scheme });
        await g.page.goto(`${server.url}/en/stats/same?domain=go.example.net`);
        await g.page.waitForFunction(() => (document.getElementById("kpi-total")?.textContent ?? "–") !== "–");
        expect(await g.page.textContent("#short-url")).toBe("https://go.example.net/same");
        expect(await hasHorizontalScroll(g.page)).toBe(false);
        expect(await seriousViolations(g.page)).toEqual([]);
        await screenshot(g.page, `stats-domain-${size}-${scheme}`);
        expect(g.errors).toEqual([]);
        await g.context.close();
      });
    }
  }
});
