// Stats page in a real browser against the real service: numbers after real clicks, the bot
// switch and ranges, hostile visitor strings staying text, 404 for unknown links, accessibility,
// phone width, polling, and screenshots.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import { LANGUAGES } from "../../src/lang.ts";
import { MESSAGES } from "../../web/i18n/index.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { UA, click, guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;
const HOSTILE_SOURCE = "<img src=x onerror=alert(1)>";
const HOSTILE_CAMPAIGN = "</script><script>alert(2)</script>";

beforeAll(async () => {
  // Trusting the test's own address lets X-Forwarded-For pick each click's country.
  [server, browser] = await Promise.all([startServer({ args: ["--trust-proxy", "127.0.0.1"] }), launchBrowser()]);
  const created = await createLink(server.url, { url: "https://example.com/launch/post?ref=1", custom_url: "launch" });
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  const utm = "?utm_source=newsletter&utm_medium=email&utm_campaign=spring";
  await click(server.url, "launch", [
    { ua: UA.firefoxLinux, referrer: "https://news.ycombinator.com/item?id=1", query: utm, ip: "8.8.8.8" },
    { ua: UA.safariIphone, referrer: "https://news.ycombinator.com/", ip: "85.214.132.117" },
    { ua: UA.chromeWindows, referrer: "https://www.reddit.com/r/selfhosted/", query: utm, ip: "133.242.0.1" },
    { ua: UA.chromeWindows, ip: "8.8.4.4" },
    { ua: UA.googlebot, referrer: "https://www.google.com/" },
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const percent = (lang: string, n: number) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 }).format(n);

describe("stats page", () => {
  test("shows the right numbers after real clicks", async () => {
    const g = await guardedPage(browser);
    const { page } = g;
    const res = await page.goto(`${server.url}/en/stats/launch`);
    expect(res?.status()).toBe(200);
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent !== "–");
    expect(await page.textContent("#kpi-total")).toBe("5");
    expect(await page.textContent("#kpi-unique")).toBe("5"); // five addresses (and agents): five visitors
    expect(await page.textContent("#kpi-human")).toBe("4");
    expect(await page.textContent("#kpi-bots")).toBe(percent("en", 0.2));
    expect(await page.textContent("#original-url")).toBe("https://example.com/launch/post?ref=1");
    expect(await page.textContent("#short-url")).toBe(`${server.url}/launch`);
    const browsers = await page.locator("#bd-browser li").allTextContents();
    expect(browsers[0]).toContain("Chrome");
    expect(browsers[0]).toContain("2");
    expect(browsers.join("|")).toContain("Firefox");
    const referrers = await page.locator("#bd-referrer li").allTextContents();
    expect(referrers[0]).toBe(`news.ycombinator.com2${percent("en", 0.4)}`);
    expect(referrers.join("|")).toContain("reddit.com");
    expect(referrers.join("|")).toContain(MESSAGES.en.direct);
    expect((await page.locator("#bd-device li").allTextContents()).join("|")).toContain(MESSAGES.en.device_mobile);
    const countries = await page.locator("#bd-country li").allTextContents();
    expect(countries[0]).toBe(`United States2${percent("en", 0.4)}`);
    expect(countries).toContain(`Germany1${percent("en", 0.2)}`);
    expect(countries).toContain(`Japan1${percent("en", 0.2)}`);
    expect(await page.locator("#recent-table tbody tr").count()).toBe(5);
    expect(await page.locator("#recent-table .badge-bot").count()).toBe(1);
    const utm = await page.locator("#utm-table tbody tr").allTextContents();
    expect(utm).toEqual([`newsletteremailspring2${percent("en", 0.4)}`]);
    expect(await page.locator("#chart canvas").count()).toBeGreaterThan(0);
    // Nothing hovered: the readout shows the range and its total, not dashes that look like missing data.
    const readout = () => page.locator("#chart .u-legend .u-value").allTextContents();
    const idle = await readout();
    expect(idle).toHaveLength(3); // the range, clicks and unique visitors
    expect(idle[0]).not.toBe("–");
    expect(idle[0]).toMatch(/\d{4}/);
    expect(idle[1]).toBe("5");
    expect(idle[2]).toBe("5");
    // Hovering today's bar shows that day; leaving the chart shows the range and total again.
    const today = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" }).format(new Date());
    const plot = (await page.locator("#chart .u-over").boundingBox())!;
    await page.mouse.move(plot.x + plot.width - 3, plot.y + plot.height / 2);
    await page.waitForFunction((d) => document.querySelector("#chart .u-legend .u-value")?.textContent === d, today);
    expect((await readout())[1]).toBe("5");
    await page.mouse.move(1, 1);
    await page.waitForFunction((d) => document.querySelector("#chart .u-legend .u-value")?.textContent === d, idle[0]!);
    expect(await readout()).toEqual(idle);
    expect(g.errors).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });

  test("leaving bots out and choosing a range ask the API again", async () => {
    const g = await guardedPage(browser);
    const { page } = g;
    await page.goto(`${server.url}/en/stats/launch`);
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "5");
    const botsRequest = page.waitForRequest((r) => r.url().includes("bots=exclude"));
    await page.check("#exclude-bots");
    await botsRequest;
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "4");
    expect(await page.textContent("#kpi-bots")).toBe(percent("en", 0));
    expect(await page.locator("#recent-table .badge-bot").count()).toBe(0);

    const today = new Date().toISOString().slice(0, 10);
    const sevenDays = page.waitForRequest((r) => r.url().includes(`to=${today}`) && r.url().includes("from="));
    await page.check("input[name=range][value='7d']");
    await sevenDays;
    const all = page.waitForRequest((r) => r.url().includes("/api/stats") && !r.url().includes("from="));
    await page.check("input[name=range][value=all]");
    await all;
    await page.check("input[name=range][value=custom]");
    expect(await page.isVisible("#custom-range")).toBe(true);
    await page.fill("#range-from", "2020-01-01");
    await page.fill("#range-to", "2020-01-31");
    const custom = page.waitForRequest((r) => r.url().includes("from=2020-01-01") && r.url().includes("to=2020-01-31"));
    await page.click("#custom-range button");
    await custom;
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "0");
    expect(await page.isVisible("#recent-empty")).toBe(true);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("24 hours: hours in the reader's time zone, clicks and unique visitors of the hours, bots apart", async () => {
    await createLink(server.url, { url: "https://example.com/hourly", custom_url: "hourly" });
    await click(server.url, "hourly", [
      { ua: UA.firefoxLinux, ip: "203.0.113.5" },
      { ua: UA.firefoxLinux, ip: "203.0.113.5" },
      { ua: UA.firefoxLinux, ip: "203.0.113.5" },
      { ua: UA.safariIphone, ip: "203.0.113.6" },
      { ua: UA.googlebot, ip: "66.249.66.1" },
    ]);
    const g = await guardedPage(browser, { timezoneId: "Asia/Tokyo" });
    const { page } = g;
    await page.goto(`${server.url}/en/stats/hourly`);
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "5");
    await page.check("input[name=range][value='24h']");
    await page.waitForFunction((t) => document.getElementById("chart-title")?.textContent === t, MESSAGES.en.chart_title_hours);
    expect(await page.isVisible("#range-note")).toBe(true);
    expect(await page.textContent("#kpi-total")).toBe("5");
    expect(await page.textContent("#kpi-unique")).toBe("3");
    expect(await page.textContent("#kpi-human")).toBe("4");
    expect(await page.textContent("#kpi-bots")).toBe(percent("en", 0.2));
    // Hovering the last bar names this hour as it is in Tokyo.
    const thisHour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const label = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "Asia/Tokyo" }).format(thisHour);
    const plot = (await page.locator("#chart .u-over").boundingBox())!;
    await page.mouse.move(plot.x + plot.width - 3, plot.y + plot.height / 2);
    await page.waitForFunction((l) => document.querySelector("#chart .u-legend .u-value")?.textContent === l, label);
    expect((await page.locator("#chart .u-legend .u-value").allTextContents()).slice(1)).toEqual(["5", "3"]);
    // Leaving bots out: every figure without the bot.
    await page.check("#exclude-bots");
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "4");
    expect(await page.textContent("#kpi-unique")).toBe("2");
    expect(await page.textContent("#kpi-bots")).toBe(percent("en", 0));
    await screenshot(page, "stats-24h-desktop-light");
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("range and bot switch work with the keyboard alone (arrow keys in the range group, Space on the switch)", async () => {
    const g = await guardedPage(browser);
    const { page } = g;
    await page.goto(`${server.url}/en/stats/launch`);
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "5");
    // A radio is named by its value, anything else by its id.
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        return el?.type === "radio" ? el.value : el?.id;
      });
    // Tab into the range group: focus lands on the checked radio (all: the link is younger than 30 days).
    for (let i = 0; i < 20 && (await focused()) !== "all"; i++) await page.keyboard.press("Tab");
    expect(await focused()).toBe("all");
    const ninety = page.waitForRequest((r) => r.url().includes("/api/stats") && r.url().includes("from="));
    await page.keyboard.press("ArrowLeft");
    await ninety;
    expect(await page.isChecked("input[name=range][value='90d']")).toBe(true);
    // On to the bot switch and toggle it with Space.
    for (let i = 0; i < 5 && (await focused()) !== "exclude-bots"; i++) await page.keyboard.press("Tab");
    expect(await focused()).toBe("exclude-bots");
    const botsRequest = page.waitForRequest((r) => r.url().includes("bots=exclude"));
    await page.keyboard.press("Space");
    await botsRequest;
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "4");
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("hostile UTM values and referrers stay inert text", async () => {
    await createLink(server.url, { url: "https://example.com/", custom_url: "hostile" });
    await click(server.url, "hostile", [
      {
        ua: UA.firefoxLinux,
        referrer: "https://evil.example/<b>x</b>?q=<script>alert(3)</script>",
        query: `?utm_source=${encodeURIComponent(HOSTILE_SOURCE)}&utm_campaign=${encodeURIComponent(HOSTILE_CAMPAIGN)}`,
      },
    ]);
    const g = await guardedPage(browser);
    const { page } = g;
    await page.goto(`${server.url}/en/stats/hostile`);
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "1");
    const cells = await page.locator("#utm-table tbody td").allTextContents();
    expect(cells).toContain(HOSTILE_SOURCE);
    expect(cells).toContain(HOSTILE_CAMPAIGN);
    // No image but the bundled flags and the empty state's QR code (an injected <img> would be one).
    expect(await page.locator("main img:not(.flag):not(#empty-qr-img), main script:not([type='application/json'])").count()).toBe(0);
    expect(await page.locator("#bd-referrer li").allTextContents()).toEqual([`evil.example1${percent("en", 1)}`]);
    // Kept: this proves an absence (no dialog, no error), which has no fact to wait on; an injected
    // handler that fires late (after a failed load, say) gets this long to show.
    await Bun.sleep(200);
    expect(g.dialogs).toEqual([]);
    expect(g.errors).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });

  test("an unknown link answers 404 with a plain message in the page language", async () => {
    const g = await guardedPage(browser);
    for (const lang of ["en", "de", "ja"] as const) {
      const res = await g.page.goto(`${server.url}/${lang}/stats/no-such-link`);
      expect(res?.status()).toBe(404);
      expect(await g.page.getAttribute("html", "lang")).toBe(lang);
      expect(await g.page.textContent("h1")).toBe(MESSAGES[lang].notfound_title);
      expect(await g.page.textContent("main p")).toBe(MESSAGES[lang].notfound_text);
      // English for the picture: this test machine may lack CJK fonts.
      if (lang === "en") await screenshot(g.page, "stats-404-desktop-light");
    }
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });

  test("/stats/<id> redirects to the best language; the switch keeps the link", async () => {
    const res = await fetch(`${server.url}/stats/launch`, { headers: { "Accept-Language": "fr-CA,fr;q=0.9" }, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/fr/stats/launch");
    const g = await guardedPage(browser);
    await g.page.goto(`${server.url}/fr/stats/launch`);
    expect(await g.page.getAttribute(".lang-menu a[hreflang=zh]", "href")).toBe("/zh/stats/launch");
    await g.context.close();
  });

  test("every language renders the stats page with its own words and locale numbers", async () => {
    const g = await guardedPage(browser);
    for (const lang of LANGUAGES) {
      await g.page.goto(`${server.url}/${lang}/stats/launch`);
      expect(await g.page.getAttribute("html", "lang")).toBe(lang);
      expect(await g.page.textContent("h1")).toBe(MESSAGES[lang].stats_title.replace("{id}", "launch"));
      expect(await g.page.textContent("#chart-title")).toBe(MESSAGES[lang].chart_title);
      await g.page.waitForFunction(() => document.getElementById("kpi-total")?.textContent !== "–");
      expect(await g.page.textContent("#kpi-bots")).toBe(percent(lang, 0.2));
      const us = new Intl.DisplayNames([lang], { type: "region" }).of("US")!;
      expect(await g.page.textContent("#bd-country li:first-child")).toContain(us);
    }
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("polls for new clicks without reloading", async () => {
    await createLink(server.url, { url: "https://example.com/poll", custom_url: "polled" });
    const g = await guardedPage(browser);
    await g.page.clock.install();
    await g.page.goto(`${server.url}/en/stats/polled`);
    await g.page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "0");
    await click(server.url, "polled", [{ ua: UA.firefoxLinux }]);
    await g.page.clock.runFor(10_500);
    await g.page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "1");
    await g.context.close();
  });

  for (const scheme of ["light", "dark"] as const) {
    for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
      test(`is accessible and fits at ${width} px in ${scheme} mode`, async () => {
        const g = await guardedPage(browser, { viewport: { width, height: 800 }, colorScheme: scheme });
        await g.page.goto(`${server.url}/en/stats/launch`);
        await g.page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "5");
        expect(await hasHorizontalScroll(g.page)).toBe(false);
        // The bot share's change keeps its figure and unit together on a narrow card.
        expect(await g.page.textContent("#kpi-bots-prev")).toContain("(+20\u00a0pts)");
        await screenshot(g.page, `stats-${device}-${scheme}`);
        expect(await seriousViolations(g.page)).toEqual([]);
        expect(g.errors).toEqual([]);
        expect(g.offHost).toEqual([]);
        await g.context.close();
      });
    }
  }
});
