// Opted-out clicks against a real server on either engine (docs/statistics.md: Not counting some
// clicks): each is answered as always (302, the Location without the opt-out parameter, the
// destination's own query untouched), leaves no visit (stats, the link's total, the live view), and
// is counted in shortener_clicks_not_counted_total by its reason; a click that matches nothing counts.

import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, drained, stats, UA } from "../support/clicks.ts";
import { closeStreams, liveStream } from "../support/live-stream.ts";
import { openStored } from "../support/stored.ts";

let server: RunningServer;
let key: string;
beforeAll(async () => {
  server = await startServer({
    // --trust-proxy 127.0.0.1: the tests' X-Forwarded-For is the client address, as behind a proxy.
    args: ["--trust-proxy", "127.0.0.1", "--no-count-from", "203.0.113.0/24,2001:db8::/32", "--no-count-from", "198.51.100.7", "--no-count-param", "nocount", "--do-not-track", "skip"],
  });
  key = makeKey(server.dbPath, "owner");
});
afterAll(() => server.dispose());
afterEach(() => closeStreams());

async function scrape(base: string): Promise<string> {
  return await (await fetch(`${base}/metrics`)).text();
}

function notCounted(text: string, reason: string): number {
  const sample = `shortener_clicks_not_counted_total{reason="${reason}"} `;
  const line = text.split("\n").find((l) => l.startsWith(sample));
  if (line === undefined) throw new Error(`no ${sample.trim()} in /metrics`);
  return Number(line.slice(sample.length));
}

/** A GET of the short link as a person's browser: 302 expected; its Location. */
async function locationOf(path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await click(server.url, path, { "user-agent": UA.chromeWindows, ...headers });
  expect(res.status).toBe(302);
  return res.headers.get("location")!;
}

async function linkTotals(id: string) {
  await drained(server.url);
  const link = (await api(server.url, key, "GET", `/api/links/${id}`)).body.data;
  const s = (await stats(server.url, `id=${id}`)).data.stats;
  return { total: link.totalClicks as number, stats: s.totalClicks as number };
}

