// The dashboard's list over 250 links (made in one import before the page opens): paging through
// all of them with the cursor, search, tag and status filters, the sorts, the filters kept in the
// address, and the overview above it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import { MESSAGES } from "../../web/i18n/index.ts";
import { api, makeKey } from "../support/admin.ts";
import { drained } from "../support/clicks.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { launchBrowser } from "./browser.ts";
import { settled, shownIds, signedIn, visit } from "./dashboard-support.ts";

setDefaultTimeout(90_000);

let server: RunningServer;
let browser: Browser;
let admin: string;
const en = MESSAGES.en;
const N = 250;
const id = (i: number) => `p-${String(i).padStart(3, "0")}`;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = makeKey(server.dbPath, "owner");
  const rows = ["url,custom_url,expires_at,max_clicks,tags"];
  for (let i = 1; i <= N; i++) {
    const tags = [i % 10 === 0 ? "ten" : "", i % 2 === 0 ? "even" : ""].filter(Boolean).join(",");
    rows.push(`https://example.org/item-${i},${id(i)},,${i === 50 ? 1 : ""},"${tags}"`);
  }
  const imported = await api(server.url, admin, "POST", "/api/links/import", rows.join("\n"), { "content-type": "text/csv" });
  if (imported.body.data?.created.length !== N) throw new Error(`import: ${JSON.stringify(imported.body).slice(0, 300)}`);
  for (const off of [100, 200]) await api(server.url, admin, "PATCH", `/api/links/${id(off)}`, { disabled: true });
  // Clicks, in this order: p-007 three times, p-123 five times, p-050 once (its limit), p-250 once.
  for (const [i, n] of [[7, 3], [123, 5], [50, 1], [250, 1]] as const) {
    for (let k = 0; k < n; k++) expect((await visit(server.url, id(i))).status).toBe(302);
    // Kept: the list sorts by last click, stamped by the service's clock (which a test cannot set),
    // so each group's clicks must come a few milliseconds after the one before.
    await Bun.sleep(30);
  }
  await drained(server.url); // every click written: the totals are what the list sorts by
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const label = (from: number, to: number) => en.showing.replace("{from}", String(from)).replace("{to}", String(to));

