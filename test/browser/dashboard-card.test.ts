// The link dialog's preview card (docs/sharing.md: Preview cards): the preview follows what the
// owner types (the card's fields, the link's title as the default title, none on a password-protected
// link), the card is saved (the API and a reload show it) and cleared field by field (PATCH null),
// a hostile title is shown as text, and the image is never loaded (only its address is shown).
// Screenshots: the dialog with its preview, desktop and phone, light and dark; axe clean.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { MESSAGES } from "../../web/i18n/index.ts";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { choose, closed, settled, signedIn } from "./dashboard-support.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;
let admin: string;
const HOSTILE = `<img src=x onerror="alert('card')"> Sale & "more"`;
// Never fetched: the guarded page aborts and records any request off 127.0.0.1.
const IMAGE = "https://images.example/poster.png";

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = makeKey(server.dbPath, "laptop");
  await madeLink(server.url, admin, "hostile", { title: HOSTILE });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const preview = (page: Page) =>
  page.evaluate(() => ({
    none: !document.getElementById("lf-card-none")!.hidden,
    shown: !document.getElementById("lf-card-preview")!.hidden,
    site: document.getElementById("lf-card-site")!.textContent,
    title: document.getElementById("lf-card-heading")!.textContent,
    text: document.getElementById("lf-card-text")!.textContent,
    image: document.getElementById("lf-card-image-box")!.hidden ? null : document.getElementById("lf-card-image-url")!.textContent,
  }));

async function openCard(page: Page): Promise<void> {
  if (!(await page.evaluate(() => (document.getElementById("lf-card") as HTMLDetailsElement).open))) await page.click("#lf-card > summary");
}

