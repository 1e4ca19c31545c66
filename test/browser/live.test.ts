// The live view and webhooks (#25) in Chromium against the real service: the stats page's live
// mark, a click (made by the test) heading the recent visits and raising the totals with the
// page's polling held back (so only the stream can have done it); the dashboard's live counter; the
// webhooks dialog adding a webhook to a real receiver (test/support/webhook-receiver.ts, whose
// Standard Webhooks library checks the signatures with the secret the dialog showed once), the
// delivery log and Redeliver, and turning a webhook off. Screenshots: live-stats, live-dashboard,
// webhooks-dialog, webhook-log.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page, Route } from "playwright-core";
import { MESSAGES } from "../../web/i18n/index.ts";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { drained, UA } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { guardedPage, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { closed, signedIn } from "./dashboard-support.ts";

setDefaultTimeout(90_000);
const en = MESSAGES.en;
let server: RunningServer;
let browser: Browser;
let admin: string;
let receiver: Receiver;
let witness: Receiver;

beforeAll(async () => {
  // Trusting the test as its proxy lets X-Forwarded-For pick a click's country; the receivers are
  // on 127.0.0.7, a private address.
  [server, browser] = await Promise.all([startServer({ args: ["--trust-proxy", "127.0.0.1", "--webhook-allow-private"] }), launchBrowser()]);
  admin = makeKey(server.dbPath, "admin");
  receiver = startReceiver("/hook");
  witness = startReceiver("/witness");
});

afterAll(async () => {
  receiver?.stop();
  witness?.stop();
  await browser?.close();
  await server?.dispose();
});

async function clickAs(id: string, ua: string, extra: Record<string, string> = {}): Promise<void> {
  const res = await fetch(`${server.url}/${id}`, { redirect: "manual", headers: { "user-agent": ua, ...extra } });
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`click on ${id} answered ${res.status}`);
}

/** Holds every GET /api/stats (not the live stream) from now on, unanswered: the page's polling then changes nothing. */
async function holdStatsPolling(page: Page): Promise<void> {
  const held: Route[] = [];
  await page.route(
    (url) => url.pathname === "/api/stats",
    (route) => {
      held.push(route); // never answered (dropped with the page)
    },
  );
}

describe("stats page", () => {
  test("the live mark shows; a click heads the recent visits and raises the totals without a reload", async () => {
    await madeLink(server.url, admin, "live-stats");
    await clickAs("live-stats", UA.firefoxLinux, { "x-forwarded-for": "8.8.8.8" });
    await drained(server.url);

    const g = await guardedPage(browser);
    const { page } = g;
    let loads = 0;
    page.on("load", () => loads++);
    await page.goto(`${server.url}/en/stats/live-stats`);
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "1");
    await page.waitForSelector("#live:not([hidden])");
    expect(await page.isVisible("#live .live-dot")).toBe(true);
    expect(await page.textContent("#live .live-label")).toBe(en.live);
    expect(await page.locator("#recent-table tbody tr").count()).toBe(1);
    await holdStatsPolling(page);

    const clickedAt = performance.now();
    await clickAs("live-stats", UA.chromeWindows, { "x-forwarded-for": "85.214.132.117", referer: "https://news.ycombinator.com/item?id=1" });
    await page.waitForFunction(() => document.querySelectorAll("#recent-table tbody tr").length === 2, undefined, { timeout: 5_000 });
    console.log(`stats page: click → row shown ${Math.round(performance.now() - clickedAt)} ms`);
    expect(await page.textContent("#kpi-total")).toBe("2");
    expect(await page.textContent("#kpi-human")).toBe("2");
    const first = await page.locator("#recent-table tbody tr").first().textContent();
    expect(first).toContain("Chrome");
    expect(first).toContain("Windows");
    expect(first).toContain("Germany");
    expect(first).toContain("news.ycombinator.com");
    expect(await page.locator("#recent-table tbody tr").nth(1).textContent()).toContain("Firefox");

    // A bot's visit: a click, not a human one; the bot share moves.
    await clickAs("live-stats", UA.googlebot);
    await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "3", undefined, { timeout: 5_000 });
    expect(await page.textContent("#kpi-human")).toBe("2");
    expect(await page.textContent("#kpi-bots")).toBe(new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 1 }).format(1 / 3));
    expect(await page.locator("#recent-table tbody tr").first().locator(".badge-bot").count()).toBe(1);
    expect(loads).toBe(1); // no reload

    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "live-stats");
    expect(g.errors).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });
});

