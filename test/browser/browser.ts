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

/** A new context and page with the network, console and dialog guards attached. */
export async function guardedPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Guarded> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const errors: string[] = [];
  const offHost: string[] = [];
  const dialogs: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1") return route.continue();
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

/** Real clicks through the redirect, each with its own User-Agent/referrer; waits for the batched writer. */
/** `ip` is sent as X-Forwarded-For: start the server with `--trust-proxy 127.0.0.1` for it to count. */
export async function click(base: string, id: string, visits: { ua: string; referrer?: string; query?: string; ip?: string }[]): Promise<void> {
  for (const v of visits) {
    const headers: Record<string, string> = { "User-Agent": v.ua };
    if (v.referrer) headers.Referer = v.referrer;
    if (v.ip) headers["X-Forwarded-For"] = v.ip;
    const res = await fetch(`${base}/${id}${v.query ?? ""}`, { headers, redirect: "manual" });
    if (res.status !== 302) throw new Error(`click on ${id} answered ${res.status}`);
  }
  await Bun.sleep(300);
}

export const UA = {
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  chromeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
};