describe("the card editor", () => {
  test("the preview follows the typing; saved, the API and a reload show the card", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    const host = new URL(server.url).host;
    await page.click("#new-link");
    await page.waitForSelector("#link-dialog[open]");
    await page.fill("#lf-url", "https://example.com/sale");
    await page.fill("#lf-alias", "sale");
    await page.locator("#lf-title").pressSequentially("Spring sale");
    await openCard(page);
    expect(await preview(page)).toMatchObject({ none: true, shown: false });

    await page.locator("#lf-card-description").pressSequentially("Half price");
    // The link's title stands in for the card's own, as the server does.
    expect(await preview(page)).toEqual({ none: false, shown: true, site: host, title: "Spring sale", text: "Half price", image: null });
    expect(await page.getAttribute("#lf-card-title", "placeholder")).toBe("Spring sale");
    await page.locator("#lf-card-title").pressSequentially("Everything half price");
    await page.locator("#lf-card-image").pressSequentially(IMAGE);
    expect(await preview(page)).toMatchObject({ title: "Everything half price", image: IMAGE });
    expect(await page.locator("#lf-card-preview img").count()).toBe(0);

    // A password: no title taken from the link (the card's own still shows).
    await page.fill("#lf-card-title", "");
    await page.click("#lf-advanced > summary");
    await page.locator("#lf-password").pressSequentially("pw");
    expect((await preview(page)).title).toBe("");
    await page.fill("#lf-password", "");
    expect((await preview(page)).title).toBe("Spring sale");
    await page.locator("#lf-card-title").pressSequentially("Everything half price");

    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    await settled(page);
    const stored = (await api(server.url, admin, "GET", "/api/links/sale")).body.data;
    expect([stored.cardTitle, stored.cardDescription, stored.cardImage]).toEqual(["Everything half price", "Half price", IMAGE]);

    await page.reload();
    await settled(page);
    await choose(page, "sale", "edit");
    await page.waitForSelector("#link-dialog[open]");
    expect(await page.evaluate(() => (document.getElementById("lf-card") as HTMLDetailsElement).open)).toBe(true);
    expect([await page.inputValue("#lf-card-title"), await page.inputValue("#lf-card-description"), await page.inputValue("#lf-card-image")]).toEqual(["Everything half price", "Half price", IMAGE]);
    expect(await preview(page)).toEqual({ none: false, shown: true, site: host, title: "Everything half price", text: "Half price", image: IMAGE });
    expect(g.offHost).toEqual([]);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("clearing a field clears it (PATCH null); clearing all leaves no card", async () => {
    await madeLink(server.url, admin, "clear-me", { title: "Old", cardTitle: "Card", cardDescription: "Words", cardImage: IMAGE });
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await choose(page, "clear-me", "edit");
    await page.waitForSelector("#link-dialog[open]");
    await page.fill("#lf-card-description", "");
    await page.fill("#lf-card-image", "");
    expect(await preview(page)).toMatchObject({ title: "Card", text: "", image: null });
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    let stored = (await api(server.url, admin, "GET", "/api/links/clear-me")).body.data;
    expect([stored.cardTitle, stored.cardDescription, stored.cardImage, stored.title]).toEqual(["Card", null, null, "Old"]);

    await choose(page, "clear-me", "edit");
    await page.waitForSelector("#link-dialog[open]");
    await page.fill("#lf-card-title", "");
    expect(await preview(page)).toMatchObject({ none: true, shown: false });
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    stored = (await api(server.url, admin, "GET", "/api/links/clear-me")).body.data;
    expect([stored.cardTitle, stored.cardDescription, stored.cardImage]).toEqual([null, null, null]);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("a card the API refuses (card_invalid) shows its message under its field, the section unfolded", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await choose(page, "hostile", "edit");
    await page.waitForSelector("#link-dialog[open]");
    expect(await page.evaluate(() => (document.getElementById("lf-card") as HTMLDetailsElement).open)).toBe(false);
    // Typed while unfolded, then folded away: the refusal must bring it back into view.
    await openCard(page);
    await page.fill("#lf-card-image", "ftp://images.example/poster.png");
    await page.click("#lf-card > summary");
    await page.click("#lf-submit");
    await page.waitForSelector("#lf-card-image-error:not([hidden])");
    const refused = await api(server.url, admin, "PATCH", "/api/links/hostile", { cardImage: "ftp://images.example/poster.png" });
    expect([refused.status, refused.body.code, refused.body.field]).toEqual([400, "card_invalid", "cardImage"]);
    expect(await page.textContent("#lf-card-image-error")).toBe(MESSAGES.en.err_card_invalid);
    expect(await page.evaluate(() => (document.getElementById("lf-card") as HTMLDetailsElement).open)).toBe(true);
    expect((await api(server.url, admin, "GET", "/api/links/hostile")).body.data.cardImage).toBeNull();
    await g.context.close();
  });

  test("Open on iPhone / Android: set when creating, shown when editing, cleared with null", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await page.click("#new-link");
    await page.waitForSelector("#link-dialog[open]");
    await page.fill("#lf-url", "https://example.com/app");
    await page.fill("#lf-alias", "app");
    await page.click("#lf-advanced > summary");
    await page.fill("#lf-ios", "https://apps.apple.com/app/id1");
    await page.fill("#lf-android", "https://play.google.com/store/apps/details?id=example");
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    let stored = (await api(server.url, admin, "GET", "/api/links/app")).body.data;
    expect([stored.iosUrl, stored.androidUrl]).toEqual(["https://apps.apple.com/app/id1", "https://play.google.com/store/apps/details?id=example"]);

    await settled(page);
    await choose(page, "app", "edit");
    await page.waitForSelector("#link-dialog[open]");
    expect(await page.inputValue("#lf-ios")).toBe("https://apps.apple.com/app/id1");
    await page.fill("#lf-ios", "");
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    stored = (await api(server.url, admin, "GET", "/api/links/app")).body.data;
    expect([stored.iosUrl, stored.androidUrl]).toEqual([null, "https://play.google.com/store/apps/details?id=example"]);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("a hostile link title is shown in the preview as text", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await choose(page, "hostile", "edit");
    await page.waitForSelector("#link-dialog[open]");
    await openCard(page);
    await page.locator("#lf-card-description").pressSequentially(`<b>bold</b>`);
    expect(await preview(page)).toMatchObject({ title: HOSTILE, text: "<b>bold</b>" });
    expect(await page.locator("#lf-card-preview img, #lf-card-preview b").count()).toBe(0);
    expect(g.dialogs).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });
});

describe("screenshots", () => {
  for (const scheme of ["light", "dark"] as const) {
    for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
      test(`${device} ${scheme}: the dialog with the card's preview; axe clean, no sideways scroll`, async () => {
        const g = await signedIn(browser, server.url, admin, { viewport: { width, height: 900 }, colorScheme: scheme });
        const { page } = g;
        await page.click("#new-link");
        await page.waitForSelector("#link-dialog[open]");
        await page.fill("#lf-title", "Spring sale at the corner shop");
        await openCard(page);
        await page.fill("#lf-card-description", "Everything half price until Sunday, while stocks last.");
        await page.fill("#lf-card-image", `${IMAGE}?size=large&campaign=spring-sale-2026`);
        await page.locator("#lf-card-preview").scrollIntoViewIfNeeded();
        await screenshot(page, `dashboard-card-${device}-${scheme}`, false);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await hasHorizontalScroll(page)).toBe(false);
        expect(g.offHost).toEqual([]);
        await g.context.close();
      });
    }
  }
});