describe("dashboard", () => {
  test("the live counter counts a click of a link the session may see", async () => {
    await madeLink(server.url, admin, "live-dash");
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await page.waitForSelector("#live-counter:not([hidden])");
    expect(await page.getAttribute("#live-counter", "data-clicks")).toBe("0");
    expect(await page.textContent("#live-counter .live-label")).toBe(en.live);
    await clickAs("live-dash", UA.firefoxLinux);
    await page.waitForSelector('#live-counter[data-clicks="1"]', { timeout: 5_000 });
    expect(await page.textContent("#live-count")).toBe(en.live_clicks.replace("{count}", "1"));
    await clickAs("live-dash", UA.safariIphone);
    await clickAs("live-stats", UA.chromeWindows);
    await page.waitForSelector('#live-counter[data-clicks="3"]', { timeout: 5_000 });
    expect(await page.textContent("#live-count")).toBe(en.live_clicks.replace("{count}", "3"));
    expect(await page.isVisible("#live-counter")).toBe(true);
    await screenshot(page, "live-dashboard", false);
    expect(g.errors).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });

  test("a create key's dashboard has a live counter but no webhooks button", async () => {
    const g = await signedIn(browser, server.url, makeKey(server.dbPath, "creator", "create"));
    await g.page.waitForSelector("#live-counter:not([hidden])");
    expect(await g.page.isVisible("#webhooks-open")).toBe(false);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });
});

