// Shlink's own web UI runs on our service (#39). The real @shlinkio/shlink-web-component 0.18.0
// (npm; its host page is test/shlink-web/host.tsx, built by test/support/shlink-web.ts) talks to
// a real instance through the real @shlinkio/shlink-js-sdk from another origin: the page is served
// on one 127.0.0.1 port, the service on another, so every call is a real CORS request allowed by
// --cors-origin. Driven with Debian's Chromium like a person would: the overview, a link created,
// the list sorted and filtered, a link edited (tags, title, validity) and deleted, a link's visits
// drawn as charts that agree with our own statistics API, redirect rules edited, and a link whose
// A/B split Shlink cannot show refused a rules edit (docs/shlink-api.md). Screenshots go to
// test-artifacts/screenshots/shlink-web-*.png.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { visit } from "../support/clicks.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { serveShlinkWeb, shlinkWebSite } from "../support/shlink-web.ts";
import { guardedPage, launchBrowser, screenshot, type Guarded } from "./browser.ts";
import { barChart, byCount, CLICKS, doughnutLegend, geoDatabase, listedCodes, ourStats } from "./shlink-web-support.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let host: ReturnType<typeof serveShlinkWeb>;
let browser: Browser;
let guarded: Guarded;
let page: Page;
let key: string;

beforeAll(async () => {
  // The first run installs test/shlink-web's packages and builds the page (minutes); later runs reuse it.
  const site = await shlinkWebSite();
  host = serveShlinkWeb(site);
  const args = ["--cors-origin", host.url, "--create-rate-limit", "0", "--trust-proxy", "127.0.0.1", "--geoip-db", geoDatabase()];
  [server, browser] = await Promise.all([startServer({ args }), launchBrowser()]);
  key = makeKey(server.dbPath, "shlink-web");
  await madeLink(server.url, key, "alpha", { title: "Zebra crossing", tags: ["animals"] });
  await madeLink(server.url, key, "bravo", { title: "Apple pie", tags: ["food"] });
  await madeLink(server.url, key, "charlie", { title: "Mango lassi", tags: ["food", "drinks"] });
  await madeLink(server.url, key, "seen", { title: "Clicked" });
  await madeLink(server.url, key, "split", { variants: [{ url: "https://a.example/", weight: 1 }, { url: "https://b.example/", weight: 1 }] });
  await madeLink(server.url, key, "edit-me", { title: "Before editing", tags: ["old"] });
  await madeLink(server.url, key, "apps", { title: "Apps" });
  await madeLink(server.url, key, "gone", { title: "Going" });
  await visit(server.url, "seen", CLICKS);
  guarded = await guardedPage(browser, { timezoneId: "UTC", locale: "en-GB" });
  page = guarded.page;
}, 900_000);

afterAll(async () => {
  await browser?.close();
  host?.stop();
  await server?.dispose();
});

/** Opens one of the UI's pages (its own routes, client-side) with the server and key, once the host has connected. */
async function open(path: string): Promise<void> {
  await page.goto(`${host.url}${path}?server=${encodeURIComponent(server.url)}&key=${encodeURIComponent(key)}`);
  await page.waitForSelector("[data-host=ready], [data-host=failed]");
  const failed = await page.locator("[data-host=failed]").count();
  if (failed > 0) throw new Error(await page.locator("[data-host=failed]").innerText());
}

/** The titled seeds and the link the UI creates, by title A→Z ("split" has none). */
const TITLES_A_TO_Z = ["bravo", "apps", "edit-me", "seen", "gone", "made-in-ui", "charlie", "alpha"];

const stored = async (id: string) => api(server.url, key, "GET", `/api/links/${id}`);

