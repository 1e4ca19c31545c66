// The 404 page of an unknown short link in a real browser (docs/web-ui.md: Not-found page): in the
// language the browser asks for, styled by the same stylesheet as the other visitor pages (its CSP
// lets nothing be blocked), accessible, fitting a phone, in both colour schemes; its button leads
// to the form.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import { MESSAGES } from "../../web/i18n/index.ts";
import { startServer, type RunningServer } from "../support/server.ts";
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

describe("the unknown-link 404 page", () => {
  const cases = [
    ["desktop", 1280, "light", "en"],
    ["desktop", 1280, "dark", "de"],
    ["phone", 360, "light", "pt"], // not ja: this machine has no CJK font, the screenshot would show empty boxes
    ["phone", 360, "dark", "pl"],
  ] as const;
  for (const [device, width, scheme, lang] of cases) {
    test(`${device} (${width} px), ${scheme}, asked for in ${lang}: translated, styled, accessible, fitting`, async () => {
      const g = await guardedPage(browser, { viewport: { width, height: 800 }, colorScheme: scheme, locale: lang });
      const loaded: { url: string; status: number }[] = [];
      g.page.on("response", (r) => loaded.push({ url: new URL(r.url()).pathname, status: r.status() }));
      const response = await g.page.goto(`${server.url}/no-such-link`);
      expect(response?.status()).toBe(404);
      expect(await g.page.getAttribute("html", "lang")).toBe(lang);
      expect(await g.page.textContent("main h1")).toBe(MESSAGES[lang].notfound_title);
      expect(await g.page.textContent(".notfound-actions .btn-primary")).toBe(MESSAGES[lang].back_home);
      // Styled: the stylesheet loaded and applies (a card, a filled button, the page's colours for the scheme).
      const look = await g.page.evaluate(() => {
        const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
        return {
          sheets: document.styleSheets.length,
          cardRadius: style(".card").borderTopLeftRadius,
          buttonFill: style(".notfound-actions .btn-primary").backgroundColor,
          dark: matchMedia("(prefers-color-scheme: dark)").matches,
          bodyBackground: style("body").backgroundColor,
        };
      });
      expect(look.sheets).toBe(1);
      expect(look.cardRadius).not.toBe("0px");
      expect(look.buttonFill).not.toBe("rgba(0, 0, 0, 0)");
      expect(look.dark).toBe(scheme === "dark");
      const [r, gr, b] = look.bodyBackground.match(/\d+/g)!.map(Number);
      expect((r! + gr! + b!) / 3 < 128).toBe(scheme === "dark");
      expect(await hasHorizontalScroll(g.page)).toBe(false);
      await screenshot(g.page, `not-found-${device}-${scheme}`);
      expect(await seriousViolations(g.page)).toEqual([]);
      // The page's own 404 is the one resource that did not load (Chromium logs it as an error); its stylesheet and icon did.
      expect(loaded.filter((r) => r.status !== 200)).toEqual([{ url: "/no-such-link", status: 404 }]);
      expect(loaded.length).toBeGreaterThan(1);
      expect(g.errors).toEqual(["Failed to load resource: the server responded with a status of 404 (Not Found)"]);
      expect(g.offHost).toEqual([]);
      await g.context.close();
    });
  }

  test("its button leads to the form, in the same language", async () => {
    const g = await guardedPage(browser, { locale: "fr" });
    await g.page.goto(`${server.url}/no-such-link`);
    await Promise.all([g.page.waitForURL(`${server.url}/fr/`), g.page.click(".notfound-actions .btn-primary")]);
    await g.page.waitForSelector("#create-form #url");
    expect(g.errors).toEqual(["Failed to load resource: the server responded with a status of 404 (Not Found)"]);
    await g.context.close();
  });
});
