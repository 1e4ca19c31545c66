// The open-app page of a link into an app (docs/sharing.md: Links into apps) in a real browser: in
// the language the browser asks for, styled by the visitor pages' stylesheet under its own strict
// CSP (nothing blocked, no script), accessible, fitting a phone with a long app URL, in both colour
// schemes; its links lead into the app and to the link's web fallback. The app link is not
// followed: this machine has no app for it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import { MESSAGES } from "../../web/i18n/index.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";

setDefaultTimeout(60_000);

const APP_URL = `tg://resolve?domain=example_channel&start=${"campaign-spring-".repeat(4)}${"x".repeat(60)}`;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ args: ["--allow-schemes", "tg"] }), launchBrowser()]);
  const key = makeKey(server.dbPath, "owner");
  const made = await api(server.url, key, "POST", "/api/create", { url: APP_URL, custom_url: "open-tg", fallback_url: "https://t.example/example_channel" });
  expect(made.status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe("the open-app page", () => {
  const cases = [
    ["desktop", 1280, "light", "en"],
    ["desktop", 1280, "dark", "de"],
    ["phone", 360, "light", "fr"],
    ["phone", 360, "dark", "pl"],
  ] as const;
  for (const [device, width, scheme, lang] of cases) {
    test(`${device} (${width} px), ${scheme}, in ${lang}: translated, styled, accessible, fitting, nothing blocked`, async () => {
      const g = await guardedPage(browser, { viewport: { width, height: 800 }, colorScheme: scheme, locale: lang });
      const blocked: string[] = [];
      g.page.on("console", (m) => {
        if (m.text().includes("Content Security Policy")) blocked.push(m.text());
      });
      const response = await g.page.goto(`${server.url}/open-tg`);
      expect(response?.status()).toBe(200);
      expect(await g.page.getAttribute("html", "lang")).toBe(lang);
      expect(await g.page.textContent("main h1")).toBe(MESSAGES[lang].open_app_title);
      expect(await g.page.getAttribute(".notfound-actions .btn-primary", "href")).toBe(APP_URL);
      expect(await g.page.textContent(".notfound-actions .btn-primary")).toBe(MESSAGES[lang].open_app_open);
      expect(await g.page.getAttribute(".notfound-actions .btn-secondary", "href")).toBe("https://t.example/example_channel");
      expect(await g.page.textContent(".notfound-actions .btn-secondary")).toBe(MESSAGES[lang].open_app_browser);
      const look = await g.page.evaluate(() => ({
        sheets: document.styleSheets.length,
        scripts: document.scripts.length,
        buttonFill: getComputedStyle(document.querySelector(".notfound-actions .btn-primary")!).backgroundColor,
      }));
      expect(look).toMatchObject({ sheets: 1, scripts: 0 });
      expect(look.buttonFill).not.toBe("rgba(0, 0, 0, 0)");
      expect(await hasHorizontalScroll(g.page)).toBe(false);
      await screenshot(g.page, `open-app-${device}-${scheme}`);
      expect(await seriousViolations(g.page)).toEqual([]);
      expect(blocked).toEqual([]);
      expect(g.errors).toEqual([]);
      expect(g.offHost).toEqual([]);
      await g.context.close();
    });
  }
});
