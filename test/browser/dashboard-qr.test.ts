// QR codes drawn by the server (docs/sharing.md: QR codes by URL) in the dashboard's QR dialog and
// on the stats page's empty state: the options make the image's address (shown to copy, the
// download, and the image shown, which decodes to the short URL); a link on another domain is asked
// for on this origin with ?domain=; a contrast too low shows the server's message in place of the
// image. Screenshots: the dialog with its options open, desktop and phone, light and dark; axe clean.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { choose, closed, signedIn } from "./dashboard-support.ts";
import { decodeQr } from "./stats-support.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;
let admin: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = makeKey(server.dbPath, "laptop");
  // The first domain added is the default: the dashboard at 127.0.0.1 answers as on it.
  for (const name of ["main.example.com", "s.example.org"]) expect((await api(server.url, admin, "POST", "/api/domains", { name })).status).toBe(201);
  await madeLink(server.url, admin, "poster");
  await madeLink(server.url, admin, "away", { domain: "s.example.org" });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

/** Waits until the panel's image is the one its address names, loaded (or its error shown); returns the address. */
async function shown(page: Page, p: string): Promise<string> {
  await page.waitForFunction((p) => {
    const img = document.getElementById(`${p}-img`) as HTMLImageElement;
    const address = document.getElementById(`${p}-url`)!.textContent ?? "";
    const error = !document.getElementById(`${p}-error`)!.hidden;
    return address !== "" && img.src === address && img.complete && (error || (img.naturalWidth > 0 && !img.hidden));
  }, p);
  return (await page.textContent(`#${p}-url`)) ?? "";
}

async function openQr(page: Page, id: string): Promise<void> {
  await choose(page, id, "qr");
  await page.waitForSelector("#qr-dialog[open]");
}

async function setOptions(page: Page, p: string, options: { size?: string; margin?: string; level?: string; fg?: string; bg?: string; format?: string }): Promise<void> {
  if (!(await page.evaluate((p) => (document.getElementById(`${p}-options`) as HTMLDetailsElement).open, p))) await page.click(`#${p}-options > summary`);
  for (const name of ["size", "margin", "fg", "bg"] as const) if (options[name] !== undefined) await page.fill(`#${p}-${name}`, options[name]!);
  for (const name of ["level", "format"] as const) if (options[name] !== undefined) await page.selectOption(`#${p}-${name}`, options[name]!);
}

describe("the QR dialog", () => {
  test("the options make the copyable address; the image shown is that address and decodes to the short URL", async () => {
    const g = await signedIn(browser, server.url, admin, { permissions: ["clipboard-read", "clipboard-write"] });
    const { page } = g;
    await openQr(page, "poster");
    expect(await shown(page, "qrd")).toBe(`${server.url}/poster/qr`);
    expect(await decodeQr(page, "#qrd-img")).toBe(`${server.url}/poster`);

    await setOptions(page, "qrd", { size: "300", margin: "4", level: "H", fg: "#1a237e", bg: "#fffde7" });
    await page.waitForFunction(() => document.getElementById("qrd-url")!.textContent!.includes("bg=fffde7"));
    const address = await shown(page, "qrd");
    expect(address).toBe(`${server.url}/poster/qr?size=300&margin=4&level=H&fg=1a237e&bg=fffde7`);
    expect(await decodeQr(page, "#qrd-img")).toBe(`${server.url}/poster`);
    // Rounded down to whole pixels per module: never larger than asked.
    const width = await page.evaluate(() => (document.getElementById("qrd-img") as HTMLImageElement).naturalWidth);
    expect(width).toBeLessThanOrEqual(300);
    expect(width).toBeGreaterThan(200);
    expect(await page.getAttribute("#qrd-download", "href")).toBe(address.slice(server.url.length));
    expect(await page.getAttribute("#qrd-download", "download")).toBe("qr-poster.png");
    await page.click("#qrd-copy");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);

    await setOptions(page, "qrd", { format: "svg" });
    expect(await shown(page, "qrd")).toBe(`${server.url}/poster/qr?format=svg&size=300&margin=4&level=H&fg=1a237e&bg=fffde7`);
    expect(await page.getAttribute("#qrd-download", "download")).toBe("qr-poster.svg");
    expect(await page.textContent("#qrd-download")).toBe("Download SVG");
    expect(await decodeQr(page, "#qrd-img")).toBe(`${server.url}/poster`);
    expect(g.errors).toEqual([]);
    await g.context.close();
  }, 120_000);

  test("a contrast too low: the server's message in place of the image, gone once the colours read", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await openQr(page, "poster");
    await shown(page, "qrd");
    await setOptions(page, "qrd", { fg: "#dddddd" });
    await page.waitForSelector("#qrd-error:not([hidden])");
    const refused = await fetch(`${server.url}/poster/qr?fg=dddddd`);
    expect(refused.status).toBe(400);
    expect(await page.textContent("#qrd-error")).toBe((await refused.json()).error);
    expect(await page.isHidden("#qrd-img")).toBe(true);
    await setOptions(page, "qrd", { fg: "#333333" });
    expect(await shown(page, "qrd")).toBe(`${server.url}/poster/qr?fg=333333`);
    expect(await page.isHidden("#qrd-error")).toBe(true);
    expect(await decodeQr(page, "#qrd-img")).toBe(`${server.url}/poster`);
    await page.keyboard.press("Escape");
    await closed(page, "qr-dialog");
    await g.context.close();
  }, 120_000);

  test("a link on another domain: its code asked for on this origin with ?domain=, encoding its own short URL", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    const link = (await api(server.url, admin, "GET", "/api/links/away?domain=s.example.org")).body.data;
    await openQr(page, "away@s.example.org");
    expect(await page.textContent("#qrd-short")).toBe(link.shortUrl);
    expect(await shown(page, "qrd")).toBe(`${server.url}/away/qr?domain=s.example.org`);
    expect(await decodeQr(page, "#qrd-img")).toBe(link.shortUrl);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  }, 120_000);
});

