// The stats page's first impression (#34), in a real browser against the real service: a young link
// opens on its own days, a link without visits gets one empty state, chart bars give their figures
// on hover and from the keyboard without a line between days, breakdowns give percentages, flags
// are bundled images, imported clicks show "—" for unique visitors, recent visits show 10 rows and
// cards on a phone. (Public statistics said, and the pictures: stats-public.test.ts.)
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { addDays, dayOf } from "../../src/util/day.ts";
import { MESSAGES } from "../../web/i18n/index.ts";
import { openImports } from "../../src/db/open-storage.ts";
import type { Visit } from "../../src/visits/visit.ts";
import type { Link } from "../../src/links/link.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { seed } from "../support/seed.ts";
import { UA, click, guardedPage, hasHorizontalScroll, launchBrowser, screenshot, type Guarded } from "./browser.ts";
import { decodeQr, tealInColumn } from "./stats-support.ts";

setDefaultTimeout(60_000);

const DAY = 86_400_000;
const now = Date.now();
const today = dayOf(now);
const en = MESSAGES.en;
const fullDay = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });
const dayLabel = (day: string) => fullDay.format(new Date(`${day}T00:00:00Z`));

let server: RunningServer;
let browser: Browser;
let moved: Link;

/** A visit of `link` (its seq and alias), `daysAgo`. */
function visit(link: Pick<Link, "seq" | "id">, daysAgo: number, o: Partial<Visit> = {}): Visit {
  return {
    linkSeq: link.seq, linkId: link.id, ts: now - daysAgo * DAY, browser: "Firefox", os: "Linux", device: "desktop", country: "DE",
    referrer: "Direct", utmSource: null, utmMedium: null, utmCampaign: null, isBot: false, visitor: null, ...o,
  };
}

