// A webhook's one link in the dashboard's webhooks dialog, in Chromium against the real service
// (#35): an id that names no link (never made, or deleted) is said under the link field, as a link
// that does not exist, in English and in German, and nothing is added; the id of a link that exists
// is taken, and the list names it, also once the link is deleted. At desktop and phone widths, light
// and dark, with axe clean. Screenshots: webhook-link-{desktop,phone}-{light,dark}, webhook-link-de,
// webhook-link-deleted.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { MESSAGES } from "../../web/i18n/index.ts";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { signedIn } from "./dashboard-support.ts";

setDefaultTimeout(60_000);
let server: RunningServer;
let browser: Browser;
let admin: string;
let receiver: Receiver;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ args: ["--webhook-allow-private"] }), launchBrowser()]);
  admin = makeKey(server.dbPath, "admin");
  // The receiver on 127.0.0.1; the webhooks here want link.updated, and no link is changed.
  receiver = startReceiver("/hook", "127.0.0.1");
  await madeLink(server.url, admin, "hook-kept");
  await madeLink(server.url, admin, "hook-deleted");
  expect((await api(server.url, admin, "DELETE", "/api/links/hook-deleted")).status).toBe(200);
}, 60_000);

afterAll(async () => {
  receiver?.stop();
  await browser?.close();
  await server?.dispose();
});

/** The form filled for a link.updated webhook of the link `linkId`, and sent. */
async function submitFor(page: Page, linkId: string): Promise<void> {
  await page.click("#webhooks-open");
  await page.waitForSelector("#webhooks-dialog[open]");
  await page.click("#webhook-add");
  await page.waitForSelector("#webhook-form:not([hidden])");
  await page.fill("#wf-url", receiver.url);
  await page.check('#wf-events input[name="event"][value="link.updated"]');
  await page.fill("#wf-link", linkId);
  await page.click("#wf-submit");
}

for (const scheme of ["light", "dark"] as const) {
  for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
    test(`a link id that names no link is said under the link field, and nothing is added (${device}, ${scheme})`, async () => {
      const g = await signedIn(browser, server.url, admin, { viewport: { width, height: 900 }, colorScheme: scheme });
      const { page } = g;
      await submitFor(page, "no-such-link");
      for (const linkId of ["no-such-link", "hook-deleted"]) {
        if (linkId === "hook-deleted") {
          await page.fill("#wf-link", linkId);
          // Answered: the first id's error was cleared and this one's said.
          const answered = page.waitForResponse((r) => r.url().endsWith("/api/webhooks") && r.request().method() === "POST");
          await page.click("#wf-submit");
          expect((await answered).status()).toBe(400);
        }
        await page.waitForSelector("#wf-link-error:not([hidden])");
        expect(await page.textContent("#wf-link-error")).toBe(MESSAGES.en.err_not_found);
        expect(await page.getAttribute("#wf-link", "aria-invalid")).toBe("true");
        expect(await page.isVisible("#webhook-secret")).toBe(false);
      }
      expect(await page.isVisible("#webhooks-empty")).toBe(true);
      expect(await hasHorizontalScroll(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `webhook-link-${device}-${scheme}`, false);
      expect((await api(server.url, admin, "GET", "/api/webhooks")).body.data.webhooks).toEqual([]);
      expect(g.errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
      await g.context.close();
    });
  }
}

test("in German too; a link that exists is taken, and the list names it, still once the link is deleted", async () => {
  const g = await signedIn(browser, server.url, admin, { viewport: { width: 1280, height: 900 } }, "de");
  const { page } = g;
  await submitFor(page, "no-such-link");
  await page.waitForSelector("#wf-link-error:not([hidden])");
  expect(await page.textContent("#wf-link-error")).toBe(MESSAGES.de.err_not_found);
  await screenshot(page, "webhook-link-de", false);

  await page.fill("#wf-link", "hook-kept");
  await page.click("#wf-submit");
  await page.waitForSelector("#webhook-secret:not([hidden])");
  await page.waitForSelector("#webhook-list li[data-id]");
  const item = "#webhook-list li[data-id]";
  const only = MESSAGES.de.webhook_only_link.replace("{id}", "hook-kept");
  expect(await page.textContent(item)).toContain(only);
  // The link deleted: its webhook still names it (by the seq it had, read back as its retired id).
  expect((await api(server.url, admin, "DELETE", "/api/links/hook-kept")).status).toBe(200);
  await page.click("#webhooks-dialog [data-close]");
  await page.click("#webhooks-open");
  await page.waitForSelector("#webhooks-dialog[open]");
  await page.waitForSelector(item);
  expect(await page.textContent(item)).toContain(only);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, "webhook-link-deleted", false);
  const [hook] = (await api(server.url, admin, "GET", "/api/webhooks")).body.data.webhooks;
  expect(hook.linkId).toBe("hook-kept");
  await api(server.url, admin, "DELETE", `/api/webhooks/${hook.id}`);
  expect(g.errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  await g.context.close();
});
