// Signing in as a person would, in Chromium: through a real OpenID provider (oidc-provider's login
// and consent forms) for an admin and a plain user, and through a real Caddy whose forward_auth
// vouches for the user. The plain user's dashboard shows only their links; the admin's shows who
// owns each link and filters by owner; the proxy's user has no sign-out of ours.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { PROVIDER_HOST, serviceWithProvider, type ServiceWithProvider } from "../support/oidc-provider.ts";
import { CADDY_HOST, startCaddy, type RunningCaddy } from "../support/caddy.ts";
import { guardedPage, launchBrowser, screenshot, seriousViolations } from "./browser.ts";
import { settled, shownIds } from "./dashboard-support.ts";
import en from "../../web/i18n/en.json";
import de from "../../web/i18n/de.json";

// A sign-in through the provider's own pages takes several seconds of Chromium on a shared 2-core
// machine (up to 13 s measured): 5 s, bun's default, failed them all there, on old code and new.
setDefaultTimeout(60_000);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Creates a link in the open dashboard through its dialog. */
async function createInDashboard(page: Page, id: string): Promise<void> {
  await page.click("#new-link");
  await page.fill("#lf-url", `https://example.com/${id}`);
  await page.fill("#lf-alias", id);
  await page.click("#lf-submit");
  await page.waitForSelector(`#links-body tr[data-id="${id}"]`);
}

/** At the provider's own pages (the dashboard's button was clicked): its login form as `login`, then its consent form. */
async function throughProviderForms(page: Page, login: string): Promise<void> {
  await page.waitForSelector('input[name="login"]');
  expect(new URL(page.url()).hostname).toBe(PROVIDER_HOST);
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', "any password");
  await page.click('button[type="submit"]');
  await page.waitForSelector('button[type="submit"]:has-text("Continue")');
  await page.click('button[type="submit"]');
}

describe("through the OpenID provider", () => {
  let service: ServiceWithProvider;
  let server: RunningServer;
  let base: string;
  beforeAll(async () => {
    service = await serviceWithProvider(["--oidc-admin-group", "admins", "--oidc-name", "Homelab ID"]);
    ({ server, base } = service);
  });
  afterAll(() => service?.stop());

  /** From the dashboard's button through the provider's login and consent forms, back to the dashboard. */
  async function signInAs(login: string) {
    const g = await guardedPage(browser, {}, [PROVIDER_HOST]);
    await g.page.goto(`${base}/en/links`);
    await g.page.waitForSelector("#sign-in:not([hidden])");
    expect(await g.page.textContent("#sign-in-oidc-button")).toBe(en.signin_with.replace("{name}", "Homelab ID"));
    await g.page.click("#sign-in-oidc-button");
    await throughProviderForms(g.page, login);
    await g.page.waitForURL(`${base}/en/links`);
    // The provider's own pages ask for web fonts the guard blocks (their console errors); from here on it is ours.
    g.errors.length = 0;
    await g.page.waitForSelector("#dashboard:not([hidden])");
    await settled(g.page);
    return g;
  }

  test("alice (admins) signs in with the provider's forms and lands in her dashboard as an admin", async () => {
    const { page, context, errors } = await signInAs("alice");
    expect(await page.textContent("#signed-in-as")).toContain("alice");
    expect(await page.isVisible("#f-owner-field")).toBe(true);
    await createInDashboard(page, "alice-made");
    expect(await page.textContent('#links-body tr[data-id="alice-made"] .owner')).toBe("alice");
    expect(errors).toEqual([]);
    await context.close();
  });

  test("bob (a plain user) sees only his own links; alice then sees both, with owners, and filters by owner", async () => {
    const bob = await signInAs("bob");
    expect(await bob.page.textContent("#signed-in-as")).toContain("bob");
    expect(await bob.page.isVisible("#f-owner-field")).toBe(false);
    expect(await shownIds(bob.page)).toEqual([]);
    await createInDashboard(bob.page, "bob-made");
    expect(await shownIds(bob.page)).toEqual(["bob-made"]);
    expect(await bob.page.locator("#links-body .owner").count()).toBe(0);
    await screenshot(bob.page, "sign-in-oidc-plain-user");
    await bob.context.close();

    const alice = await signInAs("alice");
    expect((await shownIds(alice.page)).sort()).toEqual(["alice-made", "bob-made"]);
    await screenshot(alice.page, "sign-in-oidc-admin");
    await alice.page.click('#links-body tr[data-id="bob-made"] button.owner');
    await alice.page.waitForFunction(() => [...document.querySelectorAll("#links-body tr")].length === 1);
    expect(await shownIds(alice.page)).toEqual(["bob-made"]);
    expect(new URL(alice.page.url()).searchParams.get("owner")).toBe("bob");
    await alice.context.close();
  });

  test("sign-out ends the session and offers the provider's sign-out", async () => {
    const { page, context } = await signInAs("alice");
    await page.click("#sign-out");
    await page.waitForSelector("#sign-in:not([hidden])");
    await page.waitForSelector("#sign-out-provider:not([hidden])");
    expect(await page.textContent("#sign-out-provider-link")).toBe(en.signout_provider.replace("{name}", "Homelab ID"));
    expect(new URL((await page.getAttribute("#sign-out-provider-link", "href"))!).pathname).toBe("/session/end");
    await screenshot(page, "sign-in-oidc-signed-out");
    await context.close();
  });

  test("a refused sign-in is a page in the visitor's language, with a way to start again", async () => {
    const g = await guardedPage(browser, { locale: "de-DE" });
    const answer = await g.page.goto(`${base}/api/session/oidc/callback?code=x&state=not-ours`);
    expect(answer!.status()).toBe(400);
    expect(await g.page.textContent("h1")).toBe(de.signin_failed_title);
    expect(await g.page.textContent("main")).toContain(de.signin_failed_state_mismatch);
    expect(await seriousViolations(g.page)).toEqual([]);
    await screenshot(g.page, "sign-in-refused-de");
    await g.page.click(`a:has-text("${de.signin_again}")`);
    await g.page.waitForSelector("#sign-in-oidc:not([hidden])");
    expect(new URL(g.page.url()).pathname).toBe("/de/links");
    // Chromium reports the refusal's own 400 as a console error; nothing else may be there.
    expect(g.errors).toEqual(["Failed to load resource: the server responded with a status of 400 (Bad Request)"]);
    await g.context.close();
  });

  test("the key form stays beside the provider's button", async () => {
    const key = makeKey(server.dbPath, "ops");
    const g = await guardedPage(browser);
    await g.page.goto(`${base}/en/links`);
    await g.page.waitForSelector("#sign-in:not([hidden])");
    expect(await g.page.isVisible("#sign-in-form")).toBe(true);
    await screenshot(g.page, "sign-in-oidc-card");
    await g.page.fill("#sign-in-key", key);
    await g.page.press("#sign-in-key", "Enter");
    await g.page.waitForSelector("#dashboard:not([hidden])");
    await g.context.close();
  });
});