describe("webhooks dialog", () => {
  test("add a webhook; its secret shows once and signs the deliveries; the log and Redeliver; turning it off", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await page.click("#webhooks-open");
    await page.waitForSelector("#webhooks-dialog[open]");
    await page.waitForSelector("#webhooks-empty:not([hidden])");
    await page.click("#webhook-add");
    await page.waitForSelector("#webhook-form:not([hidden])");

    // Nothing filled in: the API's field errors, by the fields.
    await page.click("#wf-submit");
    await page.waitForSelector("#wf-url-error:not(:empty)");
    const urlError = await page.textContent("#wf-url-error");
    expect(urlError).not.toBe("");
    await page.fill("#wf-url", receiver.url);
    await page.click("#wf-submit");
    await page.waitForSelector("#wf-events-error:not(:empty)");
    expect(await page.isVisible("#webhook-secret")).toBe(false);

    await page.check('#wf-events input[name="event"][value="link.created"]');
    await page.check('#wf-events input[name="event"][value="link.deleted"]');
    await page.click("#wf-submit");
    await page.waitForSelector("#webhook-secret:not([hidden])");
    const secret = (await page.textContent("#webhook-secret-value"))!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(await page.textContent("#webhook-secret-note")).toBe(en.webhook_secret_once);
    expect(await page.isVisible("#webhook-secret-copy")).toBe(true);
    expect(await page.isVisible("#webhook-form")).toBe(false);
    await page.waitForSelector("#webhook-list li[data-id]");
    const id = Number(await page.getAttribute("#webhook-list li[data-id]", "data-id"));
    const item = `#webhook-list li[data-id="${id}"]`;
    expect(await page.getAttribute(item, "data-enabled")).toBe("true");
    expect(await page.textContent(`${item} .webhook-url`)).toBe(receiver.url);
    expect(await page.getAttribute(`${item} .webhook-pending`, "data-pending")).toBe("0");
    receiver.setSecret(secret);

    // The API never gives the secret again.
    const listed = await api(server.url, admin, "GET", "/api/webhooks");
    expect(listed.body.data.webhooks.map((w: { id: number }) => w.id)).toEqual([id]);
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice(6));

    // A link made: its link.created comes to the receiver, signed with that secret.
    await madeLink(server.url, admin, "hooked");
    const got = await eventually(async () => receiver.ofType("link.created"), (r) => r.length > 0, 15_000);
    expect(got).toHaveLength(1);
    expect(got[0]!.verified).toBe("ok");
    expect(got[0]!.body.data.link.id).toBe("hooked");

    // Closed and opened again: the secret is gone from the page; the list says how the delivery went.
    await page.click("#webhooks-dialog [data-close]");
    await closed(page, "webhooks-dialog");
    // (the dialog's close event comes a task after it closed)
    await page.waitForFunction(() => document.getElementById("webhook-secret-value")?.textContent === "" && document.getElementById("webhook-secret")!.hidden);
    expect(await page.content()).not.toContain(secret.slice(6));
    await page.click("#webhooks-open");
    await page.waitForSelector(`${item} .webhook-last[data-state="delivered"]`);
    expect(await page.isVisible("#webhook-secret")).toBe(false);
    expect(await page.getAttribute(`${item} .webhook-pending`, "data-pending")).toBe("0");
    expect(await page.textContent(`${item} .webhook-last`)).toContain("204");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "webhooks-dialog", false);

    // The delivery log lists it; Redeliver queues the same message again, which is delivered.
    await page.click(`${item} [data-action="log"]`);
    await page.waitForSelector("#webhook-log-dialog[open]");
    await page.waitForSelector('#webhook-log-rows tr[data-id][data-state="delivered"]');
    expect(await page.locator("#webhook-log-rows tr").count()).toBe(1);
    const firstDelivery = await page.getAttribute("#webhook-log-rows tr", "data-id");
    expect(await page.textContent("#webhook-log-rows tr")).toContain("link.created");
    await page.click('#webhook-log-rows tr [data-action="redeliver"]');
    await page.waitForFunction(() => document.querySelectorAll("#webhook-log-rows tr").length === 2);
    const newest = page.locator("#webhook-log-rows tr").first();
    expect(await newest.getAttribute("data-state")).toBe("pending");
    const redelivery = await newest.getAttribute("data-id");
    expect(redelivery).not.toBe(firstDelivery);
    expect(await page.getAttribute("#webhook-log-rows tr:nth-child(2)", "data-id")).toBe(firstDelivery);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "webhook-log", false);
    const again = await eventually(async () => receiver.ofType("link.created"), (r) => r.length > 1, 15_000);
    expect(again).toHaveLength(2);
    expect(again[1]!.id).toBe(again[0]!.id); // the same message (webhook-id): a receiver de-duplicates it
    expect(again[1]!.verified).toBe("ok");
    expect(receiver.unique()).toHaveLength(1);
    // Opened again, the log shows the redelivery delivered.
    await page.click("#webhook-log-dialog [data-close]");
    await closed(page, "webhook-log-dialog");
    await page.click(`${item} [data-action="log"]`);
    await page.waitForSelector("#webhook-log-dialog[open]");
    await page.waitForSelector(`#webhook-log-rows tr[data-id="${redelivery}"][data-state="delivered"]`);
    expect(await page.locator('#webhook-log-rows tr[data-state="delivered"]').count()).toBe(2);
    await page.click("#webhook-log-dialog [data-close]");
    await closed(page, "webhook-log-dialog");

    // Turned off: the list says so, and a link made then is not delivered to it. A second webhook,
    // on, is the witness that the event went out.
    const made = await api(server.url, admin, "POST", "/api/webhooks", { url: witness.url, events: ["link.created"] });
    expect(made.status).toBe(201);
    await page.click(`${item} [data-action="toggle"]`);
    await page.waitForSelector(`${item}[data-enabled="false"]`);
    expect(await page.isChecked(`${item} [data-action="toggle"]`)).toBe(false);
    expect(await page.textContent(`${item} .webhook-reason`)).toBe(en.webhook_disabled_admin);
    expect((await api(server.url, admin, "GET", `/api/webhooks/${id}`)).body.data).toMatchObject({ enabled: false, disabledReason: "disabled by an admin" });
    await madeLink(server.url, admin, "after-off");
    const seen = await eventually(async () => witness.ofType("link.created"), (r) => r.length > 0, 15_000);
    expect(seen.map((r) => r.body.data.link.id)).toEqual(["after-off"]);
    expect(receiver.ofType("link.created")).toHaveLength(2); // nothing more than before
    const deliveries = await api(server.url, admin, "GET", `/api/webhooks/${id}/deliveries`);
    expect(deliveries.body.data.deliveries).toHaveLength(2);

    // Deleted after the confirmation: gone from the list.
    await page.click(`${item} [data-action="delete"]`);
    await page.click("#confirm-ok");
    await page.waitForSelector(item, { state: "detached" });
    expect((await api(server.url, admin, "GET", `/api/webhooks/${id}`)).status).toBe(404);

    // The two refused submissions above were the API's 400s; nothing else went wrong in the page.
    expect(g.errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });
});
