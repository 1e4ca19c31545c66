// The HTTP calls the bench makes to a running shortener outside of wrk: creating the links to
// click, waiting for the writer to drain, and reading back what was counted.

/** Creates n links through POST /api/create (multipart, the spec's type) and returns their ids. */
export async function createLinks(base: string, n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const form = new FormData();
    form.append("url", `https://example.com/${tag}/${i}?from=bench`);
    const res = await fetch(`${base}/api/create`, { method: "POST", body: form });
    const body = (await res.json()) as { data?: { shortUrl: string } };
    if (res.status !== 201 || !body.data) throw new Error(`create failed: ${res.status} ${JSON.stringify(body)}`);
    ids.push(body.data.shortUrl.slice(body.data.shortUrl.lastIndexOf("/") + 1));
  }
  return ids;
}

/** The benchmark's targets of links with redirect rules (issue 22): without and with a country rule. */
export const RULES_TARGET = "5 rules";
export const GEO_RULES_TARGET = "5 rules+geo";

/**
 * Links with five rules whose last one matches every click of the mix (after 2000-01-01), so each
 * click walks the other four first: a browser, a device and system, and a language that never
 * match, and a query parameter it never has. With `geo`, the first rule is a country instead of
 * the browser: the wrk mix sends a new public X-Forwarded-For address with every click, so each
 * one costs an address parse and a GeoIP lookup (the worst case; a visitor's next click is cached).
 */
export async function createRuledLinks(base: string, n: number, geo = false): Promise<string[]> {
  const rules = [
    geo ? { conditions: [{ type: "country", value: "AQ" }], url: "https://example.com/antarctica" } : { conditions: [{ type: "browser", value: "Lynx" }], url: "https://example.com/lynx" },
    { conditions: [{ type: "device", value: "tablet" }, { type: "os", value: "chromeos" }], url: "https://example.com/chromebook-tablet" },
    { conditions: [{ type: "language", value: "eo" }], url: "https://example.com/esperanto" },
    { conditions: [{ type: "query", key: "beta" }], url: "https://example.com/beta" },
    { conditions: [{ type: "after", value: "2000-01-01T00:00:00Z" }], url: "https://example.com/rules/matched?from=bench" },
  ];
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${base}/api/create`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: `https://example.com/rules/${i}`, rules }) });
    const body = (await res.json()) as { data?: { shortUrl: string } };
    if (res.status !== 201 || !body.data) throw new Error(`create failed: ${res.status} ${JSON.stringify(body)}`);
    ids.push(body.data.shortUrl.slice(body.data.shortUrl.lastIndexOf("/") + 1));
  }
  return ids;
}

type Health = { visits: { queued: number; written: number; dropped: number } };

/** Waits until the writer's queue is empty and `written` has stopped moving (graceful flush wait). */
export async function waitForFlush(base: string, timeoutMs = 15_000): Promise<Health["visits"]> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  for (;;) {
    const health = (await (await fetch(`${base}/health`)).json()) as Health;
    if (health.visits.queued === 0 && health.visits.written === last) return health.visits;
    if (Date.now() > deadline) throw new Error(`visits still queued after ${timeoutMs} ms: ${JSON.stringify(health.visits)}`);
    last = health.visits.written;
    await Bun.sleep(250); // longer than the writer's 100 ms interval
  }
}

/** Sum of totalClicks over the given links, from /api/stats. */
export async function countedClicks(base: string, ids: string[]): Promise<number> {
  let sum = 0;
  for (const id of ids) {
    const body = (await (await fetch(`${base}/api/stats?id=${encodeURIComponent(id)}`)).json()) as { data: { stats: { totalClicks: number } } };
    sum += body.data.stats.totalClicks;
  }
  return sum;
}
