// Helpers for the dashboard's browser tests: sign in through the page, find a link's row, use its
// menu, wait for the list to settle, and click a link as a visitor would.
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { guardedPage, type Guarded } from "./browser.ts";

/** Opens /<lang>/links in a new guarded page and signs in with the key through the form. */
export async function signedIn(browser: Browser, base: string, key: string, options: BrowserContextOptions = {}, lang = "en"): Promise<Guarded> {
  const g = await guardedPage(browser, options);
  await g.page.goto(`${base}/${lang}/links`);
  await g.page.waitForSelector("#sign-in:not([hidden])");
  await g.page.fill("#sign-in-key", key);
  await g.page.press("#sign-in-key", "Enter");
  await g.page.waitForSelector("#dashboard:not([hidden])");
  await settled(g.page);
  return g;
}

/** Waits until the list shows a page (or an empty state) and the overview has its numbers. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const status = document.getElementById("list-status")?.textContent ?? "";
    const empty = !document.getElementById("list-empty")?.hidden || !document.getElementById("list-nomatch")?.hidden;
    return document.getElementById("ov-links")?.textContent !== "–" && (/\d/.test(status) || (empty && status === ""));
  });
}

export const row = (page: Page, id: string) => page.locator(`#links-body tr[data-id="${id}"]`);

/** Ids of the rows shown, in order. */
export function shownIds(page: Page): Promise<string[]> {
  return page.$$eval("#links-body tr", (rows) => rows.map((r) => (r as HTMLElement).dataset.id ?? ""));
}

/** Opens a row's menu with the mouse and chooses an item. */
export async function choose(page: Page, id: string, action: string): Promise<void> {
  await row(page, id).locator('[data-action="menu"]').click();
  await page.waitForSelector("#row-menu:popover-open");
  await page.click(`#row-menu [data-action="${action}"]`);
}

/** Waits until the dialog with this id is closed. */
export async function closed(page: Page, id: string): Promise<void> {
  await page.waitForFunction((id) => !(document.getElementById(id) as HTMLDialogElement).open, id);
}

/** What a visitor gets from the short link (no redirect followed). */
export async function visit(base: string, id: string): Promise<{ status: number; location: string | null }> {
  const res = await fetch(`${base}/${id}`, { redirect: "manual", headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0" } });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get("location") };
}

/** The focused element as "id", "data-action" or tag name. */
export function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.id || el?.dataset.action || el?.tagName || "";
  });
}
