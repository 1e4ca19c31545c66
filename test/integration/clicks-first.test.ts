// Clicks first: the hand-over to the recorder codes each distinct string once per hand-over, the
// statistics of a link stay bounded whatever its visitors send, and a stats read on a link with
// 200,000 distinct values does not hold up clicks. Real server, real database (either engine); no
// timing is asserted, only counts.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Visit } from "../../src/visits/visit.ts";
import { MAX_VALUES_PER_DAY } from "../../src/visits/other.ts";
import { startServer, createLink, type RunningServer } from "../support/server.ts";
import { seed } from "../support/seed.ts";
import { click, drained, stats } from "../support/clicks.ts";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.dispose());

/** Runs `n` clicks, `parallel` at a time, each with the headers `headersOf(i)`; returns how many were 302s. */
async function clicks(id: string, n: number, parallel: number, headersOf: (i: number) => Record<string, string>, query: (i: number) => string = () => ""): Promise<number> {
  let next = 0;
  let redirected = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < n; i = next++) {
        const res = await click(server.url, `${id}${query(i)}`, headersOf(i));
        await res.arrayBuffer();
        if (res.status === 302) redirected++;
      }
    }),
  );
  return redirected;
}

describe("the hand-over codes strings once per batch", () => {
  test("9,000 distinct User-Agents and Referers (more than the hand-over dictionary holds, 8,192): every click counted, every value kept", async () => {
    expect((await createLink(server.url, { url: "https://example.com/many", custom_url: "many-agents" })).status).toBe(201);
    const n = 9000;
    const answered = await clicks("many-agents", n, 16, (i) => ({ "user-agent": `Probe/${i} (distinct agent ${i})`, referer: `https://r${i % 150}.example.net/p/${i}` }));
    expect(answered).toBe(n);
    await drained(server.url);
    const s = (await stats(server.url, "id=many-agents")).data.stats;
    expect(s.totalClicks).toBe(n);
    // 150 referrer hosts on one day: the first MAX_VALUES_PER_DAY are kept by name, the rest fold into Other.
    const named = s.referrerStats.filter((r: { other?: true }) => !r.other);
    const other = s.referrerStats.find((r: { other?: true }) => r.other);
    expect(named).toHaveLength(MAX_VALUES_PER_DAY);
    expect(named.every((r: { name: string }) => /^r\d+\.example\.net$/.test(r.name))).toBe(true);
    expect(named.reduce((sum: number, r: { count: number }) => sum + r.count, 0) + other.count).toBe(n);
    // Each agent is its own visitor: the visitor key was built from each click's own agent.
    expect(s.uniqueVisitors).toBe(n);
  });
});

describe("a link with 200,000 distinct UTM sources", () => {
  const DISTINCT = 200_000;
  const now = Date.now();

  beforeAll(async () => {
    await seed(server, async ({ links, record }) => {
      const flooded = await links.create({ url: "https://example.com/flooded", alias: "flooded" }, now - 1000);
      for (let i = 0; i < DISTINCT; i++) {
        const v: Visit = {
          linkSeq: flooded.seq, linkId: "flooded", ts: now - 500, browser: "Firefox", os: "Linux", device: "desktop", country: "DE",
          referrer: "Direct", utmSource: `source-${i}`, utmMedium: null, utmCampaign: null, isBot: false, visitor: null,
        };
        record(v);
      }
    });
  }, 120_000);

  test("stats count every visit: the first values by name, the rest as one Other entry with the exact remainder", async () => {
    const s = (await stats(server.url, "id=flooded")).data.stats;
    expect(s.totalClicks).toBe(DISTINCT);
    const named = s.utmStats.filter((u: { other?: true }) => !u.other);
    const other = s.utmStats.filter((u: { other?: true }) => u.other);
    expect(named.length).toBe(MAX_VALUES_PER_DAY);
    expect(other).toHaveLength(1);
    expect(named.reduce((sum: number, u: { count: number }) => sum + u.count, 0) + other[0].count).toBe(DISTINCT);
  });

  test("clicks on another link keep being answered while stats of the flooded link are read", async () => {
    expect((await createLink(server.url, { url: "https://example.com/busy", custom_url: "busy" })).status).toBe(201);
    let reading = true;
    let answeredDuringReads = 0;
    let answered = 0;
    const clicker = (async () => {
      while (reading) {
        const res = await click(server.url, "busy", { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0" });
        await res.arrayBuffer();
        expect(res.status).toBe(302);
        answered++;
        if (reading) answeredDuringReads++;
      }
    })();
    const reads = await Promise.all(
      Array.from({ length: 2 }, async () => {
        const totals: number[] = [];
        for (let i = 0; i < 10; i++) totals.push((await stats(server.url, "id=flooded")).data.stats.totalClicks);
        return totals;
      }),
    );
    reading = false;
    await clicker;
    expect(reads.flat()).toEqual(Array(20).fill(DISTINCT));
    // Twenty stats reads in flight, and clicks kept coming back between them.
    expect(answeredDuringReads).toBeGreaterThan(20);
    await drained(server.url);
    expect((await stats(server.url, "id=busy")).data.stats.totalClicks).toBe(answered);
    // Twenty reads of 200,000 values take 3-5 s on PostgreSQL on a shared 2-core machine: a hang
    // detector, not a timing.
  }, 60_000);
});
