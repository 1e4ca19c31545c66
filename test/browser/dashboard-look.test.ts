// The dashboard's quality bar: axe-core clean signed out, signed in, with the menu and each dialog
// open; 360 px wide without the page scrolling sideways; light and dark; every action by keyboard
// alone; every language; screenshots of the list and a dialog (light, dark, phone).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { LANGUAGES } from "../../src/lang.ts";
import { MESSAGES } from "../../web/i18n/index.ts";
import { api, makeKey } from "../support/admin.ts";
import { drained } from "../support/clicks.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { closed, focused, row, settled, signedIn, visit } from "./dashboard-support.ts";

setDefaultTimeout(120_000);

let server: RunningServer;
let browser: Browser;
let admin: string;
const en = MESSAGES.en;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = makeKey(server.dbPath, "laptop");
  const links: [string, Record<string, unknown>][] = [
    ["spring-sale", { url: "https://shop.example.com/campaigns/spring-sale/landing?utm_source=newsletter&utm_medium=email", tags: ["campaign", "shop"], max_clicks: 1000 }],
    ["guide", { url: "https://docs.example.org/getting-started/installation/linux#systemd", tags: ["docs"] }],
    ["talk-slides", { url: "https://talks.example.net/2026/fosdem/self-hosting-without-tears.pdf", tags: ["talks"], expires_at: "2031-12-31" }],
    ["old-promo", { url: "https://example.com/promo/2025", tags: ["campaign"] }],
    ["a-link-with-a-rather-long-id", { url: "https://example.com/" }],
  ];
  for (const [id, fields] of links) {
    const r = await api(server.url, admin, "POST", "/api/create", { ...fields, custom_url: id });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  }
  await api(server.url, admin, "PATCH", "/api/links/old-promo", { disabled: true });
  for (const [id, n] of [["spring-sale", 6], ["guide", 3], ["talk-slides", 1]] as const) for (let i = 0; i < n; i++) await visit(server.url, id);
  await drained(server.url); // every click written: the list's counts are final before the screenshots
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

/** The row menu is open and its first item has the focus (it moves there once the menu shows). */
async function menuFocused(page: Page): Promise<void> {
  await page.waitForFunction(() => document.activeElement?.closest("#row-menu:popover-open") != null);
}

async function noSeriousViolations(page: Page, what: string): Promise<void> {
  expect(await seriousViolations(page), what).toEqual([]);
}