describe("the list over 250 links", () => {
  test("pages through all 250 with Next and back with Previous, keyboard alone", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    expect(await page.textContent("#ov-links")).toBe("250");
    expect(await page.textContent("#list-status")).toBe(label(1, 50));
    const pages: string[][] = [await shownIds(page)];
    expect(pages[0]![0]).toBe(id(250)); // newest first
    expect(await page.isDisabled("#page-prev")).toBe(true);
    await page.focus("#page-next");
    for (let p = 2; p <= 5; p++) {
      await page.keyboard.press("Enter");
      await page.waitForFunction((text) => document.getElementById("list-status")?.textContent === text, label((p - 1) * 50 + 1, p * 50));
      expect(await page.textContent("#page-label")).toBe(en.page_label.replace("{page}", String(p)));
      pages.push(await shownIds(page));
    }
    const all = pages.flat();
    expect(all).toHaveLength(N);
    expect(new Set(all).size).toBe(N);
    expect(all).toEqual(Array.from({ length: N }, (_, i) => id(N - i)));
    // The last page: Next is off and focus moved to Previous, which goes back one page.
    expect(await page.isDisabled("#page-next")).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("page-prev");
    await page.keyboard.press("Enter");
    await page.waitForFunction((text) => document.getElementById("list-status")?.textContent === text, label(151, 200));
    expect(await shownIds(page)).toEqual(pages[3]!);
    expect(g.errors).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });

  test("search, tag and status filters, each with its own page count", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await page.fill("#f-q", "p-12");
    await page.waitForFunction(() => document.querySelectorAll("#links-body tr").length === 10);
    expect((await shownIds(page)).sort()).toEqual(["p-120", "p-121", "p-122", "p-123", "p-124", "p-125", "p-126", "p-127", "p-128", "p-129"]);
    expect(await page.isHidden("#pager")).toBe(true);
    // Destinations are searched too, in any case.
    await page.fill("#f-q", "ITEM-249");
    await page.waitForFunction(() => document.querySelectorAll("#links-body tr").length === 1);
    expect(await shownIds(page)).toEqual(["p-249"]);
    await page.fill("#f-q", "nothing-like-this");
    await page.waitForSelector("#list-nomatch:not([hidden])");
    expect(await page.isHidden("#links-wrap")).toBe(true);
    await page.click("#f-clear");
    await page.waitForFunction((text) => document.getElementById("list-status")?.textContent === text, label(1, 50));
    expect(await page.inputValue("#f-q")).toBe("");

    await page.fill("#f-tag", "ten");
    await page.waitForFunction(() => document.querySelectorAll("#links-body tr").length === 25);
    expect((await shownIds(page)).every((i) => Number(i.slice(2)) % 10 === 0)).toBe(true);
    // Status and tag together: the disabled ones tagged "ten".
    await page.selectOption("#f-status", "disabled");
    await page.waitForFunction(() => document.querySelectorAll("#links-body tr").length === 2);
    expect(await shownIds(page)).toEqual(["p-200", "p-100"]);
    await page.fill("#f-tag", "");
    await page.selectOption("#f-status", "expired");
    await page.waitForFunction(() => document.querySelectorAll("#links-body tr").length === 1);
    expect(await shownIds(page)).toEqual(["p-050"]);
    expect(await page.textContent('#links-body tr[data-id="p-050"] .status')).toBe(en.status_expired);
    await page.selectOption("#f-status", "active");
    await page.waitForFunction((text) => document.getElementById("list-status")?.textContent === text, label(1, 50));
    expect(await page.isEnabled("#page-next")).toBe(true);
    // A tag chip in a row filters by that tag.
    await page.selectOption("#f-status", "");
    await page.waitForSelector('#links-body tr[data-id="p-250"]');
    await page.click('#links-body tr[data-id="p-250"] .tag[data-tag="ten"]');
    await page.waitForFunction(() => document.querySelectorAll("#links-body tr").length === 25);
    expect(await page.inputValue("#f-tag")).toBe("ten");
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("sorts by clicks and by last click; the sort is marked on its column and kept in the address", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await page.selectOption("#f-sort", "totalClicks:desc");
    await page.waitForFunction(() => (document.querySelector("#links-body tr") as HTMLElement | null)?.dataset.id === "p-123");
    expect((await shownIds(page)).slice(0, 2)).toEqual(["p-123", "p-007"]);
    expect(await page.getAttribute('th[data-sort="totalClicks"]', "aria-sort")).toBe("descending");
    expect(await page.getAttribute('th[data-sort="createdAt"]', "aria-sort")).toBeNull();
    expect(await page.textContent('#links-body tr[data-id="p-123"] .clicks-total')).toBe("5");

    await page.selectOption("#f-sort", "lastClickAt:desc");
    await page.waitForFunction(() => (document.querySelector("#links-body tr") as HTMLElement | null)?.dataset.id === "p-250");
    expect((await shownIds(page)).slice(0, 4)).toEqual(["p-250", "p-050", "p-123", "p-007"]);

    await page.selectOption("#f-sort", "createdAt:asc");
    await page.fill("#f-tag", "even");
    await page.waitForFunction(() => (document.querySelector("#links-body tr") as HTMLElement | null)?.dataset.id === "p-002");
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ tag: "even", sort: "createdAt:asc" });
    // A reload (or the address shared) shows the same list.
    await page.reload();
    await page.waitForSelector("#dashboard:not([hidden])");
    await settled(page);
    expect(await page.inputValue("#f-tag")).toBe("even");
    expect(await page.inputValue("#f-sort")).toBe("createdAt:asc");
    expect((await shownIds(page)).slice(0, 3)).toEqual(["p-002", "p-004", "p-006"]);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("the overview: links, clicks today, 7 and 30 days, and the top five of 30 days", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    expect(await page.textContent("#ov-links")).toBe("250");
    expect(await page.textContent("#ov-today")).toBe("10");
    expect(await page.textContent("#ov-7d")).toBe("10");
    expect(await page.textContent("#ov-30d")).toBe("10");
    expect(await page.getAttribute("#ov-spark svg", "aria-label")).toBe(en.sparkline_label.replace("{count}", "10"));
    const top = await page.$$eval("#top-links li", (lis) => lis.map((li) => [li.querySelector(".top-id")?.textContent, li.querySelector(".bar-count")?.textContent]));
    expect(top.slice(0, 2)).toEqual([["/p-123", "5"], ["/p-007", "3"]]);
    expect(top).toHaveLength(4);
    expect(await page.getAttribute("#top-links li:first-child a", "href")).toBe("/en/stats/p-123");
    // A row's sparkline holds its 30 days, today last.
    expect(await page.getAttribute('#links-body tr[data-id="p-250"] .spark', "aria-label")).toBe(en.sparkline_label.replace("{count}", "1"));
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("deleting the whole last page shows the page before it (last, so the other tests keep their 250)", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    for (let p = 2; p <= 5; p++) {
      await page.click("#page-next");
      await page.waitForFunction((text) => document.getElementById("list-status")?.textContent === text, label((p - 1) * 50 + 1, p * 50));
    }
    await page.check("#select-page");
    await page.click("#bulk-delete");
    await page.waitForSelector("#confirm-dialog[open]");
    expect(await page.locator("#confirm-ids li").count()).toBe(50);
    await page.click("#confirm-ok");
    await page.waitForFunction((text) => document.getElementById("list-status")?.textContent === text, label(151, 200));
    expect(await page.isDisabled("#page-next")).toBe(true);
    expect(await page.textContent("#ov-links")).toBe("200");
    expect((await visit(server.url, id(1))).status).toBe(410);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });
});
