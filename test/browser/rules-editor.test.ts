// The link dialog's Behaviour section in a real browser against the real service: redirect rules
// added, reordered and saved with the editor (the next clicks follow them, in the new order), a
// problem the server finds shown beside the rule it names, a create with a split, a password, a
// permanent redirect and its warning, the password removed again; and the stats page's rule and
// split breakdowns, shown only for a link that has them. axe-core runs with the editor open, and
// screenshots (light, dark, phone) go to test-artifacts/screenshots/rules-*.png.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { format, MESSAGES } from "../../web/i18n/index.ts";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { drained } from "../support/clicks.ts";
import { UA, click, guardedPage, hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { choose, closed, focused, signedIn } from "./dashboard-support.ts";

setDefaultTimeout(120_000);

let server: RunningServer;
let browser: Browser;
let admin: string;
const en = MESSAGES.en;
const A = "https://example.com/version-two";
const B = "https://m.example.com/";

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ args: ["--create-rate-limit", "0"] }), launchBrowser()]);
  admin = makeKey(server.dbPath, "laptop");
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

/** A link made through the API with the admin key. */
const made = (id: string, extra: Record<string, unknown> = {}) => madeLink(server.url, admin, id, extra);

const stored = async (id: string) => (await api(server.url, admin, "GET", `/api/links/${id}`)).body.data;

/** Where a click on `path` goes for this browser (no redirect followed). */
async function follow(path: string, ua: string): Promise<string | null> {
  const res = await fetch(`${server.url}/${path}`, { redirect: "manual", headers: { "user-agent": ua } });
  await res.arrayBuffer();
  return res.headers.get("location");
}

/** Opens a link's edit dialog. */
async function edit(page: Page, id: string): Promise<void> {
  await choose(page, id, "edit");
  await page.waitForSelector("#link-dialog[open]");
}

/** Unfolds the Behaviour section (by its summary, as a person would). */
async function unfold(page: Page): Promise<void> {
  if (!(await page.evaluate(() => (document.getElementById("lf-advanced") as HTMLDetailsElement).open))) await page.click("#lf-advanced > summary");
  await page.waitForSelector("#lf-advanced[open]");
}

/** Rule n's card, found by its accessible name ("Rule 2"), as a screen reader would. */
const rule = (page: Page, n: number): Locator => page.getByRole("group", { name: format(en.rule_title, { n }), exact: true });
const label = (text: string, n: number) => format(text, { n });
const summaries = (page: Page) => page.locator("#lf-rules .rule-summary").allTextContents();

