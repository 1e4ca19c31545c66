// The dashboard's "Clients" dialog (docs/web-ui.md: Clients): the ShareX uploader it offers is the
// file for the page's own address, holds no key, and once a key is pasted in, ShareX's request
// (test/support/sharex.ts) makes a link; the bookmarklet, run on another page, opens "New link"
// with that page's address and title filled in, takes them out of the address, and creates the
// link only on the person's click. Screenshots of the dialog and of the prefilled "New link".
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { api, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { sharexRequest, sharexResult, type Sxcu } from "../support/sharex.ts";
import { SHAREX_KEY_PLACEHOLDER, sharexUploader } from "../../web/client/dashboard/client-files.ts";
import { hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { closed, settled, signedIn } from "./dashboard-support.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;
let key: string;
/** A page of "another site" on 127.0.0.1, for the bookmarklet to run on. */
let site: ReturnType<typeof Bun.serve>;
const PAGE_TITLE = "Bread & butter — a   recipe";

beforeAll(async () => {
  // The other site is on loopback too (tests reach nothing else): links to it must be accepted.
  [server, browser] = await Promise.all([startServer({ args: ["--allow-loopback-destinations"] }), launchBrowser()]);
  key = makeKey(server.dbPath, "laptop", "create");
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response(`<!doctype html><title>Bread &amp; butter — a   recipe</title><p>Knead.</p>`, { headers: { "Content-Type": "text/html; charset=utf-8" } }),
  });
});

afterAll(async () => {
  site?.stop(true);
  await browser?.close();
  await server?.dispose();
});

async function openClients(page: Page): Promise<void> {
  await page.click("#clients-open");
  await page.waitForSelector("#clients-dialog[open]");
}

describe("the clients dialog", () => {
  test("the ShareX uploader is this page's file, holds no key, and its request with a pasted key makes a link", async () => {
    const g = await signedIn(browser, server.url, key);
    const { page } = g;
    await openClients(page);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#clients-sharex")]);
    expect(download.suggestedFilename()).toBe(`127.0.0.1_${server.port}-shortener.sxcu`);
    const text = readFileSync((await download.path())!, "utf8");
    expect(text).toBe(sharexUploader(server.url));
    expect(text).not.toContain(key);
    const file = JSON.parse(text) as Sxcu;
    const res = await fetch(sharexRequest(file, "https://example.com/screenshot.png", SHAREX_KEY_PLACEHOLDER, key));
    const { url } = await sharexResult(file, res);
    expect(url).toStartWith(`${server.url}/`);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("the bookmarklet opens New link with the page's address and title; nothing is made until Create", async () => {
    const g = await signedIn(browser, server.url, key);
    const { page } = g;
    await openClients(page);
    const href = (await page.getAttribute("#clients-bookmarklet", "href"))!;
    expect(href).toStartWith("javascript:");
    expect(href).not.toContain(key);
    // Clicked in the dashboard it only says to drag it.
    await page.click("#clients-bookmarklet");
    await page.waitForSelector(".toast.toast-show");
    expect(page.url()).toBe(`${server.url}/en/links`);

    const pageUrl = `http://127.0.0.1:${site.port}/recipes/bread?x=1&y=2`;
    await page.goto(pageUrl);
    // What the browser does with a bookmark's javascript: address: decode it, run it in the page.
    await Promise.all([page.waitForURL(`${server.url}/en/links`), page.evaluate(decodeURIComponent(href.slice("javascript:".length)))]);
    await page.waitForSelector("#link-dialog[open]");
    expect(await page.inputValue("#lf-url")).toBe(pageUrl);
    expect(await page.inputValue("#lf-title")).toBe("Bread & butter — a recipe");
    // Taken out of the address: a reload does not open it again.
    expect(new URL(page.url()).search).toBe("");
    const before = await api(server.url, key, "GET", "/api/links");
    expect(before.body.data.links.map((l: { originalUrl: string }) => l.originalUrl)).not.toContain(pageUrl);

    await page.fill("#lf-alias", "bread");
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    const made = await api(server.url, key, "GET", "/api/links/bread");
    expect(made.body.data.originalUrl).toBe(pageUrl);
    expect(made.body.data.title).toBe("Bread & butter — a recipe");
    await page.reload();
    await page.waitForSelector("#dashboard:not([hidden])");
    await settled(page);
    expect(await page.evaluate(() => (document.getElementById("link-dialog") as HTMLDialogElement).open)).toBe(false);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("signed out, the bookmarklet's page waits for the sign-in, then opens New link", async () => {
    const g = await signedIn(browser, server.url, key);
    const { page } = g;
    await page.click("#sign-out");
    await page.waitForSelector("#sign-in:not([hidden])");
    await page.goto(`${server.url}/en/links?shorten=${encodeURIComponent("https://example.com/later")}&title=Later`);
    await page.waitForSelector("#sign-in:not([hidden])");
    expect(new URL(page.url()).search).toBe("");
    await page.fill("#sign-in-key", key);
    await page.press("#sign-in-key", "Enter");
    await page.waitForSelector("#link-dialog[open]");
    expect(await page.inputValue("#lf-url")).toBe("https://example.com/later");
    expect(await page.inputValue("#lf-title")).toBe("Later");
    await g.context.close();
  });
});

describe("screenshots", () => {
  for (const scheme of ["light", "dark"] as const) {
    for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
      test(`${device} ${scheme}: the clients dialog and the prefilled New link; axe clean`, async () => {
        const g = await signedIn(browser, server.url, key, { viewport: { width, height: 900 }, colorScheme: scheme });
        const { page } = g;
        await openClients(page);
        await screenshot(page, `dashboard-clients-${device}-${scheme}`, false);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await hasHorizontalScroll(page)).toBe(false);
        await page.goto(`${server.url}/en/links?shorten=${encodeURIComponent(`http://127.0.0.1:${site.port}/recipes`)}&title=${encodeURIComponent(PAGE_TITLE)}`);
        await page.waitForSelector("#link-dialog[open]");
        await screenshot(page, `dashboard-bookmarklet-dialog-${device}-${scheme}`, false);
        await g.context.close();
      });
    }
  }
});
