// Helpers for test/browser/shlink-web.test.ts: the service with a geo database and clicks of known
// browsers, systems, countries and referrers; reading Shlink's UI (its tables and charts) the way
// a person reads them. Names of the UI's parts come from @shlinkio/shlink-web-component 0.18.0's
// sources (src/short-urls/ShortUrlsTable.tsx, src/visits/VisitsStats.tsx, src/visits/charts/*).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { api } from "../support/admin.ts";
import { writeMmdb } from "../support/mmdb-writer.ts";
import { UA, type VisitSpec } from "../support/clicks.ts";

/** A geo database of the test's own: 203.0.113.0/24 in DE, 198.51.100.0/24 in FR; anything else unknown. */
export function geoDatabase(): string {
  const file = join(mkdtempSync(join(tmpdir(), "shortener-shlink-web-")), "geo.mmdb");
  const country = (iso: string) => ({ country: { iso_code: iso }, registered_country: { iso_code: iso } });
  const networks = [
    { cidr: "203.0.113.0/24", data: country("DE") },
    { cidr: "198.51.100.0/24", data: country("FR") },
  ];
  writeFileSync(file, writeMmdb(networks, { ipVersion: 4, databaseType: "GeoLite2-Country", buildEpoch: 1_700_000_000 }));
  return file;
}

/** Clicks on the visits link: 3, 2 and 1 of each kind, so every chart has one order by count. */
export const CLICKS: readonly VisitSpec[] = [
  ...Array.from({ length: 3 }, () => ({ ua: UA.chromeWindows, referrer: "https://news.example/a", ip: "203.0.113.5" })),
  ...Array.from({ length: 2 }, () => ({ ua: UA.firefoxLinux, ip: "198.51.100.7" })),
  { ua: UA.safariIphone, referrer: "https://www.social.example/x", ip: "192.0.2.9" },
];

export type Count = { name: string; count: number };

/** Our own statistics of a link (GET /api/stats), by dimension, as Shlink's UI names the entries. */
export async function ourStats(base: string, key: string, id: string): Promise<Record<"browsers" | "os" | "countries" | "referrers", Count[]>> {
  const answer = await api(base, key, "GET", `/api/stats?id=${encodeURIComponent(id)}`);
  if (answer.status !== 200) throw new Error(`our stats of ${id}: ${answer.status} ${JSON.stringify(answer.body)}`);
  const stats = answer.body.data.stats;
  const region = new Intl.DisplayNames(["en"], { type: "region" });
  const entries = (list: Count[], rename: (name: string) => string = (n) => n) => list.map(({ name, count }) => ({ name: rename(name), count }));
  return {
    browsers: entries(stats.browserStats),
    os: entries(stats.osStats),
    // The UI shows visitLocation.countryName, "Unknown" without a location (VisitsParser.ts).
    countries: entries(stats.countryStats, (code) => (/^[A-Z]{2}$/.test(code) ? region.of(code)! : "Unknown")),
    referrers: entries(stats.referrerStats),
  };
}

/** Sorted by count, then name: the order both sides can be compared in. */
export const byCount = (list: Count[]): Count[] => [...list].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));

/** The card a chart is drawn in (the frontend-kit's Card: class "group/card"), by its title. */
const chartCard = (page: Page, title: string) => page.locator('div[class*="group/card"]').filter({ hasText: title });

/** A doughnut chart card's legend with "Show numbers" on: "Chrome (3)" → {name, count}. */
export async function doughnutLegend(page: Page, title: string): Promise<Count[]> {
  const card = chartCard(page, title).filter({ has: page.locator("ul li") });
  const toggle = card.getByText("Show numbers");
  await toggle.click();
  await card.locator("ul li b").first().waitFor();
  const items = await card.locator("ul li").allInnerTexts();
  return items.map((text) => {
    const match = /^(.*) \(([\d,]+)\)$/.exec(text.trim());
    if (!match) throw new Error(`legend entry "${text}" of ${title} has no number`);
    return { name: match[1]!, count: Number(match[2]!.replace(/,/g, "")) };
  });
}

/**
 * A horizontal bar chart card's bars: each bar's label and count as the tooltip recharts shows
 * on hovering the bar gives them ("news.example" over "Visits: 3").
 */
export async function barChart(page: Page, title: string): Promise<Count[]> {
  const card = chartCard(page, title).filter({ has: page.locator("svg.recharts-surface") });
  const bars = card.locator(".recharts-bar-rectangle");
  await bars.first().waitFor();
  const tip = card.locator(".recharts-tooltip-wrapper");
  const counts: Count[] = [];
  let previous = "";
  for (let i = 0; i < (await bars.count()); i++) {
    await bars.nth(i).hover();
    const text = await waitForChange(() => tip.innerText(), previous);
    previous = text;
    const lines = text.split("\n").map((line) => line.trim()).filter((line) => line !== "");
    const match = /(\d[\d,]*)$/.exec(lines.at(-1) ?? "");
    if (lines.length < 2 || !match) throw new Error(`the tooltip of bar ${i + 1} in ${title} is not a label over a number: "${text}"`);
    counts.push({ name: lines[0]!, count: Number(match[1]!.replace(/,/g, "")) });
  }
  return counts;
}

/** What read() gives once it is neither empty nor `previous` (a tooltip following the pointer), within 10 s. */
async function waitForChange(read: () => Promise<string>, previous: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  let text = await read();
  while ((text.trim() === "" || text === previous) && Date.now() < deadline) {
    await Bun.sleep(50);
    text = await read();
  }
  return text;
}

/** The short URLs listed on the page, top to bottom, by their short code (the last path segment of the Short URL cell). */
export async function listedCodes(page: Page): Promise<string[]> {
  const cells = await page.locator("table tbody tr").evaluateAll((rows) =>
    rows.map((row) => row.querySelector("td:nth-child(2) a")?.textContent ?? ""),
  );
  return cells.filter((text) => text !== "").map((url) => url.slice(url.lastIndexOf("/") + 1));
}
