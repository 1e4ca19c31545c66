// A failing webhook in the dashboard, in Chromium against the real service (#34, "Nothing fails
// silently"): a receiver on 127.0.0.1 answering 500 makes its card say "Failing" with the reason, its
// delivery log marks the delivery that waits for its next try as failing, and one the receiver
// turned off with 410 says why, in English and in German; at desktop and phone widths, light and
// dark, with axe clean. Screenshots: webhook-failing-{desktop,phone}-{light,dark}, webhook-failing-log,
// webhook-failing-de.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import { MESSAGES } from "../../web/i18n/index.ts";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { closed, signedIn } from "./dashboard-support.ts";

setDefaultTimeout(60_000);
const en = MESSAGES.en;
const de = MESSAGES.de;
let server: RunningServer;
let browser: Browser;
let admin: string;
let failing: Receiver;
let gone: Receiver;
let failingId: number;
let goneId: number;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ args: ["--webhook-allow-private"] }), launchBrowser()]);
  admin = makeKey(server.dbPath, "admin");
  failing = startReceiver("/hook", "127.0.0.1");
  failing.answer(() => new Response("down", { status: 500 }));
  gone = startReceiver("/gone", "127.0.0.1");
  gone.answer(() => new Response(null, { status: 410 }));
  failingId = (await api(server.url, admin, "POST", "/api/webhooks", { url: failing.url, events: ["link.created"] })).body.data.id;
  goneId = (await api(server.url, admin, "POST", "/api/webhooks", { url: gone.url, events: ["link.created"] })).body.data.id;
  await madeLink(server.url, admin, "hook-health");
  // Both tried once: the one failing, the other turned off by its 410.
  await eventually(async () => (await api(server.url, admin, "GET", "/api/webhooks")).body.data.webhooks.map((w: { status: string }) => w.status), (s) => s.join() === "failing,disabled", 20_000);
}, 60_000);

afterAll(async () => {
  failing?.stop();
  gone?.stop();
  await browser?.close();
  await server?.dispose();
});

const item = (id: number) => `#webhook-list li[data-id="${id}"]`;

for (const scheme of ["light", "dark"] as const) {
  for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
    test(`a failing webhook says so with its reason, a disabled one why (${device}, ${scheme})`, async () => {
      const g = await signedIn(browser, server.url, admin, { viewport: { width, height: 900 }, colorScheme: scheme });
      const { page } = g;
      await page.click("#webhooks-open");
      await page.waitForSelector(`${item(failingId)}[data-status="failing"]`);
      expect(await page.textContent(`${item(failingId)} .webhook-problem`)).toBe(en.webhook_failing_reason.replace("{reason}", en.webhook_answered.replace("{code}", "500")));
      expect(await page.textContent(`${item(failingId)} .webhook-last .status`)).toBe(`${en.delivery_failing} 500`);
      expect(await page.getAttribute(`${item(goneId)}`, "data-status")).toBe("disabled");
      expect(await page.textContent(`${item(goneId)} .webhook-reason`)).toBe(en.webhook_disabled_gone);
      expect(await page.locator(`${item(goneId)} .webhook-problem`).count()).toBe(0);
      expect(await hasHorizontalScroll(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `webhook-failing-${device}-${scheme}`, false);

      if (device === "desktop" && scheme === "light") {
        // The log: the delivery waiting for its next try is failing, with the receiver's answer.
        await page.click(`${item(failingId)} [data-action="log"]`);
        await page.waitForSelector('#webhook-log-rows tr[data-failing="true"]');
        const row = page.locator("#webhook-log-rows tr").first();
        expect(await row.getAttribute("data-state")).toBe("pending");
        expect(await row.locator(".status").first().textContent()).toBe(en.delivery_failing);
        expect(await row.textContent()).toContain("answered 500");
        expect(await seriousViolations(page)).toEqual([]);
        await screenshot(page, "webhook-failing-log", false);
        await page.click("#webhook-log-dialog [data-close]");
        await closed(page, "webhook-log-dialog");
      }
      expect(g.errors).toEqual([]);
      expect(g.offHost).toEqual([]);
      await g.context.close();
    });
  }
}

test("in German too", async () => {
  const g = await signedIn(browser, server.url, admin, {}, "de");
  const { page } = g;
  await page.click("#webhooks-open");
  await page.waitForSelector(`${item(failingId)}[data-status="failing"]`);
  expect(await page.textContent(`${item(failingId)} .webhook-problem`)).toBe(de.webhook_failing_reason.replace("{reason}", de.webhook_answered.replace("{code}", "500")));
  expect(await page.textContent(`${item(goneId)} .webhook-reason`)).toBe(de.webhook_disabled_gone);
  await screenshot(page, "webhook-failing-de", false);
  expect(g.errors).toEqual([]);
  await g.context.close();
});
