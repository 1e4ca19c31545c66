// The dashboard with several domains (docs/web-ui.md: Several domains): the Domains dialog adds one
// and renames it; New link's picker makes a link on the chosen domain, the same alias on two domains
// being two rows; the list's filter shows only that domain's links; the overview counts one domain; removing a
// domain whose links clash says so. Screenshots at desktop and phone widths, light and dark.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { MESSAGES } from "../../web/i18n/index.ts";
import { api, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { launchBrowser, screenshot } from "./browser.ts";
import { closed, row, settled, shownIds, signedIn } from "./dashboard-support.ts";

setDefaultTimeout(90_000);

let server: RunningServer;
let browser: Browser;
let admin: string;
const en = MESSAGES.en;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = makeKey(server.dbPath, "owner");
  // The first domain added is the default (the dashboard answers at 127.0.0.1 as on it).
  for (const name of ["main.example.com", "s.example.org"]) {
    const added = await api(server.url, admin, "POST", "/api/domains", { name });
    if (added.status !== 201) throw new Error(`add ${name}: ${added.status} ${JSON.stringify(added.body)}`);
  }
  for (const [alias, domain] of [["home-1", undefined], ["away-1", "s.example.org"], ["away-2", "s.example.org"]] as const) {
    const made = await api(server.url, admin, "POST", "/api/create", { url: `https://example.com/${alias}`, custom_url: alias, ...(domain ? { domain } : {}) });
    if (made.status !== 200 && made.status !== 201) throw new Error(`create ${alias}: ${made.status} ${JSON.stringify(made.body)}`);
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const options = (page: Page, select: string) => page.$$eval(`${select} option`, (os) => os.map((o) => (o as HTMLOptionElement).value));

describe("several domains in the dashboard", () => {
  test("the Domains dialog lists them with their links, adds one and renames it", async () => {
    const { page, errors } = await signedIn(browser, server.url, admin);
    await page.click("#domains-open");
    await page.waitForSelector('#domain-list li[data-name="s.example.org"]');
    expect(await page.textContent('#domain-list li[data-name="main.example.com"]')).toContain(en.domain_default);
    expect(await page.textContent('#domain-list li[data-name="s.example.org"] .domain-links')).toBe(en.domain_links.replace("{count}", "2"));
    await page.click("#domain-add");
    await page.fill("#df-name", "go.example.net");
    await page.uncheck("#df-https");
    await page.selectOption("#df-robots", "none");
    await page.fill("#df-not-found", "https://example.com/lost");
    await page.click("#df-submit");
    await page.waitForSelector('#domain-list li[data-name="go.example.net"]');
    const kept = (await api(server.url, admin, "GET", "/api/domains")).body.domains.find((d: { name: string }) => d.name === "go.example.net");
    expect({ https: kept.https, robots: kept.robots, notFoundRedirect: kept.notFoundRedirect, isDefault: kept.isDefault }).toEqual({ https: false, robots: "none", notFoundRedirect: "https://example.com/lost", isDefault: false });
    // A name that is no host name: said by the field, nothing added.
    await page.click("#domain-add");
    await page.fill("#df-name", "not a domain");
    await page.click("#df-submit");
    await page.waitForSelector("#df-name-error:not([hidden])");
    expect(await page.getAttribute("#df-name", "aria-invalid")).toBe("true");
    await page.click("#df-cancel");
    // Change it: a new name is a rename, sent with only what changed.
    await page.click('#domain-list li[data-name="go.example.net"] [data-action="edit"]');
    expect(await page.inputValue("#df-not-found")).toBe("https://example.com/lost");
    await page.fill("#df-name", "go.example.org");
    await page.click("#df-submit");
    await page.waitForSelector('#domain-list li[data-name="go.example.org"]');
    const names = (await api(server.url, admin, "GET", "/api/domains")).body.domains.map((d: { name: string }) => d.name);
    expect(names).toContain("go.example.org");
    expect(names).not.toContain("go.example.net");
    // The page's pickers know the new domain at once.
    await page.click('#domains-dialog [data-close]');
    await closed(page, "domains-dialog");
    expect(await options(page, "#f-domain")).toEqual(["", "main.example.com", "go.example.org", "s.example.org"]);
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]); // the refused name's answer
  });

  test("New link's picker makes the link on the chosen domain; the same alias on two domains is two rows", async () => {
    const { page, errors } = await signedIn(browser, server.url, admin);
    await page.click("#new-link");
    await page.waitForSelector("#lf-domain-field:not([hidden])");
    expect((await options(page, "#lf-domain"))[0]).toBe("main.example.com"); // the default first, chosen
    await page.selectOption("#lf-domain", "s.example.org");
    expect(await page.textContent("#lf-alias-prefix")).toBe("s.example.org/");
    await page.fill("#lf-url", "https://example.com/picked");
    await page.fill("#lf-alias", "home-1"); // taken on the default domain only
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    await settled(page);
    const onS = (await api(server.url, admin, "GET", "/api/links?domain=s.example.org")).body.data.links.map((l: { id: string }) => l.id);
    expect(onS).toContain("home-1");
    const home = await api(server.url, admin, "GET", "/api/links/home-1");
    expect(home.body.data.originalUrl).toBe("https://example.com/home-1"); // the default's link is untouched
    expect(await row(page, "home-1@s.example.org").count()).toBe(1);
    expect(await row(page, "home-1").count()).toBe(1);
    expect(await row(page, "home-1@s.example.org").locator(".domain-chip").textContent()).toBe("s.example.org");
    // Editing shows the link's domain and does not offer another.
    await row(page, "home-1@s.example.org").locator('[data-action="menu"]').click();
    await page.click('#row-menu [data-action="edit"]');
    expect(await page.isDisabled("#lf-domain")).toBe(true);
    expect(await page.inputValue("#lf-domain")).toBe("s.example.org");
    await page.fill("#lf-url", "https://example.com/picked-2");
    await page.click("#lf-submit");
    await closed(page, "link-dialog");
    const edited = await api(server.url, admin, "GET", "/api/links/home-1?domain=s.example.org");
    expect(edited.body.data.originalUrl).toBe("https://example.com/picked-2");
    expect((await api(server.url, admin, "GET", "/api/links/home-1")).body.data.originalUrl).toBe("https://example.com/home-1");
    expect(errors).toEqual([]);
  });

  test("the domain filter shows only that domain's links, and the overview counts one domain", async () => {
    const { page, errors } = await signedIn(browser, server.url, admin);
    await page.selectOption("#f-domain", "s.example.org");
    await page.waitForURL(/domain=s\.example\.org/);
    await settled(page);
    const ids = await shownIds(page);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id.endsWith("@s.example.org"))).toBe(true);
    expect(await page.isVisible("#col-domain-head")).toBe(true);
    // The overview: every domain, then one.
    const all = Number(await page.textContent("#ov-links"));
    await page.selectOption("#ov-domain", "s.example.org");
    await page.waitForFunction((n) => Number(document.getElementById("ov-links")?.textContent) !== n, all);
    expect(Number(await page.textContent("#ov-links"))).toBe(ids.length);
    // A reload keeps the filter.
    await page.reload();
    await page.waitForSelector("#dashboard:not([hidden])");
    await settled(page);
    expect(await page.inputValue("#f-domain")).toBe("s.example.org");
    expect(errors).toEqual([]);
  });

  test("removing a domain whose aliases clash with where its links would go is refused, and said so", async () => {
    const { page } = await signedIn(browser, server.url, admin);
    await page.click("#domains-open");
    const item = '#domain-list li[data-name="s.example.org"]';
    await page.waitForSelector(item);
    await page.click(`${item} [data-action="remove"]`);
    await page.waitForSelector(`${item} .domain-move select`);
    await page.selectOption(`${item} .domain-move select`, "main.example.com");
    await page.click(`${item} [data-action="move"]`);
    await page.waitForSelector("#domains-error:not([hidden])");
    expect(await page.textContent("#domains-error")).toContain(en.err_domain_clash);
    expect(await page.textContent("#domains-error")).toContain("home-1");
    expect((await api(server.url, admin, "GET", "/api/domains")).body.domains.map((d: { name: string }) => d.name)).toContain("s.example.org");
  });
});

describe("the look", () => {
  for (const [width, scheme] of [[1280, "light"], [1280, "dark"], [390, "light"], [390, "dark"]] as const) {
    test(`${width} px, ${scheme}: the list with its Domain column, New link's picker, the Domains dialog`, async () => {
      const { page } = await signedIn(browser, server.url, admin, { viewport: { width, height: 900 }, colorScheme: scheme });
      await screenshot(page, `domains-list-${width}-${scheme}`);
      await page.click("#new-link");
      await page.waitForSelector("#lf-domain-field:not([hidden])");
      await screenshot(page, `domains-new-link-${width}-${scheme}`, false);
      await page.keyboard.press("Escape");
      await closed(page, "link-dialog");
      await page.click("#domains-open");
      await page.waitForSelector("#domain-list li");
      await page.click('#domain-list li[data-name="s.example.org"] [data-action="remove"]');
      await screenshot(page, `domains-dialog-${width}-${scheme}`, false);
    });
  }
});