describe("dashboard quality", () => {
  for (const scheme of ["light", "dark"] as const) {
    for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
      test(`accessible and fitting at ${width} px in ${scheme} mode: signed out, signed in, menu and every dialog`, async () => {
        const options = { viewport: { width, height: 900 }, colorScheme: scheme };
        const out = await guardedPage(browser, options);
        await out.page.goto(`${server.url}/en/links`);
        await out.page.waitForSelector("#sign-in:not([hidden])");
        expect(await hasHorizontalScroll(out.page)).toBe(false);
        await noSeriousViolations(out.page, "signed out");
        await screenshot(out.page, `dashboard-signin-${device}-${scheme}`);
        await out.context.close();

        const g = await signedIn(browser, server.url, admin, options);
        const { page } = g;
        expect(await hasHorizontalScroll(page)).toBe(false);
        await noSeriousViolations(page, "signed in");
        await screenshot(page, `dashboard-list-${device}-${scheme}`);

        // A link chosen: the bulk bar.
        await row(page, "guide").locator(".row-select").check();
        expect(await hasHorizontalScroll(page)).toBe(false);
        await noSeriousViolations(page, "bulk bar");
        await row(page, "guide").locator(".row-select").uncheck();

        // The row menu.
        await row(page, "spring-sale").locator('[data-action="menu"]').click();
        await page.waitForSelector("#row-menu:popover-open");
        await noSeriousViolations(page, "row menu");
        await page.keyboard.press("Escape");

        // Each dialog.
        await page.click("#new-link");
        await page.waitForSelector("#link-dialog[open]");
        await noSeriousViolations(page, "create dialog");
        await page.click("#lf-submit"); // empty: the URL's error shows
        await page.waitForSelector("#lf-url-error:not([hidden])");
        await noSeriousViolations(page, "create dialog with an error");
        await page.keyboard.press("Escape");
        await closed(page, "link-dialog");

        await row(page, "spring-sale").locator('[data-action="menu"]').click();
        await page.click('#row-menu [data-action="edit"]');
        await page.waitForSelector("#link-dialog[open]");
        expect(await hasHorizontalScroll(page)).toBe(false);
        await noSeriousViolations(page, "edit dialog");
        await screenshot(page, `dashboard-dialog-${device}-${scheme}`, false);
        await page.keyboard.press("Escape");
        await closed(page, "link-dialog");

        await row(page, "spring-sale").locator('[data-action="menu"]').click();
        await page.click('#row-menu [data-action="qr"]');
        await page.waitForSelector("#qr-dialog[open]");
        await page.waitForFunction(() => (document.getElementById("qrd-img") as HTMLImageElement).naturalWidth > 0);
        await noSeriousViolations(page, "QR dialog");
        await screenshot(page, `dashboard-qr-${device}-${scheme}`, false);
        await page.keyboard.press("Escape");
        await closed(page, "qr-dialog");

        await row(page, "spring-sale").locator('[data-action="menu"]').click();
        await page.click('#row-menu [data-action="delete"]');
        await page.waitForSelector("#confirm-dialog[open]");
        await noSeriousViolations(page, "delete confirmation");
        await screenshot(page, `dashboard-delete-${device}-${scheme}`, false);
        await page.keyboard.press("Escape");
        await closed(page, "confirm-dialog");

        await page.click("#import-open");
        await page.waitForSelector("#import-dialog[open]");
        await noSeriousViolations(page, "import dialog");
        await page.setInputFiles("#import-file", { name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("url,custom_url\nnot-a-url,x1\n") });
        await page.click("#import-submit");
        await page.waitForSelector("#import-result:not([hidden])");
        await noSeriousViolations(page, "import results");
        await screenshot(page, `dashboard-import-${device}-${scheme}`, false);
        await page.keyboard.press("Escape");
        await closed(page, "import-dialog");

        expect(await hasHorizontalScroll(page)).toBe(false);
        expect(g.errors).toEqual([]);
        expect(g.offHost).toEqual([]);
        await g.context.close();
      });
    }
  }

  test("the destination is shortened, and whole on hover (title) and on keyboard focus", async () => {
    const g = await signedIn(browser, server.url, admin, { viewport: { width: 1280, height: 900 } });
    const { page } = g;
    const dest = row(page, "spring-sale").locator(".dest");
    const full = "https://shop.example.com/campaigns/spring-sale/landing?utm_source=newsletter&utm_medium=email";
    expect(await dest.textContent()).toBe(full);
    expect(await dest.getAttribute("title")).toBe(full);
    const cut = await dest.evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(cut).toBe(true);
    // Reached by Tab from the link before it, it shows the whole URL (wrapped) while focused.
    await row(page, "spring-sale").locator('[data-action="copy"]').focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.classList.contains("dest"))).toBe(true);
    expect(await dest.evaluate((el) => el.scrollWidth <= el.clientWidth && getComputedStyle(el).whiteSpace === "normal")).toBe(true);
    await g.context.close();
  });

  test("keyboard alone: sign in, create, open the row menu, disable, edit, delete; Escape closes, focus comes back", async () => {
    const g = await guardedPage(browser);
    const { page } = g;
    await page.goto(`${server.url}/en/links`);
    await page.waitForSelector("#sign-in:not([hidden])");
    for (let i = 0; i < 12 && (await focused(page)) !== "sign-in-key"; i++) await page.keyboard.press("Tab");
    expect(await focused(page)).toBe("sign-in-key");
    await page.keyboard.type(admin);
    await page.keyboard.press("Enter");
    await page.waitForSelector("#dashboard:not([hidden])");
    await settled(page);

    // New link: from the title, Tab reaches the button; the dialog starts on the URL field.
    for (let i = 0; i < 10 && (await focused(page)) !== "new-link"; i++) await page.keyboard.press("Tab");
    expect(await focused(page)).toBe("new-link");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#link-dialog[open]");
    expect(await focused(page)).toBe("lf-url");
    await page.keyboard.type("https://example.com/by-keyboard");
    await page.keyboard.press("Tab");
    expect(await focused(page)).toBe("lf-alias");
    await page.keyboard.type("keyed");
    await page.keyboard.press("Enter");
    await page.waitForSelector('#links-body tr[data-id="keyed"]');
    await closed(page, "link-dialog");
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).closest("tr")?.dataset.id)).toBe("keyed");

    // To the row's menu button, open it, ArrowDown to Disable.
    for (let i = 0; i < 10 && (await focused(page)) !== "menu"; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).closest("tr")?.dataset.id)).toBe("keyed");
    await page.keyboard.press("Enter");
    await menuFocused(page);
    expect(await focused(page)).toBe("copy");
    // Escape closes it and focus goes back to its button.
    await page.keyboard.press("Escape");
    await page.waitForSelector("#row-menu:not(:popover-open)", { state: "attached" });
    expect(await focused(page)).toBe("menu");
    await page.keyboard.press("Enter");
    await menuFocused(page);
    for (let i = 0; i < 8 && (await focused(page)) !== "disable"; i++) await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.waitForFunction((text) => document.querySelector('#links-body tr[data-id="keyed"] .status')?.textContent === text, en.status_disabled);
    expect((await visit(server.url, "keyed")).status).toBe(410);
    expect(await focused(page)).toBe("menu");

    // Edit: End, then up to Edit; change the destination; Enter saves.
    await page.keyboard.press("Enter");
    await menuFocused(page);
    await page.keyboard.press("End");
    expect(await focused(page)).toBe("delete");
    for (let i = 0; i < 8 && (await focused(page)) !== "edit"; i++) await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#link-dialog[open]");
    expect(await focused(page)).toBe("lf-url");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("https://example.com/keyboard-moved");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector('#links-body tr[data-id="keyed"] .dest')?.textContent === "https://example.com/keyboard-moved");
    expect(await focused(page)).toBe("menu");

    // Delete: the confirmation starts on Cancel; Tab to Delete, Enter.
    await page.keyboard.press("Enter");
    await menuFocused(page);
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#confirm-dialog[open]");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(en.cancel);
    await page.keyboard.press("Tab");
    expect(await focused(page)).toBe("confirm-ok");
    await page.keyboard.press("Enter");
    await page.waitForSelector('#links-body tr[data-id="keyed"]', { state: "detached" });
    expect((await visit(server.url, "keyed")).status).toBe(410);
    // Focus went to a neighbouring row's menu (or the list), never lost to the page.
    expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);

    // Choose a row with Space, reach the bulk bar.
    await page.focus('#links-body tr[data-id="guide"] .row-select');
    await page.keyboard.press("Space");
    expect(await page.isVisible("#bulk")).toBe(true);
    expect(await page.textContent("#bulk-count")).toBe(en.selected_count.replace("{count}", "1"));
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("every language: the sign-in and the signed-in page in its own words, no message key left untranslated", async () => {
    const g = await signedIn(browser, server.url, admin);
    const count = String((await api(server.url, admin, "GET", "/api/links")).body.data.links.length);
    for (const lang of LANGUAGES) {
      await g.page.goto(`${server.url}/${lang}/links`);
      await g.page.waitForSelector("#dashboard:not([hidden])");
      await settled(g.page);
      expect(await g.page.getAttribute("html", "lang")).toBe(lang);
      expect(await g.page.textContent("#dashboard-title")).toBe(MESSAGES[lang].dashboard_title);
      expect(await g.page.textContent("#list-status")).toBe(MESSAGES[lang].showing.replace("{from}", "1").replace("{to}", count));
      expect(await g.page.textContent('#links-body tr[data-id="old-promo"] .status')).toBe(MESSAGES[lang].status_disabled);
      // A key name shown instead of its message would look like "status_active" (destinations may hold utm_source).
      const text = await g.page.evaluate(() => document.body.innerText);
      const keys = new RegExp(`\\b(${Object.keys(en).filter((k) => k.includes("_")).join("|")})\\b`, "g");
      expect(text.match(keys) ?? []).toEqual([]);
    }
    expect(g.errors).toEqual([]);
    await g.context.close();
    const out = await guardedPage(browser);
    for (const lang of LANGUAGES) {
      await out.page.goto(`${server.url}/${lang}/links`);
      await out.page.waitForSelector("#sign-in:not([hidden])");
      expect(await out.page.textContent("#sign-in-title")).toBe(MESSAGES[lang].signin_title);
      expect(await out.page.textContent(".signin-lead code")).toBe("shortener key create NAME");
    }
    await out.context.close();
  });
});