describe("each opt-out: answered, not counted, counted in the metric", () => {
  test("--no-count-from: a listed address or network (IPv4, IPv6, one address) is not counted; another address is", async () => {
    expect((await createLink(server.url, { url: "https://example.com/a", custom_url: "opt-address" })).status).toBe(201);
    const before = await scrape(server.url);
    for (const ip of ["203.0.113.9", "2001:db8::5", "198.51.100.7", "::ffff:203.0.113.200"]) {
      expect(await locationOf("opt-address", { "x-forwarded-for": ip })).toBe("https://example.com/a");
    }
    expect(await locationOf("opt-address", { "x-forwarded-for": "198.51.100.8" })).toBe("https://example.com/a");
    expect(await locationOf("opt-address", { "x-forwarded-for": "192.0.2.1" })).toBe("https://example.com/a");
    expect(await linkTotals("opt-address")).toEqual({ total: 2, stats: 2 });
    const after = await scrape(server.url);
    expect(notCounted(after, "address") - notCounted(before, "address")).toBe(4);
    expect(notCounted(after, "param") - notCounted(before, "param")).toBe(0);
  });

  test("--no-count-param: the click is answered without the parameter, the destination's own query kept, and not counted", async () => {
    expect((await createLink(server.url, { url: "https://example.com/p?keep=1&nocount=theirs", custom_url: "opt-param" })).status).toBe(201);
    expect((await createLink(server.url, { url: "https://example.com/q", custom_url: "opt-param-plain" })).status).toBe(201);
    const before = await scrape(server.url);
    // The click's query is passed on, without the parameter.
    expect(await locationOf("opt-param-plain?nocount&utm_source=mail")).toBe("https://example.com/q?utm_source=mail");
    expect(await locationOf("opt-param-plain?a=1&nocount=yes&b=%20x")).toBe("https://example.com/q?a=1&b=%20x");
    expect(await locationOf("opt-param-plain?nocount")).toBe("https://example.com/q");
    // The destination's own nocount=theirs is the destination's: only the click's is taken out.
    expect(await locationOf("opt-param?nocount")).toBe("https://example.com/p?keep=1&nocount=theirs");
    expect(await locationOf("opt-param?a=1&nocount=yes&b=%20x")).toBe("https://example.com/p?keep=1&nocount=theirs&a=1&b=%20x");
    expect(await locationOf("opt-param?nocount=")).toBe("https://example.com/p?keep=1&nocount=theirs");
    // Names that only begin or end like it are other parameters: forwarded, and the click counts.
    expect(await locationOf("opt-param?nocounts=1&xnocount")).toBe("https://example.com/p?keep=1&nocount=theirs&nocounts=1&xnocount");
    expect(await linkTotals("opt-param")).toEqual({ total: 1, stats: 1 });
    expect(await linkTotals("opt-param-plain")).toEqual({ total: 0, stats: 0 });
    const after = await scrape(server.url);
    expect(notCounted(after, "param") - notCounted(before, "param")).toBe(6);
  });

  test("--do-not-track skip: DNT: 1 and Sec-GPC: 1 are not counted; DNT: 0 is", async () => {
    expect((await createLink(server.url, { url: "https://example.com/d", custom_url: "opt-dnt" })).status).toBe(201);
    const before = await scrape(server.url);
    expect(await locationOf("opt-dnt", { dnt: "1" })).toBe("https://example.com/d");
    expect(await locationOf("opt-dnt", { "sec-gpc": "1" })).toBe("https://example.com/d");
    expect(await locationOf("opt-dnt", { dnt: "0" })).toBe("https://example.com/d");
    expect(await linkTotals("opt-dnt")).toEqual({ total: 1, stats: 1 });
    const after = await scrape(server.url);
    expect(notCounted(after, "dnt") - notCounted(before, "dnt")).toBe(2);
  });

  test("the live view hears only the counted click", async () => {
    expect((await createLink(server.url, { url: "https://example.com/l", custom_url: "opt-live" })).status).toBe(201);
    const stream = await liveStream(server.url, "?id=opt-live");
    expect(await stream.next("ready", 5_000)).not.toBeNull();
    await locationOf("opt-live", { "x-forwarded-for": "203.0.113.1" });
    await locationOf("opt-live?nocount");
    await locationOf("opt-live", { dnt: "1" });
    // The counted one last, from Firefox: the opted-out clicks (Chrome) were handed over before it.
    const res = await click(server.url, "opt-live", { "user-agent": UA.firefoxLinux, "x-forwarded-for": "192.0.2.2" });
    expect(res.status).toBe(302);
    const visit = await stream.next("visit", 10_000);
    expect(visit?.data.visit.browser).toBe("Firefox");
    await drained(server.url);
    expect(stream.all("visit")).toHaveLength(1);
  });

  test("visits to no link are kept out by the same opt-outs, and counted in the metric by the same reasons", async () => {
    const before = await scrape(server.url);
    const orphans = async () => {
      const stored = await openStored(server);
      try {
        return Number((await stored.get<{ n: unknown }>("SELECT COALESCE(SUM(n), 0) AS n FROM orphan_batches"))!.n);
      } finally {
        await stored.close();
      }
    };
    const stored = await orphans();
    const visit = async (path: string, headers: Record<string, string>) => {
      const res = await fetch(`${server.url}${path}`, { headers: { "user-agent": UA.chromeWindows, "x-forwarded-for": "192.0.2.3", ...headers }, redirect: "manual" });
      await res.arrayBuffer();
      expect(res.status).toBe(404);
    };
    await visit("/no-such-link-here", { "x-forwarded-for": "203.0.113.9" });
    await visit("/no-such-link-here?nocount", {});
    await visit("/no-such-link-here", { dnt: "1" });
    await visit("/no-such-link-here", { "sec-gpc": "1" });
    await visit("/no-such-link-here", {});
    await drained(server.url);
    // Only the last: the other four were kept out, one by the address, one by the parameter, two by DNT/GPC.
    expect((await orphans()) - stored).toBe(1);
    const after = await scrape(server.url);
    const moved = Object.fromEntries(["address", "param", "dnt"].map((reason) => [reason, notCounted(after, reason) - notCounted(before, reason)]));
    expect(moved).toEqual({ address: 1, param: 1, dnt: 2 });
  });

  test("an opted-out click still spends a click limit (the limit is on answers, not on counting)", async () => {
    const made = await api(server.url, key, "POST", "/api/create", { url: "https://example.com/once", custom_url: "opt-once", max_clicks: 1 });
    expect(made.status).toBe(201);
    expect(await locationOf("opt-once?nocount")).toBe("https://example.com/once");
    expect((await click(server.url, "opt-once", { "user-agent": UA.chromeWindows })).status).toBe(410);
    expect(await linkTotals("opt-once")).toEqual({ total: 0, stats: 0 });
  });
});

test("by default nothing is opted out: the parameter is an ordinary one, DNT and Sec-GPC clicks count", async () => {
  const plain = await startServer();
  try {
    expect((await createLink(plain.url, { url: "https://example.com/x", custom_url: "plain" })).status).toBe(201);
    const res = await click(plain.url, "plain?nocount", { dnt: "1", "sec-gpc": "1" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://example.com/x?nocount");
    await drained(plain.url);
    expect((await stats(plain.url, "id=plain")).data.stats.totalClicks).toBe(1);
    const text = await scrape(plain.url);
    for (const reason of ["address", "param", "dnt"]) expect(notCounted(text, reason)).toBe(0);
  } finally {
    await plain.dispose();
  }
});