describe("a private stats page, signing in through the provider", () => {
  let service: ServiceWithProvider;
  let server: RunningServer;
  let base: string;
  beforeAll(async () => {
    service = await serviceWithProvider(["--stats-access", "key"]);
    ({ server, base } = service);
  });
  afterAll(() => service?.stop());

  test("from the stats page's sign-in, through the provider, back to the stats page itself", async () => {
    // The first user is the admin: every link's stats are hers.
    const key = makeKey(server.dbPath, "ops");
    expect((await api(base, key, "POST", "/api/create", { url: "https://example.com/private", custom_url: "private-one" })).status).toBe(201);
    const g = await guardedPage(browser, {}, [PROVIDER_HOST]);
    await g.page.goto(`${base}/en/stats/private-one`);
    await g.page.click(`a:has-text("${en.signin_submit}")`);
    await g.page.waitForSelector("#sign-in-oidc:not([hidden])");
    await g.page.click("#sign-in-oidc-button");
    await throughProviderForms(g.page, "alice");
    await g.page.waitForURL(`${base}/en/stats/private-one`);
    // The stats page itself, not its "sign in to see this" page: the session cookie came along.
    await g.page.waitForSelector("h1");
    expect(await g.page.textContent("main")).not.toContain(en.stats_private_title);
    expect(await g.page.textContent("main")).toContain("private-one");
    await g.context.close();
  });
});

describe("through Caddy's forward_auth", () => {
  let server: RunningServer;
  let caddy: RunningCaddy;

  beforeAll(async () => {
    server = await startServer({ args: ["--trust-proxy", "127.0.0.1", "--auth-header", "Remote-User", "--auth-admin-group", "admins"] });
    caddy = await startCaddy(`127.0.0.1:${server.port}`);
  });
  afterAll(async () => {
    await caddy?.stop();
    await server?.dispose();
  });

  test("the dashboard works signed in by the proxy: no sign-in card, no sign-out, links made are the user's", async () => {
    const g = await guardedPage(browser, {}, [CADDY_HOST]);
    await g.context.addCookies([{ name: "test_user", value: "bob", domain: CADDY_HOST, path: "/" }]);
    await g.page.goto(`${caddy.url}/en/links`);
    await g.page.waitForSelector("#dashboard:not([hidden])");
    await settled(g.page);
    expect(await g.page.isVisible("#sign-in")).toBe(false);
    expect(await g.page.textContent("#signed-in-as")).toContain("bob");
    expect(await g.page.isVisible("#sign-out")).toBe(false);
    await createInDashboard(g.page, "via-proxy");
    await screenshot(g.page, "sign-in-proxy");
    expect(g.errors).toEqual([]);
    await g.context.close();
    const admin = makeKey(server.dbPath, "ops");
    const link = await api(server.url, admin, "GET", "/api/links/via-proxy");
    expect(link.body.data.owner).toBe("bob");
  });
});
