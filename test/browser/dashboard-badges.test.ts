// The list says what each link does (docs/web-ui.md: Web UI): one link of each kind, made through
// the API, shows its badge (password, rules, split, a redirect code other than 302, a start still
// to come, an expiry) in words with a title, in every language; a link whose rules decide first
// says so before its URL; a split shows its URLs instead of the one nobody is sent to; a link made
// without a key says so instead of "public". Screenshots: desktop and phone, light and dark.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { LANGUAGES } from "../../src/lang.ts";
import { format, MESSAGES } from "../../web/i18n/index.ts";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { hasHorizontalScroll, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { row, settled, signedIn } from "./dashboard-support.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let browser: Browser;
let admin: string;
const en = MESSAGES.en;
const RULES = [
  { conditions: [{ type: "device", value: "mobile" }], url: "https://example.com/mobile" },
  { conditions: [{ type: "language", value: "de" }], url: "https://example.de/" },
];
const SPLIT = [{ url: "https://example.com/split-a", weight: 1 }, { url: "https://example.com/split-b", weight: 3 }];

/** Each link and the badges its row must show, in order. */
const KINDS: [string, Record<string, unknown>, string[]][] = [
  ["plain", {}, []],
  ["locked", { password: "correct horse" }, ["password"]],
  ["launch", { rules: RULES }, ["rules"]],
  ["split", { variants: SPLIT }, ["split"]],
  ["moved", { redirect_type: 301 }, ["redirect"]],
  ["kept", { redirect_type: 307 }, ["redirect"]],
  ["later", { valid_from: "2031-06-01T08:00:00Z" }, ["starts"]],
  ["ends", { expires_at: "2031-12-31" }, ["expires"]],
  ["everything", { password: "correct horse", rules: RULES, variants: SPLIT, redirect_type: 308, valid_from: "2031-06-01T08:00:00Z", expires_at: "2031-12-31" }, ["password", "rules", "split", "redirect", "starts", "expires"]],
];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = makeKey(server.dbPath, "laptop");
  for (const [id, fields] of KINDS) await madeLink(server.url, admin, id, fields);
  // Made on the public form's API without a key: nobody owns it.
  const anon = await api(server.url, null, "POST", "/api/create", { url: "https://example.com/anon", custom_url: "anon" });
  if (anon.status !== 201) throw new Error(JSON.stringify(anon.body));
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

type Badge = { kind: string; text: string; title: string; color: string; background: string };

/** A row's badges as shown: kind, visible words, title and colours. */
function badgesOf(page: Page, id: string): Promise<Badge[]> {
  return row(page, id).locator(".badges li").evaluateAll((items) =>
    items.map((li) => {
      const style = getComputedStyle(li);
      return { kind: (li as HTMLElement).dataset.badge ?? "", text: (li as HTMLElement).innerText.trim(), title: (li as HTMLElement).title, color: style.color, background: style.backgroundColor };
    }),
  );
}

describe("the list says what each link does", () => {
  test("one link of each kind: its badges in words with a title; the plain link has none", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    for (const [id, , kinds] of KINDS) {
      const badges = await badgesOf(page, id);
      expect({ id, kinds: badges.map((b) => b.kind) }).toEqual({ id, kinds });
      for (const b of badges) {
        // Words, not a colour alone, and a title that says more than the words.
        expect(b.text.length, `${id} ${b.kind}`).toBeGreaterThan(2);
        expect(b.title.length, `${id} ${b.kind}`).toBeGreaterThan(b.text.length);
      }
      if (kinds.length > 0) expect(await row(page, id).locator(".badges").getAttribute("aria-label")).toBe(format(en.badges_label, { id }));
    }
    const one = async (id: string) => (await badgesOf(page, id))[0]!;
    expect(await one("locked")).toMatchObject({ text: en.badge_password, title: en.badge_password_title });
    expect(await one("launch")).toMatchObject({ text: format(en.badge_rules, { count: 2 }), title: en.badge_rules_title });
    expect(await one("split")).toMatchObject({ text: en.badge_split, title: en.badge_split_title });
    expect(await one("moved")).toMatchObject({ text: format(en.badge_redirect, { code: 301 }), title: format(en.badge_redirect_permanent_title, { code: 301 }) });
    expect(await one("kept")).toMatchObject({ text: format(en.badge_redirect, { code: 307 }), title: format(en.badge_redirect_temporary_title, { code: 307 }) });
    // A permanent redirect is set apart by colour too, but says the same in words as a temporary one.
    expect((await one("moved")).background).not.toBe((await one("kept")).background);
    // The dates in the page's language and time zone: the start and the expiry, whole in the title.
    const when = await page.evaluate(() => {
      const f = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });
      const full = new Intl.DateTimeFormat("en", { dateStyle: "full", timeStyle: "short" });
      return { from: f.format(new Date("2031-06-01T08:00:00Z")), fromFull: full.format(new Date("2031-06-01T08:00:00Z")), until: f.format(new Date("2032-01-01T00:00:00Z")), untilFull: full.format(new Date("2032-01-01T00:00:00Z")) };
    });
    expect(await one("later")).toMatchObject({ text: format(en.badge_starts, { date: when.from }), title: format(en.badge_starts_title, { date: when.fromFull }) });
    expect(await one("ends")).toMatchObject({ text: format(en.badge_expires, { date: when.until }), title: format(en.badge_expires_title, { date: when.untilFull }) });
    // The expiry moved from the status column to its badge; the click limit stays there.
    expect(await row(page, "ends").locator(".status-note").count()).toBe(0);
    expect(await row(page, "plain").locator(".badges").count()).toBe(0);
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  test("where a link sends people: rules first, then its URL; a split's URLs and shares instead of a URL nobody gets", async () => {
    const g = await signedIn(browser, server.url, admin);
    const { page } = g;
    expect(await row(page, "launch").locator(".dest-lead").textContent()).toBe(en.dest_if_no_rule);
    expect(await row(page, "launch").locator(".dest").textContent()).toBe("https://example.com/launch");
    expect(await row(page, "plain").locator(".dest-lead").count()).toBe(0);
    const split = row(page, "split").locator(".dest");
    expect(await split.textContent()).toBe("https://example.com/split-a 25% · https://example.com/split-b 75%");
    expect(await split.getAttribute("title")).toBe("https://example.com/split-a 25% · https://example.com/split-b 75%");
    expect(await split.getAttribute("href")).toBeNull(); // two places: no one link to follow
    // Reached by keyboard, the whole text shows.
    await split.focus();
    expect(await split.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const everything = row(page, "everything");
    expect(await everything.locator(".dest-lead").textContent()).toBe(en.dest_if_no_rule);
    expect(await everything.locator(".dest").textContent()).not.toContain("https://example.com/everything");
    await g.context.close();
  });

  test("a link with no owner is \"made without a key\", with what that means, not \"public\"", async () => {
    const g = await signedIn(browser, server.url, admin);
    const owner = row(g.page, "anon").locator(".owner");
    expect(await owner.textContent()).toBe(en.owner_none);
    expect(await owner.getAttribute("title")).toBe(en.owner_none_title);
    expect(await row(g.page, "plain").locator(".owner").textContent()).toBe("laptop");
    await g.context.close();
  });

  test("every language: the badges, the lead and the owner in its own words", async () => {
    const g = await signedIn(browser, server.url, admin);
    for (const lang of LANGUAGES) {
      const m = MESSAGES[lang];
      await g.page.goto(`${server.url}/${lang}/links`);
      await g.page.waitForSelector("#dashboard:not([hidden])");
      await settled(g.page);
      const badges = await badgesOf(g.page, "everything");
      expect(badges.slice(0, 4).map((b) => [b.text, b.title])).toEqual([
        [m.badge_password, m.badge_password_title],
        [format(m.badge_rules, { count: 2 }), m.badge_rules_title],
        [m.badge_split, m.badge_split_title],
        [format(m.badge_redirect, { code: 308 }), format(m.badge_redirect_permanent_title, { code: 308 })],
      ]);
      // The dates' badges: the language's words around a date, never a placeholder left.
      for (const [b, key] of [[badges[4]!, m.badge_starts], [badges[5]!, m.badge_expires]] as const) {
        const [before, after] = key.split("{date}") as [string, string];
        expect(b.text.startsWith(before.trim()) && b.text.endsWith(after.trim()), `${lang}: ${b.text}`).toBe(true);
        expect(b.text + b.title).not.toContain("{");
      }
      expect(await row(g.page, "launch").locator(".dest-lead").textContent()).toBe(m.dest_if_no_rule);
      expect(await row(g.page, "anon").locator(".owner").textContent()).toBe(m.owner_none);
      expect(await row(g.page, "anon").locator(".owner").getAttribute("title")).toBe(m.owner_none_title);
    }
    expect(g.errors).toEqual([]);
    await g.context.close();
  });

  for (const scheme of ["light", "dark"] as const) {
    for (const [device, width] of [["desktop", 1280], ["phone", 360]] as const) {
      test(`${device} ${scheme}: the badges fit, axe finds nothing serious; screenshot`, async () => {
        const g = await signedIn(browser, server.url, admin, { viewport: { width, height: 900 }, colorScheme: scheme });
        const { page } = g;
        expect(await hasHorizontalScroll(page)).toBe(false);
        expect(await page.locator("#links-body .badge").count()).toBe(KINDS.flatMap(([, , kinds]) => kinds).length);
        // Every badge inside its row's link cell, none cut off.
        const outside = await page.$$eval("#links-body .badge", (items) =>
          items.filter((b) => {
            const cell = b.closest("td")!.getBoundingClientRect();
            const r = b.getBoundingClientRect();
            return r.left < cell.left - 0.5 || r.right > cell.right + 0.5 || b.scrollWidth > b.clientWidth + 1;
          }).map((b) => b.textContent),
        );
        expect(outside).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
        await screenshot(page, `dashboard-badges-${device}-${scheme}`);
        expect(g.errors).toEqual([]);
        expect(g.offHost).toEqual([]);
        await g.context.close();
      });
    }
  }
});
