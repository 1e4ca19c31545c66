// Spoofed client addresses: X-Forwarded-For, X-Real-IP, Forwarded, CF-Connecting-IP and
// True-Client-IP change nothing unless the peer is in --trust-proxy; behind trusted proxies the
// rightmost untrusted hop is the client. Observed from outside through the two things the address
// drives: the country in the stats (embedded GeoLite2: 8.8.8.8 US, 193.0.6.139 NL,
// 81.2.69.160 GB) and the create rate limiter's per-address buckets.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { click, UA, waitForClicks } from "../support/clicks.ts";

const US = "8.8.8.8";
const NL = "193.0.6.139";
const GB = "81.2.69.160";

let open: RunningServer; // no --trust-proxy: every header is a client's claim
let proxied: RunningServer; // behind 127.0.0.1, with NL's address as a second trusted proxy hop
beforeAll(async () => {
  [open, proxied] = await Promise.all([
    startServer({ args: ["--create-rate-limit", "3"] }),
    startServer({ args: ["--create-rate-limit", "3", "--trust-proxy", `127.0.0.1,${NL}`] }),
  ]);
});
afterAll(async () => {
  await Promise.all([open.dispose(), proxied.dispose()]);
});

let setupClient = 0;
/** A link made from its own forwarded address on the proxied server, so setup never spends a bucket a test counts on. */
async function linkOn(server: RunningServer, alias: string): Promise<void> {
  const headers: Record<string, string> = server === proxied ? { "x-forwarded-for": `198.51.100.${++setupClient}` } : {};
  const res = await createLink(server.url, { url: `https://example.com/${alias}`, custom_url: alias }, headers);
  expect(res.status).toBe(201);
}

async function countriesAfter(server: RunningServer, alias: string, headers: Record<string, string>): Promise<string[]> {
  await linkOn(server, alias);
  expect((await click(server.url, alias, { "user-agent": UA.chromeWindows, ...headers })).status).toBe(302);
  const body = await waitForClicks(server.url, alias, 1);
  return body.data.stats.countryStats.map((c: { name: string }) => c.name);
}

const EVERY_SPOOF = { "x-forwarded-for": US, "x-real-ip": NL, forwarded: `for=${GB}`, "cf-connecting-ip": US, "true-client-ip": NL };

describe("country: which address is believed", () => {
  test("no --trust-proxy: every forwarding header is ignored (the peer, 127.0.0.1, has no country)", async () => {
    expect(await countriesAfter(open, "open-all", EVERY_SPOOF)).toEqual(["Unknown"]);
  });

  test("trusted peer: X-Forwarded-For is believed", async () => {
    expect(await countriesAfter(proxied, "px-xff", { "x-forwarded-for": US })).toEqual(["US"]);
  });

  test("trusted peer, chain: the rightmost untrusted hop counts, not the client's own claim on the left", async () => {
    expect(await countriesAfter(proxied, "px-chain", { "x-forwarded-for": `${GB}, ${US}` })).toEqual(["US"]);
  });

  test("trusted peer, chain through a second trusted proxy: that hop is skipped", async () => {
    expect(await countriesAfter(proxied, "px-hop", { "x-forwarded-for": `${GB}, ${NL}` })).toEqual(["GB"]);
  });

  test("trusted peer, Forwarded alone is believed", async () => {
    expect(await countriesAfter(proxied, "px-fwd", { forwarded: `for=${NL}` })).toEqual(["NL"]);
  });

  test("trusted peer, Forwarded and X-Forwarded-For: X-Forwarded-For wins (a proxy that only appends XFF passes a client's Forwarded through)", async () => {
    expect(await countriesAfter(proxied, "px-both", { forwarded: `for=${GB}`, "x-forwarded-for": US })).toEqual(["US"]);
  });

  test("trusted peer: X-Real-IP, CF-Connecting-IP and True-Client-IP are never believed", async () => {
    const { "x-forwarded-for": _x, forwarded: _f, ...never } = EVERY_SPOOF;
    expect(await countriesAfter(proxied, "px-never", never)).toEqual(["Unknown"]);
  });
});

async function create(server: RunningServer, headers: Record<string, string>) {
  return createLink(server.url, { url: "https://example.com/limited" }, headers);
}

describe("rate limiter: one bucket per believed address", () => {
  test("no --trust-proxy: rotating spoofed headers does not buy more creates", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const ip = `203.0.113.${i}`;
      const res = await create(open, { "x-forwarded-for": ip, "x-real-ip": ip, forwarded: `for=${ip}`, "cf-connecting-ip": ip });
      statuses.push(res.status);
    }
    // The peer's (127.0.0.1) bucket holds 3, one of them maybe spent by open-all above: a run of
    // at most three 201s, then nothing but 429s.
    const firstLimited = statuses.indexOf(429);
    expect(firstLimited).toBeGreaterThanOrEqual(0);
    expect(firstLimited).toBeLessThanOrEqual(3);
    expect(statuses.slice(0, firstLimited).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(firstLimited).every((s) => s === 429)).toBe(true);
  });

  test("trusted proxy: each forwarded client has its own bucket; 429 carries Retry-After", async () => {
    const a = { "x-forwarded-for": "203.0.113.10" };
    const b = { "x-forwarded-for": "203.0.113.11" };
    for (let i = 0; i < 3; i++) expect((await create(proxied, a)).status).toBe(201);
    const limited = await create(proxied, a);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, code: "rate_limited", error: expect.any(String) });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await create(proxied, b)).status).toBe(201);
  });

  test("trusted proxy: a limited client cannot escape through Forwarded, X-Real-IP or a forged left hop", async () => {
    const a = "203.0.113.20";
    for (let i = 0; i < 3; i++) expect((await create(proxied, { "x-forwarded-for": a })).status).toBe(201);
    const escapes: Record<string, string>[] = [
      { "x-forwarded-for": a, forwarded: "for=203.0.113.99" },
      { "x-forwarded-for": a, "x-real-ip": "203.0.113.98", "cf-connecting-ip": "203.0.113.97" },
      { "x-forwarded-for": `203.0.113.96, ${a}` },
    ];
    for (const headers of escapes) expect((await create(proxied, headers)).status).toBe(429);
  });
});