describe("rules editor", () => {
  test("two rules added, reordered and saved: the next clicks follow them in the new order; axe finds nothing", async () => {
    await made("ruled");
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await edit(page, "ruled");
    // A plain link's dialog keeps the section folded: the simple case stays simple.
    expect(await page.isVisible("#lf-rule-add")).toBe(false);
    await screenshot(page, "rules-dialog-folded", false);
    await unfold(page);

    await page.click("#lf-rule-add");
    expect(await focused(page)).toBe("SELECT"); // its first condition's type, ready to choose
    const first = rule(page, 1);
    await first.getByLabel(label(en.condition_type, 1), { exact: true }).selectOption("query");
    await first.getByLabel(label(en.condition_key, 1), { exact: true }).fill("v");
    await first.getByLabel(label(en.condition_query_value, 1), { exact: true }).fill("2");
    await first.getByLabel(en.rule_url, { exact: true }).fill(A);

    await page.click("#lf-rule-add");
    const second = rule(page, 2);
    expect(await second.getByLabel(label(en.condition_value, 1), { exact: true }).inputValue()).toBe("mobile");
    await second.getByLabel(en.rule_url, { exact: true }).fill(B);
    const queryWords = format(en.rule_summary, { conditions: format(en.summary_query, { key: "v", value: "2" }), destination: A });
    const deviceWords = format(en.rule_summary, { conditions: format(en.summary_device, { value: en.device_mobile }), destination: B });
    expect(await summaries(page)).toEqual([queryWords, deviceWords]);
    // The first rule cannot move up, the last not down.
    expect(await first.getByRole("button", { name: label(en.rule_move_up, 1) }).isDisabled()).toBe(true);
    expect(await second.getByRole("button", { name: label(en.rule_move_down, 2) }).isDisabled()).toBe(true);
    expect(await seriousViolations(page), "dialog with the rules editor").toEqual([]);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await screenshot(page, "rules-editor-light", false);

    // The device rule goes first; focus stays on the card's move buttons, and the move is said.
    await second.getByRole("button", { name: label(en.rule_move_up, 2) }).click();
    expect(await summaries(page)).toEqual([deviceWords, queryWords]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(label(en.rule_move_down, 1));
    expect(await page.textContent("#lf-rules-status")).toBe(label(en.rule_moved, 1));
    await screenshot(page, "rules-editor-reordered", false);

    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    expect((await stored("ruled")).rules).toEqual([
      { conditions: [{ type: "device", value: "mobile" }], url: B },
      { conditions: [{ type: "query", key: "v", value: "2" }], url: A },
    ]);
    // The click's query is passed on to the destination (docs/redirect-rules.md), as for any link.
    expect(await follow("ruled?v=2", UA.firefoxLinux)).toBe(`${A}?v=2`);
    expect(await follow("ruled?v=2", UA.safariIphone)).toBe(`${B}?v=2`); // both hold: the first rule wins
    expect(await follow("ruled", UA.safariIphone)).toBe(B);
    expect(await follow("ruled", UA.firefoxLinux)).toBe("https://example.com/ruled");

    // Opened again, the section unfolds by itself and shows the rules as saved.
    await edit(page, "ruled");
    expect(await page.evaluate(() => (document.getElementById("lf-advanced") as HTMLDetailsElement).open)).toBe(true);
    expect(await summaries(page)).toEqual([deviceWords, queryWords]);
    // Deleting the first rule hands the focus to the one that took its place.
    await rule(page, 1).getByRole("button", { name: label(en.rule_delete, 1) }).click();
    expect(await summaries(page)).toEqual([queryWords]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(label(en.rule_delete, 1));
    await page.keyboard.press("Escape");
    await closed(page, "link-dialog");
    expect((await stored("ruled")).rules).toHaveLength(2); // cancelled: nothing sent
    expect(g.errors).toEqual([]);
    expect(g.offHost).toEqual([]);
    await g.context.close();
  });

  test("the dialog's own checks and the server's problems are shown beside the rule they name; nothing is saved until both pass", async () => {
    await made("bad-rule");
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await edit(page, "bad-rule");
    await unfold(page);
    // By keyboard: Enter on "Add rule", then a type from the list.
    await page.focus("#lf-rule-add");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(label(en.condition_type, 1));
    await rule(page, 1).getByLabel(en.rule_url, { exact: true }).fill(B);
    await page.click("#lf-rule-add");
    const second = rule(page, 2);
    await second.getByLabel(label(en.condition_type, 1), { exact: true }).selectOption("cidr");
    await page.click("#lf-submit");
    // Empty: said without asking the server.
    const error = second.locator(":scope > .field-error");
    await error.waitFor();
    expect(await error.textContent()).toBe(`${format(en.problem_condition, { rule: 2, condition: 1 })}: ${en.err_rule_value_missing}`);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-invalid"))).toBe("true");

    await second.getByLabel(label(en.condition_value, 1), { exact: true }).fill("not-a-range");
    await second.getByLabel(en.rule_url, { exact: true }).fill(A);
    await page.click("#lf-submit");
    // The server's check names rule 2, condition 1; the editor shows it there and focuses the value.
    await page.waitForFunction(() => /cidr/.test(document.querySelectorAll("#lf-rules .rule")[1]?.querySelector(".rule-body > .field-error")?.textContent ?? ""));
    expect(await error.textContent()).toStartWith(`${format(en.problem_condition, { rule: 2, condition: 1 })}: cidr must be`);
    expect(await second.getByLabel(label(en.condition_value, 1), { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe("not-a-range");
    expect(await rule(page, 1).locator(":scope > .field-error").isHidden()).toBe(true);
    expect(await seriousViolations(page), "rules editor with a problem shown").toEqual([]);
    await screenshot(page, "rules-editor-error", false);
    expect((await stored("bad-rule")).rules).toEqual([]);

    await second.getByLabel(label(en.condition_value, 1), { exact: true }).fill("203.0.113.0/24");
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    expect((await stored("bad-rule")).rules).toEqual([
      { conditions: [{ type: "device", value: "mobile" }], url: B },
      { conditions: [{ type: "cidr", value: "203.0.113.0/24" }], url: A },
    ]);
    expect(g.errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await g.context.close();
  });

  test("create with a permanent redirect (and its warning), a password, a split, a fallback and crawling; the password removed again", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await page.click("#new-link");
    await page.waitForSelector("#link-dialog[open]");
    await page.fill("#lf-url", "https://example.com/behaved-a");
    await page.fill("#lf-alias", "behaved");
    await unfold(page);
    expect(await page.textContent("#lf-redirect-warning")).toBe("");
    await page.selectOption("#lf-redirect", "301");
    expect(await page.textContent("#lf-redirect-warning")).toBe(en.redirect_warning);
    expect(await page.isVisible("#lf-redirect-warning")).toBe(true);
    await page.selectOption("#lf-redirect", "307");
    expect(await page.isVisible("#lf-redirect-warning")).toBe(false);
    await page.selectOption("#lf-redirect", "308");
    expect(await page.isVisible("#lf-redirect-warning")).toBe(true);
    await page.fill("#lf-password", "open sesame");
    await page.fill("#lf-fallback", "https://example.com/over");
    await page.check("#lf-crawlable");
    // A split begins from the destination above and one more URL.
    await page.check("#lf-split");
    const split = page.locator("#lf-split-editor");
    expect(await split.getByLabel(label(en.variant_url, 1), { exact: true }).inputValue()).toBe("https://example.com/behaved-a");
    await split.getByLabel(label(en.variant_url, 2), { exact: true }).fill("https://example.com/behaved-b");
    await split.getByLabel(label(en.variant_weight, 2), { exact: true }).fill("3");
    expect(await split.locator(".variant-share").allTextContents()).toEqual(["25%", "75%"]);
    expect(await split.getByRole("button", { name: label(en.variant_remove, 1) }).isDisabled()).toBe(true); // two at least
    expect(await seriousViolations(page), "create dialog with every behaviour field").toEqual([]);
    await screenshot(page, "rules-create-behaviour", false);
    await page.click("#lf-submit");
    await closed(page, "link-dialog");

    const link = await stored("behaved");
    expect(link).toMatchObject({
      redirectType: 308,
      passwordProtected: true,
      fallbackUrl: "https://example.com/over",
      crawlable: true,
      variants: [{ url: "https://example.com/behaved-a", weight: 1 }, { url: "https://example.com/behaved-b", weight: 3 }],
      rules: [],
    });
    expect(link.warnings).toHaveLength(1);
    expect((await fetch(`${server.url}/behaved`, { redirect: "manual" })).status).toBe(401); // the password page

    await edit(page, "behaved");
    expect(await page.isVisible("#lf-password-set")).toBe(true);
    expect(await page.textContent("#lf-password-label")).toBe(en.field_password_new);
    expect(await page.textContent("#lf-redirect-warning")).toBe(en.redirect_warning);
    await page.check("#lf-password-remove");
    expect(await page.isDisabled("#lf-password")).toBe(true);
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    // Only the password changed.
    expect(await stored("behaved")).toMatchObject({ passwordProtected: false, redirectType: 308, crawlable: true, variants: link.variants });
    expect((await fetch(`${server.url}/behaved`, { redirect: "manual" })).status).toBe(308);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("editing one rule sends the others back as stored: a time with seconds, a query without a value", async () => {
    const rules = [
      { conditions: [{ type: "after", value: "2031-01-01T09:00:30.500Z" }, { type: "query", key: "beta" }], url: "https://example.com/later" },
      { conditions: [{ type: "os", value: "ios" }], url: "https://apps.example.com/" },
    ];
    await made("kept", { rules });
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    await edit(page, "kept");
    const after = rule(page, 1).getByLabel(label(en.condition_value, 1), { exact: true });
    expect(await after.getAttribute("type")).toBe("datetime-local");
    const local = new Date("2031-01-01T09:00:30.500Z");
    const pad = (n: number) => String(n).padStart(2, "0");
    expect(await after.inputValue()).toBe(`${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}T${pad(local.getHours())}:${pad(local.getMinutes())}`);
    expect(await rule(page, 2).getByLabel(label(en.condition_value, 1), { exact: true }).inputValue()).toBe("ios");
    await rule(page, 2).getByLabel(en.rule_url, { exact: true }).fill("https://apps.example.com/ios");
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    expect((await stored("kept")).rules).toEqual([rules[0], { ...rules[1], url: "https://apps.example.com/ios" }]);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  for (const [scheme, width] of [["dark", 1280], ["light", 360]] as const) {
    test(`the editor in ${scheme} mode at ${width} px: accessible, nothing scrolls sideways`, async () => {
      await made(`look-${scheme}`, {
        rules: [
          { conditions: [{ type: "country", value: "DE" }, { type: "language", value: "de" }], url: "https://example.de/" },
          { conditions: [{ type: "after", value: "2031-01-01T09:00:00Z" }], variants: [{ url: "https://example.com/new-a", weight: 1 }, { url: "https://example.com/new-b", weight: 1 }] },
        ],
      });
      const g = await signedIn(browser, server.url, admin, { viewport: { width, height: 900 }, colorScheme: scheme });
      const { page } = g;
      await edit(page, `look-${scheme}`);
      await page.waitForSelector("#lf-advanced[open]");
      await rule(page, 2).scrollIntoViewIfNeeded();
      expect(await rule(page, 2).getByRole("radio", { name: en.destination_split }).isChecked()).toBe(true);
      expect(await seriousViolations(page), `${scheme} editor`).toEqual([]);
      expect(await hasHorizontalScroll(page)).toBe(false);
      const dialogFits = await page.evaluate(() => {
        const d = document.getElementById("link-dialog")!;
        return d.scrollWidth <= d.clientWidth + 1;
      });
      expect(dialogFits).toBe(true);
      await screenshot(page, `rules-editor-${scheme}-${width}`, false);
      expect(g.errors).toEqual([]);
      await g.context.close();
    });
  }
});

describe("stats page", () => {
  test("shows the rule and split breakdowns and the route columns, only for a link that has them", async () => {
    await made("routed", {
      rules: [
        { conditions: [{ type: "query", key: "v", value: "2" }], url: A },
        { conditions: [{ type: "device", value: "mobile" }], variants: [{ url: "https://m.example.com/a", weight: 1 }, { url: "https://m.example.com/b", weight: 1 }] },
      ],
    });
    await made("unrouted");
    await click(server.url, "routed", [
      { ua: UA.firefoxLinux, query: "?v=2", ip: "198.51.100.1" },
      { ua: UA.chromeWindows, query: "?v=2", ip: "198.51.100.2" },
      { ua: UA.firefoxLinux, query: "?v=2", ip: "198.51.100.3" },
      { ua: UA.safariIphone, ip: "198.51.100.4" },
      { ua: UA.safariIphone, ip: "198.51.100.5" },
      { ua: UA.chromeWindows, ip: "198.51.100.6" },
    ]);
    await click(server.url, "unrouted", [{ ua: UA.firefoxLinux }]);
    // A disabled link with a fallback: the visitor sent there is counted apart, by reason.
    await made("fell-back", { fallback_url: "https://example.com/elsewhere" });
    await api(server.url, admin, "PATCH", "/api/links/fell-back", { disabled: true });
    expect(await follow("fell-back", UA.firefoxLinux)).toBe("https://example.com/elsewhere");
    await drained(server.url);

    for (const scheme of ["light", "dark"] as const) {
      const g = await guardedPage(browser, { colorScheme: scheme });
      const { page } = g;
      await page.goto(`${server.url}/en/stats/routed`);
      await page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "6");
      expect(await page.isVisible("#bd-rule-card")).toBe(true);
      // Each with its share of the six clicks (every breakdown shows percentages: docs/web-ui.md).
      expect(await page.locator("#bd-rule li").allTextContents()).toEqual([`${format(en.rule_title, { n: 1 })}350%`, `${format(en.rule_title, { n: 2 })}233.3%`, `${en.rule_default}116.7%`]);
      expect(await page.isVisible("#bd-variant-card")).toBe(true);
      const variants = await page.locator("#bd-variant li .bar-name").allTextContents();
      expect(variants.every((v) => v.startsWith("https://m.example.com/"))).toBe(true);
      const counts = await page.locator("#bd-variant li .bar-count").allTextContents();
      expect(counts.reduce((a, c) => a + Number(c), 0)).toBe(2);
      expect(await page.isVisible("#bd-fallback-card")).toBe(false); // no fallback taken
      // The recent visits say which rule each click took.
      expect(await page.isVisible("#col-rule")).toBe(true);
      expect(await page.isVisible("#col-variant")).toBe(true);
      const ruleCells = await page.locator("#recent-table tbody tr").evaluateAll((rows) => rows.map((r) => r.children[7]?.textContent));
      expect(ruleCells.sort()).toEqual([...Array(3).fill(format(en.rule_title, { n: 1 })), ...Array(2).fill(format(en.rule_title, { n: 2 })), en.rule_default].sort());
      expect(await seriousViolations(page), `${scheme} stats page with rules`).toEqual([]);
      await screenshot(page, `rules-stats-${scheme}`);
      expect(g.errors).toEqual([]);
      await g.context.close();
    }

    const g = await guardedPage(browser);
    await g.page.goto(`${server.url}/en/stats/fell-back`);
    await g.page.waitForSelector("#bd-fallback-card:not([hidden])");
    expect(await g.page.locator("#bd-fallback li").allTextContents()).toEqual([`${en.status_disabled}1`]);
    expect(await g.page.isVisible("#bd-rule-card")).toBe(false);
    expect(await seriousViolations(g.page), "stats page with a fallback").toEqual([]);

    await g.page.goto(`${server.url}/en/stats/unrouted`);
    await g.page.waitForFunction(() => document.getElementById("kpi-total")?.textContent === "1");
    for (const hidden of ["#bd-rule-card", "#bd-variant-card", "#bd-fallback-card", "#col-rule", "#col-variant"]) expect(await g.page.isVisible(hidden), hidden).toBe(false);
    expect(await g.page.locator("#recent-table tbody tr:first-child td").count()).toBe(7);
    await g.context.close();
  });
});
