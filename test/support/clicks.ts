// Helpers for tests that click links and read what was recorded, shared by every suite.

import { eventually } from "./eventually.ts";

export const UA = {
  chromeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0",
  safariIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  slack: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
} as const;

/** One click with no redirect following; returns the response. */
export function click(base: string, path: string, headers: Record<string, string> = {}, method = "GET") {
  return fetch(`${base}/${path}`, { method, redirect: "manual", headers });
}

export type VisitSpec = { ua: string; referrer?: string; query?: string; ip?: string };

/**
 * Real clicks through the redirect, each with its own User-Agent, referrer and query, then waits
 * until every one is written. `ip` is sent as X-Forwarded-For: start the server with
 * `--trust-proxy 127.0.0.1` for it to count.
 */
export async function visit(base: string, id: string, visits: readonly VisitSpec[]): Promise<void> {
  for (const v of visits) {
    const headers: Record<string, string> = { "User-Agent": v.ua };
    if (v.referrer) headers.Referer = v.referrer;
    if (v.ip) headers["X-Forwarded-For"] = v.ip;
    const res = await fetch(`${base}/${id}${v.query ?? ""}`, { headers, redirect: "manual" });
    if (res.status !== 302) throw new Error(`click on ${id} answered ${res.status}`);
  }
  await drained(base);
}

/** GET /api/stats and return its parsed body. */
export async function stats(base: string, query: string): Promise<any> {
  return await (await fetch(`${base}/api/stats?${query}`)).json();
}

/** The stats once totalClicks reaches n (the writer flushes every ~100 ms), or the last ones read after 15 s. */
export async function waitForClicks(base: string, id: string, n: number): Promise<any> {
  return await eventually(() => stats(base, `id=${encodeURIComponent(id)}`), (body) => body.data?.stats.totalClicks >= n, 15_000, 25);
}

/**
 * Waits until the service has written (or dropped) every click it answered so far, as /health
 * reports its queue: the barrier after which a click that should not have counted would show.
 * A click is queued before its answer is sent, so every click this test has seen answered is in
 * the count. Throws after 10 s.
 */
export async function drained(base: string): Promise<HealthVisits> {
  const visits = await eventually(async () => ((await (await fetch(`${base}/health`)).json()) as { visits: HealthVisits }).visits, (v) => v.queued === 0, 10_000, 10);
  if (visits.queued !== 0) throw new Error(`the visit queue did not drain: ${visits.queued} still queued`);
  return visits;
}

/** /health's account of the visit queue. */
export type HealthVisits = { queued: number; written: number; dropped: number };