beforeAll(async () => {
  // Trusting the test's own address lets X-Forwarded-For pick each click's country.
  [server, browser] = await Promise.all([startServer({ args: ["--trust-proxy", "127.0.0.1"] }), launchBrowser()]);
  for (const id of ["fresh", "quiet", "many"]) await createLink(server.url, { url: `https://example.com/${id}`, custom_url: id });
  const utm = "?utm_source=newsletter&utm_campaign=spring";
  await click(server.url, "fresh", [
    { ua: UA.chromeWindows, ip: "85.214.132.117", query: utm },
    { ua: UA.chromeWindows, ip: "133.242.0.1", query: utm },
    { ua: UA.firefoxLinux, ip: "8.8.8.8" },
    { ua: UA.safariIphone, ip: "8.8.4.4" },
  ]);
  await click(server.url, "many", Array.from({ length: 13 }, (_, i) => ({ ua: i % 2 ? UA.firefoxLinux : UA.chromeWindows, ip: `8.8.8.${i + 1}` })));
  await seed(server, async ({ links, record }) => {
    await links.create({ url: "https://example.com/paused", alias: "paused" }, now - DAY);
    await links.update("paused", { disabled: true });
    const aged = await links.create({ url: "https://example.com/aged", alias: "aged" }, now - 40 * DAY);
    record(visit(aged, 3));
    const pair = await links.create({ url: "https://example.com/pair", alias: "pair" }, now - 5 * DAY);
    record(visit(pair, 2));
    record(visit(pair, 0));
    moved = await links.create({ url: "https://example.com/moved", alias: "moved" }, now - 5 * DAY);
  });
  // Visits an import wrote carry no visitor (docs/importing.md: Moving from another shortener).
  const { imports, close } = await openImports(server.dbPath, null);
  await imports.addVisits("test", [], [visit(moved, 2), visit(moved, 2, { browser: "Chrome" })]);
  await close();
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

/** Opens a stats page and waits for its first answer to be shown (figures or the empty state). */
async function open(g: Guarded, id: string, lang = "en"): Promise<Page> {
  await g.page.goto(`${server.url}/${lang}/stats/${id}`);
  // "Loading" in the page's own language: with English's, a page in another language looks loaded at once.
  const loading = (MESSAGES as Record<string, { loading: string }>)[lang]!.loading;
  await g.page.waitForFunction((text) => document.getElementById("updated")?.textContent !== text, loading);
  return g.page;
}

const legendRange = (page: Page) => page.locator("#chart .u-legend .u-value").first().textContent();

describe("stats page, first look", () => {
  test("a link younger than 30 days opens on its own days since creation; an older one on 30 days", async () => {
    const g = await guardedPage(browser);
    const first = g.page.waitForRequest((r) => r.url().includes("/api/stats?"));
    const page = await open(g, "fresh");
    expect((await first).url()).not.toContain("from=");
    expect(await page.isChecked("input[name=range][value=all]")).toBe(true);
    // Made today: one day, not 29 empty ones and a bar at the edge; its one bar (and mark) in the middle.
    expect(await legendRange(page)).toBe(dayLabel(today));
    expect(await tealInColumn(page, 0.5)).toBe(true);
    expect(await tealInColumn(page, 0.1)).toBe(false);
    await open(g, "pair");
    expect(await legendRange(page)).toBe(fullDay.formatRange(new Date(`${addDays(today, -5)}T00:00:00Z`), new Date(`${today}T00:00:00Z`)));
    await open(g, "aged");
    expect(await page.isChecked("input[name=range][value='30d']")).toBe(true);
    expect(await legendRange(page)).toBe(fullDay.formatRange(new Date(`${addDays(today, -29)}T00:00:00Z`), new Date(`${today}T00:00:00Z`)));
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("a link without visits shows one empty state: its short URL, its QR code, whether it is active; the first visit brings the figures", async () => {
    const g = await guardedPage(browser);
    const page = await open(g, "quiet");
    expect(await page.isVisible("#stats-empty")).toBe(true);
    expect(await page.isHidden("#stats-full")).toBe(true);
    expect(await page.locator(".breakdown:visible, .chart-card:visible, .kpi:visible").count()).toBe(0);
    expect(await page.getByText(en.no_data).filter({ visible: true }).count()).toBe(0);
    expect(await page.textContent("#empty-title")).toBe(en.empty_title);
    expect(await page.textContent("#empty-short-url")).toBe(`${server.url}/quiet`);
    expect(await page.isHidden("#short-url-item")).toBe(true); // once is enough
    expect(await page.textContent("#empty-status")).toBe(en.status_active);
    expect(await page.isVisible("#empty-lead-active")).toBe(true);
    await page.waitForFunction(() => (document.getElementById("empty-qr-img") as HTMLImageElement).naturalWidth > 0);
    expect(await decodeQr(page, "#empty-qr-img")).toBe(`${server.url}/quiet`);
    expect(await page.getAttribute("#empty-qr-download", "download")).toBe("qr-quiet.png");
    // A real click: the live view brings the figures in place of the empty state.
    await click(server.url, "quiet", [{ ua: UA.firefoxLinux }]);
    await page.waitForSelector("#stats-full:not([hidden])");
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "1");
    expect(await page.isHidden("#stats-empty")).toBe(true);
    expect(await page.textContent("#link-status")).toBe(en.status_active);
    // A disabled link says so, in the head and in its empty state.
    await open(g, "paused");
    expect(await page.textContent("#link-status")).toBe(en.status_disabled);
    expect(await page.textContent("#empty-status")).toBe(en.status_disabled);
    expect(await page.isVisible("#empty-lead-inactive")).toBe(true);
    expect(await page.isHidden("#empty-lead-active")).toBe(true);
    expect(g.errors).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });

  test("a page with visits asks for no QR code; the empty state's comes from the server's /<alias>/qr", async () => {
    const loaded = async (id: string, drawn: () => boolean) => {
      const g = await guardedPage(browser);
      const page = await open(g, id);
      await page.waitForFunction(drawn);
      const names = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname));
      await g.context.close();
      return names;
    };
    const withVisits = await loaded("fresh", () => document.querySelectorAll("#bd-country img.flag").length === 3);
    const empty = await loaded("paused", () => (document.getElementById("empty-qr-img") as HTMLImageElement).naturalWidth > 0);
    expect(withVisits.filter((n) => n.endsWith("/qr"))).toEqual([]);
    expect(empty).toContain("/paused/qr");
  });

  test("chart: a bar's figures on hover and from the keyboard, read out; unique visitors as marks, no line between days", async () => {
    const g = await guardedPage(browser);
    const page = await open(g, "pair");
    const plot = (await page.locator("#chart .u-over").boundingBox())!;
    // Hover the last bar (today): the tip over it gives the day, its clicks and unique visitors.
    await page.mouse.move(plot.x + plot.width - 3, plot.y + plot.height - 5);
    await page.waitForSelector(".chart-tip:not([hidden])");
    expect(await page.locator(".chart-tip span").allTextContents()).toEqual([`${en.chart_clicks}: 1`, `${en.chart_unique}: 1`]);
    expect(await page.textContent(".chart-tip strong")).toBe(dayLabel(today));
    await page.mouse.move(1, 1);
    await page.waitForSelector(".chart-tip[hidden]", { state: "attached" });
    // The keyboard: focus lands on the last bar; the left arrow goes a day back, Home to the first.
    await page.focus("#chart");
    await page.waitForSelector(".chart-tip:not([hidden])");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    expect(await page.textContent(".chart-tip strong")).toBe(dayLabel(addDays(today, -2)));
    expect(await page.textContent("#chart-readout")).toBe(`${dayLabel(addDays(today, -2))}: 1 ${en.chart_clicks}, 1 ${en.chart_unique}`);
    await page.keyboard.press("Home");
    expect(await page.textContent("#chart-readout")).toBe(`${dayLabel(addDays(today, -5))}: 0 ${en.chart_clicks}, 0 ${en.chart_unique}`);
    await screenshot(page, "stats-chart-tip-desktop-light");
    // Between day -2 (1 visitor) and day -1 (none) a line would cross: no pixel of its color there.
    await page.keyboard.press("Tab");
    const days = 6; // day -5 .. today
    expect(await tealInColumn(page, (3 + 1) / days)).toBe(false);
    // ... while the mark itself, on day -2's bar, is drawn.
    expect(await tealInColumn(page, (3 + 0.5) / days)).toBe(true);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("breakdowns give each count's share of the period's clicks, and say what 100% is", async () => {
    const g = await guardedPage(browser);
    const page = await open(g, "fresh");
    const row = (list: string, n: number) => page.locator(`#bd-${list} li`).nth(n);
    expect(await row("browser", 0).locator(".bar-name").textContent()).toBe("Chrome");
    expect(await row("browser", 0).locator(".bar-count").textContent()).toBe("2");
    expect(await row("browser", 0).locator(".bar-share").textContent()).toBe("50%");
    expect(await row("browser", 1).locator(".bar-share").textContent()).toBe("25%");
    expect(await row("country", 0).locator(".bar-share").textContent()).toBe("50%");
    for (const list of ["os", "device", "referrer"]) expect(await row(list, 0).locator(".bar-share").textContent()).toMatch(/^\d+%$/);
    expect(await page.textContent("#share-note")).toBe(en.breakdown_share_note.replace("{count}", "4"));
    expect(await page.locator("#utm-table tbody tr td").allTextContents()).toEqual(["newsletter", "—", "spring", "250%"]);
    expect(await page.textContent("#utm-table tbody tr .share")).toBe("50%");
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("country flags are bundled SVG images from this host, never emoji", async () => {
    const g = await guardedPage(browser);
    const page = await open(g, "fresh");
    const flags = page.locator("#bd-country img.flag");
    expect(await flags.count()).toBe(3);
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>("#bd-country img.flag")].every((i) => i.complete && i.naturalWidth > 0));
    const sources = await flags.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
    expect(sources.map((s) => s.replace(/flag-[a-z0-9]+-/, "flag-"))).toEqual(["us", "de", "jp"].map((c) => `${server.url}/assets/flag-${c}.svg`));
    const svg = await fetch(sources[0]!);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(await svg.text()).toContain("<svg");
    expect(await page.locator("#recent-table img.flag").count()).toBe(4);
    // No regional indicator symbols (emoji flags) anywhere on the page.
    expect(await page.evaluate(() => /[\u{1F1E6}-\u{1F1FF}]/u.test(document.body.innerText))).toBe(false);
    expect(g.offHost).toEqual([]);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("imported clicks show — for unique visitors, and say why", async () => {
    const g = await guardedPage(browser);
    const page = await open(g, "moved");
    expect(await page.textContent("#kpi-total")).toBe("2");
    expect(await page.textContent("#kpi-unique")).toBe("—");
    expect(await page.textContent("#kpi-unique-note")).toBe(en.kpi_unique_unknown);
    await page.focus("#chart");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    expect(await page.textContent(".chart-tip strong")).toBe(dayLabel(addDays(today, -2)));
    expect(await page.locator(".chart-tip span").allTextContents()).toEqual([`${en.chart_clicks}: 2`, `${en.chart_unique}: —`]);
    // A link without imports has no note.
    await open(g, "pair");
    expect(await page.isHidden("#kpi-unique-note")).toBe(true);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("recent visits: 10 rows, then 'show more' for the rest; cards on a phone", async () => {
    const g = await guardedPage(browser, { viewport: { width: 360, height: 800 } });
    const page = await open(g, "many");
    const rows = page.locator("#recent-table tbody tr");
    expect(await rows.count()).toBe(10);
    expect(await page.textContent("#recent-more")).toBe(en.recent_more.replace("{count}", "3"));
    // A phone: each visit is a card, each value under its column's name; nothing scrolls sideways.
    expect(await rows.first().evaluate((tr) => getComputedStyle(tr).display)).toBe("grid");
    expect((await page.locator("#recent-table thead").boundingBox())!.height).toBeLessThanOrEqual(1);
    expect(await rows.first().locator("td").first().evaluate((td) => getComputedStyle(td, "::before").content)).toBe(`"${en.col_time}"`);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await page.click("#recent-more");
    expect(await rows.count()).toBe(13);
    expect(await page.isHidden("#recent-more")).toBe(true);
    expect(await page.evaluate(() => document.activeElement === document.querySelectorAll("#recent-table tbody tr")[10])).toBe(true);
    await page.locator("#recent-table tbody tr").nth(8).scrollIntoViewIfNeeded();
    await screenshot(page, "stats-recent-phone-light", false);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });
});
