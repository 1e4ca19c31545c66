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

/** A doughnut chart card's legend with "Show numbers" on: "Chrome (3)" → {name, count}. */
export async function doughnutLegend(page: Page, title: string): Promise<Count[]> {
  const card = page.locator(".card, [class*=card]").filter({ has: page.getByText(title, { exact: true }) }).filter({ has: page.locator("ul li") }).first();
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
 * A horizontal bar chart card's bars: each bar's label (the Y axis tick beside it) and its count,
 * read from the tooltip recharts shows when the bar is hovered.
 */
export async function barChart(page: Page, title: string): Promise<Count[]> {
  const card = page.locator(".card, [class*=card]").filter({ has: page.getByText(title, { exact: true }) }).filter({ has: page.locator("svg.recharts-surface") }).first();
  await card.locator(".recharts-bar-rectangle").first().waitFor();
  const labels = await card.locator(".recharts-yAxis .recharts-cartesian-axis-tick-value").allTextContents();
  const bars = card.locator(".recharts-bar-rectangle");
  const counts: Count[] = [];
  for (let i = 0; i < (await bars.count()); i++) {
    await bars.nth(i).hover();
    const tip = card.locator(".recharts-tooltip-wrapper");
    await tip.filter({ hasText: labels[i]! }).waitFor();
    const text = await tip.innerText();
    const match = /(\d[\d,]*)\s*$/.exec(text.trim());
    if (!match) throw new Error(`the tooltip of ${labels[i]} in ${title} shows no number: "${text}"`);
    counts.push({ name: labels[i]!, count: Number(match[1]!.replace(/,/g, "")) });
  }
  return counts;
}

/** The short URLs listed on the page, top to bottom, by their short code (the last path segment of the Short URL cell). */
export async function listedCodes(page: Page): Promise<string[]> {
  const cells = await page.locator("table tbody tr").evaluateAll((rows) =>
    rows.map((row) => row.querySelector("td:nth-child(2) a")?.textContent ?? ""),
  );
  return cells.filter((text) => text !== "").map((url) => url.slice(url.lastIndexOf("/") + 1));
}
