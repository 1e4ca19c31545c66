// Home page in a real browser against the real service: the create form, translated API errors,
// every language, Accept-Language on `/`, accessibility, phone width, and screenshots.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import jsQR from "jsqr";
import { LANGUAGES } from "../../src/lang.ts";
import { MESSAGES } from "../../web/i18n/index.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe("home page", () => {
  test("creates a link through the form and shows short URL, stats URL and QR code", async () => {
    const g = await guardedPage(browser);
    const { page } = g;
    await page.goto(`${server.url}/en/`);
    await page.fill("#url", "https://example.com/a/very/long/path?x=1");
    await page.fill("#custom_url", "form-made");
    await page.press("#custom_url", "Enter");
    await page.waitForSelector("#result:not([hidden])");
    expect(await page.textContent("#short-url")).toBe(`${server.url}/form-made`);
    expect(await page.textContent("#stats-url")).toBe(`${server.url}/en/stats/form-made`);
    await page.waitForFunction(() => (document.getElementById("qr-img") as HTMLImageElement).naturalWidth > 0);
    // The QR code must scan to the short URL: read its pixels off the page and decode them here.
    const pixels = await page.evaluate(() => {
      const img = document.getElementById("qr-img") as HTMLImageElement;
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext("2d")!;
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height);
      return { width: data.width, height: data.height, rgba: Array.from(data.data) };
    });
    expect(jsQR(Uint8ClampedArray.from(pixels.rgba), pixels.width, pixels.height)?.data).toBe(`${server.url}/form-made`);
    expect(await page.getAttribute("#qr-png", "href")).toStartWith("data:image/png;base64,");
    expect(await page.getAttribute("#qr-svg", "href")).toStartWith("blob:");
    expect(await page.getAttribute("#qr-png", "download")).toBe("qr-form-made.png");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("result-title");
    // The link really exists: the redirect answers.
    const res = await fetch(`${server.url}/form-made`, { redirect: "manual" });
    expect(res.headers.get("location")).toBe("https://example.com/a/very/long/path?x=1");
    await screenshot(page, "home-result-desktop-light");
    expect(g.errors).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });

  test("works with the keyboard alone: Tab to each field, Enter to submit, Tab on to the result's controls", async () => {
    const g = await guardedPage(browser);
    const { page } = g;
    await page.goto(`${server.url}/en/`);
    const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.getAttribute("data-copy") || document.activeElement?.tagName);
    // From the top of the page, Tab reaches the URL field before any other form control.
    for (let i = 0; i < 10 && (await focused()) !== "url"; i++) await page.keyboard.press("Tab");
    expect(await focused()).toBe("url");
    await page.keyboard.type("https://example.com/keyboard");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("custom_url");
    await page.keyboard.type("by-keys");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#result:not([hidden])");
    // Focus moves to the result so a screen reader announces it; Tab continues into its controls.
    expect(await focused()).toBe("result-title");
    const order: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      order.push(String(await focused()));
    }
    expect(order).toContain("short-url");
    expect(order).toContain("stats-link");
    expect(await page.textContent("#short-url")).toBe(`${server.url}/by-keys`);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("shows the API's errors next to their field, in the page language", async () => {
    await createLink(server.url, { url: "https://example.org/", custom_url: "taken-one" });
    const g = await guardedPage(browser);
    const { page } = g;
    await page.goto(`${server.url}/de/`);
    await page.fill("#url", "https://example.org/other");
    await page.fill("#custom_url", "taken-one");
    await page.click("#submit");
    await page.waitForSelector("#custom_url-error:not([hidden])");
    expect(await page.textContent("#custom_url-error")).toBe(MESSAGES.de.err_alias_taken);
    expect(await page.getAttribute("#custom_url", "aria-invalid")).toBe("true");
    expect(await page.isHidden("#url-error")).toBe(true);

    await page.fill("#url", "ftp://example.org/file");
    await page.fill("#custom_url", "");
    await page.click("#submit");
    await page.waitForSelector("#url-error:not([hidden])");
    expect(await page.textContent("#url-error")).toBe(MESSAGES.de.err_url_scheme);
    expect(await page.isHidden("#custom_url-error")).toBe(true);

    // Both fields wrong: both errors at once, and the alias error takes the hint's place.
    expect(await page.isVisible("#custom_url-hint")).toBe(true);
    await page.fill("#url", "ftp://example.org/file");
    await page.fill("#custom_url", "ab");
    await page.click("#submit");
    await page.waitForSelector("#custom_url-error:not([hidden])");
    expect(await page.textContent("#url-error")).toBe(MESSAGES.de.err_url_scheme);
    expect(await page.textContent("#custom_url-error")).toBe(MESSAGES.de.err_alias_invalid);
    expect(await page.isHidden("#custom_url-hint")).toBe(true);
    expect(await page.getAttribute("#url", "aria-invalid")).toBe("true");
    expect(await page.getAttribute("#custom_url", "aria-invalid")).toBe("true");
    expect(await page.getAttribute("#custom_url", "aria-describedby")).toBe("custom_url-error");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("url");
    // An empty URL is told without asking the API, together with the alias.
    await page.fill("#url", "");
    await page.click("#submit");
    expect(await page.textContent("#url-error")).toBe(MESSAGES.de.err_url_missing);
    expect(await page.textContent("#custom_url-error")).toBe(MESSAGES.de.err_alias_invalid);
    await screenshot(page, "home-error-desktop-light");
    // The only console errors allowed are the browser's own notes about the 4xx answers.
    expect(g.errors.filter((e) => !/status of 40\d/.test(e))).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });

  test("every language renders with its own words", async () => {
    const g = await guardedPage(browser);
    const headings = new Set<string>();
    for (const lang of LANGUAGES) {
      const res = await g.page.goto(`${server.url}/${lang}/`);
      expect(res?.status()).toBe(200);
      expect(await g.page.getAttribute("html", "lang")).toBe(lang);
      const h1 = (await g.page.textContent("h1"))?.trim() ?? "";
      expect(h1).toBe(MESSAGES[lang].home_title);
      expect(await g.page.textContent("label[for=url]")).toBe(MESSAGES[lang].field_url);
      headings.add(h1);
    }
    expect(headings.size).toBe(LANGUAGES.length);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("`/` speaks the best language for Accept-Language and the switch changes it", async () => {
    const g = await guardedPage(browser, { extraHTTPHeaders: { "Accept-Language": "ja,en;q=0.5" } });
    const res = await g.page.goto(`${server.url}/`);
    expect(res?.headers()["content-language"]).toBe("ja");
    expect(await g.page.getAttribute("html", "lang")).toBe("ja");
    expect(await g.page.textContent("h1")).toBe(MESSAGES.ja.home_title);
    // Keyboard only: open the language menu and follow "Polski".
    await g.page.focus(".lang-menu summary");
    await g.page.keyboard.press("Enter");
    await g.page.click(".lang-menu a[hreflang=pl]");
    await g.page.waitForURL(`${server.url}/pl/`);
    expect(await g.page.getAttribute("html", "lang")).toBe("pl");
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("has strict security headers", async () => {
    const res = await fetch(`${server.url}/en/`);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\b(src|type="application\/json")=?)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=/);
  });

  for (const scheme of ["light", "dark"] as const) {
    for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
      test(`is accessible and fits at ${width} px in ${scheme} mode`, async () => {
        const g = await guardedPage(browser, { viewport: { width, height: 800 }, colorScheme: scheme });
        await g.page.goto(`${server.url}/en/`);
        await g.page.fill("#url", `https://example.com/${scheme}/${device}`);
        await g.page.click("#submit");
        await g.page.waitForSelector("#result:not([hidden])");
        await g.page.waitForFunction(() => (document.getElementById("qr-img") as HTMLImageElement).naturalWidth > 0);
        expect(await hasHorizontalScroll(g.page)).toBe(false);
        // The short and stats URLs are shown whole (wrapped), never cut off.
        for (const id of ["short-url", "stats-url"]) {
          const box = await g.page.evaluate((id) => {
            const el = document.getElementById(id)!;
            return { text: el.textContent, fits: el.scrollWidth <= el.clientWidth };
          }, id);
          expect(box.fits, id).toBe(true);
          expect(box.text).toStartWith(server.url);
        }
        expect(await g.page.textContent("#stats-url")).toMatch(/\/en\/stats\/[A-Za-z0-9]{7}$/);
        await screenshot(g.page, `home-${device}-${scheme}`);
        expect(await seriousViolations(g.page)).toEqual([]);
        expect(g.errors).toEqual([]);
        expect(g.offHost).toEqual([]);
        await g.context.close();
      });
    }
  }
});
