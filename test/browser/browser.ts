// Browser test support: Debian's Chromium driven by playwright-core (never a browser download),
// with guards every page gets: requests to any host but 127.0.0.1 are blocked and recorded,
// console errors and page errors are collected, and axe-core can be run inside the page.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { REPO_ROOT } from "../support/server.ts";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(REPO_ROOT, "test-artifacts/screenshots");

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Launches Chromium; fails loudly (never skips) when it is not installed. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it with \`apt-get update && apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

export type Guarded = {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  /** URLs of requests that tried to leave 127.0.0.1 (they were aborted). */
  offHost: string[];
  /** Alert/confirm/prompt dialogs opened by the page (an XSS would open one). */
  dialogs: string[];
};

/**
 * A new context and page with the network, console and dialog guards attached. `alsoHosts`: other
 * loopback hosts the test runs (an identity provider, a proxy) that the page may reach too.
 */
export async function guardedPage(browser: Browser, options: BrowserContextOptions = {}, alsoHosts: readonly string[] = []): Promise<Guarded> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const errors: string[] = [];
  const offHost: string[] = [];
  const dialogs: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1" || alsoHosts.includes(url.hostname)) return route.continue();
    offHost.push(url.href);
    return route.abort();
  });
  const page = await context.newPage();
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(String(err)));
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { context, page, errors, offHost, dialogs };
}

const AXE_SOURCE = readFileSync(join(REPO_ROOT, "node_modules/axe-core/axe.min.js"), "utf8");

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: number };

/** Serious and critical axe-core violations on the current page (evaluated over CDP, so the CSP stays on). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length }));
  });
  return (result as AxeViolation[]).filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** True when the page is wider than its viewport (a horizontal scrollbar). */
export async function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

/** Saves a screenshot under test-artifacts/screenshots/: the full page, or the viewport (a modal dialog as seen). */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
}

export { UA, visit as click } from "../support/clicks.ts";