describe("Shlink's web UI on our service", () => {
  test("connects: the health check gives the version the UI gates features by, and the overview fills in", async () => {
    await open("/");
    expect(await page.getAttribute("[data-host=ready]", "data-server-version")).toBe("5.1.0");
    await page.waitForURL(/\/overview$/);
    await page.getByText("Recently created URLs").filter({ visible: true }).waitFor();
    // The recent list (itemsPerPage=5, newest first) shows our links by their absolute short URLs.
    await page.getByText(`${server.url}/split`).first().waitFor();
    await page.waitForLoadState("networkidle");
    await screenshot(page, "shlink-web-overview");
    expect(guarded.offHost).toEqual([]);
  });

  test("creates a link with a custom slug, title and tags", async () => {
    await open("/create-short-url");
    await page.getByPlaceholder("URL to be shortened").fill("https://example.com/made-in-shlink");
    await page.getByPlaceholder("Title").fill("Made in Shlink's UI");
    await page.getByPlaceholder("Custom slug").first().fill("made-in-ui");
    const tags = page.getByPlaceholder("Add tags to the URL");
    await tags.fill("ui");
    await tags.press("Enter");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Great!").waitFor();
    await page.getByText(`${server.url}/made-in-ui`).first().waitFor();
    await screenshot(page, "shlink-web-created");
    const made = await stored("made-in-ui");
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ originalUrl: "https://example.com/made-in-shlink", title: "Made in Shlink's UI", tags: ["ui"] });
  });

  test("lists, sorts by title and filters by a search term", async () => {
    await open("/list-short-urls/1");
    await page.locator("table tbody tr").first().waitFor();
    // Every link on the first page (the UI asks for 10, the server's default).
    expect((await listedCodes(page)).sort()).toEqual(["alpha", "apps", "bravo", "charlie", "edit-me", "gone", "made-in-ui", "seen", "split"]);
    await page.getByRole("button", { name: /^Title/ }).click();
    await page.waitForURL(/orderBy=title-ASC/);
    // Titles A→Z; where the untitled link goes (first or last) is the engine's, as in Shlink.
    await expectListed(TITLES_A_TO_Z, "split");
    await screenshot(page, "shlink-web-list-sorted");
    await page.getByPlaceholder("Search...").fill("lassi");
    await expectListed(["charlie"]);
    await page.getByPlaceholder("Search...").fill("");
    await expectListed(TITLES_A_TO_Z, "split");
  });

  test("filters the list by a tag", async () => {
    await open("/list-short-urls/1");
    // A tag of a row is a filter (WC src/short-urls/ShortUrlsList.tsx): the UI asks for tags[]=food.
    await page.locator("table tbody tr").filter({ hasText: `${server.url}/bravo` }).getByText("food", { exact: true }).click();
    await page.waitForURL(/tags=food/);
    await expectListed(["bravo", "charlie"], undefined, true);
    await screenshot(page, "shlink-web-list-filtered");
  });

  test("edits a link's title, tags and validity", async () => {
    await open("/short-code/edit-me/edit");
    const title = page.getByPlaceholder("Title");
    await title.and(page.locator('[value="Before editing"]')).waitFor();
    await title.fill("Edited in Shlink's UI");
    const tags = page.getByPlaceholder("Add tags to the URL");
    await tags.fill("edited");
    await tags.press("Enter");
    await page.getByLabel("Enabled since:").fill("2026-01-01T10:00");
    await page.getByLabel("Enabled until:").fill("2099-12-31T23:30");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Short URL properly edited.").waitFor();
    await screenshot(page, "shlink-web-edited");
    const edited = (await stored("edit-me")).body.data;
    expect(edited.title).toBe("Edited in Shlink's UI");
    expect([...edited.tags].sort()).toEqual(["edited", "old"]);
    expect(Date.parse(edited.validFrom)).toBe(Date.parse("2026-01-01T10:00:00Z"));
    expect(Date.parse(edited.expiresAt)).toBe(Date.parse("2099-12-31T23:30:00Z"));
  });

  test("lists tags with their links and visits", async () => {
    await open("/manage-tags");
    const food = page.locator("table tbody tr").filter({ has: page.getByText("food", { exact: true }) });
    await food.waitFor();
    // Tag, Short URLs, Visits (WC src/tags/TagsTableRow.tsx): bravo and charlie, never clicked.
    expect((await food.locator("td").allInnerTexts()).slice(0, 3).map((t) => t.trim())).toEqual(["food", "2", "0"]);
    await screenshot(page, "shlink-web-tags");
  });

  test("lists the domain, its health checked on its own host", async () => {
    await open("/manage-domains");
    const authority = new URL(server.url).host;
    const row = page.locator("table tbody tr").filter({ hasText: authority });
    // The UI asks GET <domain>/rest/v3/health for each listed domain: a check mark when it passes
    // (WC src/domains/helpers/DomainStatusIcon.tsx), a cross when it fails or CORS hides the answer.
    await row.locator('svg[data-icon="check"]').waitFor();
    expect(await row.locator('svg[data-icon="xmark"], svg[data-icon="times"]').count()).toBe(0);
    await screenshot(page, "shlink-web-domains");
  });

  test("draws a link's visits: browsers, systems, referrers and countries agree with our statistics", async () => {
    const ours = await ourStats(server.url, key, "seen");
    await open("/short-code/seen/visits/by-context");
    await page.getByText("Operating systems").first().waitFor();
    expect(byCount(await doughnutLegend(page, "Browsers"))).toEqual(byCount(ours.browsers));
    expect(byCount(await doughnutLegend(page, "Operating systems"))).toEqual(byCount(ours.os));
    expect(byCount(await barChart(page, "Referrers"))).toEqual(byCount(ours.referrers));
    await screenshot(page, "shlink-web-visits-context");
    await open("/short-code/seen/visits/by-location");
    expect(byCount(await barChart(page, "Countries"))).toEqual(byCount(ours.countries));
    await screenshot(page, "shlink-web-visits-location");
  });

  test("edits a link's redirect rules", async () => {
    await open("/short-code/apps/redirect-rules");
    await page.getByRole("button", { name: "Add rule" }).click();
    await page.getByLabel("Long URL:").fill("https://play.example/app");
    await page.getByRole("button", { name: "Add condition" }).click();
    await page.getByLabel("Type:", { exact: true }).selectOption("device");
    await page.getByLabel("Device type:", { exact: true }).selectOption("android");
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByRole("button", { name: "Save rules" }).click();
    await page.getByText("Redirect rules properly saved.").waitFor();
    await screenshot(page, "shlink-web-rules-saved");
    const rules = (await stored("apps")).body.data.rules;
    expect(rules).toEqual([{ conditions: [{ type: "os", value: "android" }], url: "https://play.example/app" }]);
  });

  test("refuses a rules edit of a link with an A/B split, saying why", async () => {
    await open("/short-code/split/redirect-rules");
    await page.getByRole("button", { name: "Add rule" }).click();
    await page.getByLabel("Long URL:").fill("https://ios.example/");
    await page.getByRole("button", { name: "Add condition" }).click();
    await page.getByLabel("Type:", { exact: true }).selectOption("device");
    await page.getByLabel("Device type:", { exact: true }).selectOption("ios");
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByRole("button", { name: "Save rules" }).click();
    // The problem's detail and invalidElements as the UI prints them (WC src/common/ShlinkApiError.tsx).
    await page.getByText("Invalid elements: [redirectRules]").waitFor();
    expect(await page.getByText(/variants \(A\/B\)/).count()).toBe(1);
    await screenshot(page, "shlink-web-rules-refused");
    const split = (await stored("split")).body.data;
    expect(split.rules ?? []).toEqual([]);
    expect(split.variants).toHaveLength(2);
  });

  test("reads on a phone and in the dark theme", async () => {
    const phone = await guardedPage(browser, { viewport: { width: 390, height: 844 }, timezoneId: "UTC" });
    try {
      const query = `server=${encodeURIComponent(server.url)}&key=${encodeURIComponent(key)}&theme=dark`;
      await phone.page.goto(`${host.url}/list-short-urls/1?${query}`);
      await phone.page.locator("table tbody tr").filter({ hasText: `${server.url}/bravo` }).waitFor();
      expect(await phone.page.getAttribute("html", "data-theme")).toBe("dark");
      await screenshot(phone.page, "shlink-web-phone-dark");
      expect(phone.offHost).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  test("deletes a link from the list", async () => {
    await open("/list-short-urls/1");
    const row = page.locator("table tbody tr").filter({ hasText: `${server.url}/gone` });
    await row.getByRole("button").last().click();
    await page.getByText("Delete short URL").click();
    await page.getByPlaceholder("delete").fill("delete");
    await screenshot(page, "shlink-web-delete", false);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await row.waitFor({ state: "detached" });
    expect((await stored("gone")).status).toBe(404);
    expect(guarded.offHost).toEqual([]);
  });
});

/** Waits until the table lists exactly these short codes, in this order (any order with `anyOrder`; `untitled` first or last, when given). */
async function expectListed(codes: string[], untitled?: string, anyOrder = false): Promise<void> {
  const deadline = Date.now() + 15_000;
  let seen: string[] = [];
  while (Date.now() < deadline) {
    const listed = await listedCodes(page);
    const ends = untitled === undefined || listed[0] === untitled || listed.at(-1) === untitled;
    seen = ends ? listed.filter((code) => code !== untitled) : listed;
    if (anyOrder) seen.sort();
    if (JSON.stringify(seen) === JSON.stringify(codes)) return;
    await page.waitForTimeout(100);
  }
  expect(seen).toEqual(codes);
}