describe("under --stats-access key", () => {
  test("the owner's dialog shows the code (the session goes with the image); without it the address is a 404", async () => {
    const closed = await startServer({ args: ["--stats-access", "key"] });
    try {
      const key = makeKey(closed.dbPath, "owner");
      await madeLink(closed.url, key, "private-poster");
      const g = await signedIn(browser, closed.url, key);
      const { page } = g;
      await openQr(page, "private-poster");
      const address = await shown(page, "qrd");
      expect(address).toBe(`${closed.url}/private-poster/qr`);
      expect(await decodeQr(page, "#qrd-img")).toBe(`${closed.url}/private-poster`);
      expect((await fetch(address)).status).toBe(404);
      await g.context.close();
    } finally {
      await closed.dispose();
    }
  }, 120_000);
});

describe("the stats page's empty state", () => {
  test("its QR code has the same options and address, with ?domain= for a link on another domain", async () => {
    const g = await guardedPage(browser);
    const { page } = g;
    await page.goto(`${server.url}/en/stats/away?domain=s.example.org`);
    await page.waitForSelector("#stats-empty:not([hidden])");
    const link = (await api(server.url, admin, "GET", "/api/links/away?domain=s.example.org")).body.data;
    expect(await shown(page, "empty-qr")).toBe(`${server.url}/away/qr?domain=s.example.org`);
    await setOptions(page, "empty-qr", { size: "256", level: "Q" });
    await page.waitForFunction(() => document.getElementById("empty-qr-url")!.textContent!.includes("level=Q"));
    expect(await shown(page, "empty-qr")).toBe(`${server.url}/away/qr?domain=s.example.org&size=256&level=Q`);
    expect(await decodeQr(page, "#empty-qr-img")).toBe(link.shortUrl);
    expect(await page.getAttribute("#empty-qr-download", "download")).toBe("qr-away.png");
    expect(g.errors).toEqual([]);
    await g.context.close();
  }, 120_000);
});

describe("screenshots", () => {
  for (const scheme of ["light", "dark"] as const) {
    for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
      test(`${device} ${scheme}: the QR dialog with its options; the stats page's empty state; axe clean, no sideways scroll`, async () => {
        const g = await signedIn(browser, server.url, admin, { viewport: { width, height: 900 }, colorScheme: scheme });
        const { page } = g;
        await openQr(page, "poster");
        await setOptions(page, "qrd", { size: "480", level: "Q" });
        await page.waitForFunction(() => document.getElementById("qrd-url")!.textContent!.includes("level=Q"));
        await shown(page, "qrd");
        await screenshot(page, `dashboard-qr-${device}-${scheme}`, false);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await hasHorizontalScroll(page)).toBe(false);
        await page.goto(`${server.url}/en/stats/poster`);
        await page.waitForSelector("#stats-empty:not([hidden])");
        await setOptions(page, "empty-qr", {});
        await shown(page, "empty-qr");
        await screenshot(page, `stats-qr-${device}-${scheme}`);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await hasHorizontalScroll(page)).toBe(false);
        await g.context.close();
      }, 120_000);
    }
  }
});
