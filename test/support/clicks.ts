// Helpers for tests that click links and read what was recorded.

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

/** GET /api/stats and return its parsed body. */
export async function stats(base: string, query: string): Promise<any> {
  return await (await fetch(`${base}/api/stats?${query}`)).json();
}

/** Polls the stats until totalClicks reaches n (the writer flushes every ~100 ms), or gives up after 5 s. */
export async function waitForClicks(base: string, id: string, n: number): Promise<any> {
  const deadline = Date.now() + 5000;
  let body: any;
  do {
    body = await stats(base, `id=${encodeURIComponent(id)}`);
    if (body.data?.stats.totalClicks >= n) return body;
    await Bun.sleep(25);
  } while (Date.now() < deadline);
  return body;
}
