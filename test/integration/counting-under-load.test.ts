// Counting under concurrent load: every 302 answered is one visit in /api/stats, no more, no fewer.
// Correctness only; the benchmark (npm run bench) measures speed, and nothing here asserts timings.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { click, drained, stats, UA } from "../support/clicks.ts";

const LINKS = 8;
const CLICKS = 2000;
const CONCURRENCY = 50;

let server: RunningServer;
beforeAll(async () => {
  // Trusting loopback makes the forwarded addresses below count, so country lookups run as in production.
  server = await startServer({ args: ["--create-rate-limit", "0", "--trust-proxy", "127.0.0.1"] });
});
afterAll(() => server.dispose());

test(`${CLICKS} clicks from ${CONCURRENCY} concurrent clients are each counted exactly once`, async () => {
  const ids: string[] = [];
  for (let i = 0; i < LINKS; i++) {
    const res = await createLink(server.url, { url: `https://example.com/load/${i}?x=1`, custom_url: `load-${i}` });
    expect(res.status).toBe(201);
    ids.push(`load-${i}`);
  }
  const agents = [UA.chromeWindows, UA.firefoxLinux, UA.safariIphone, UA.googlebot];
  const referers = [null, "https://www.google.com/", "https://t.co/x"];
  const queries = ["", "?utm_source=news&utm_medium=email", "?utm_campaign=spring"];

  const answered = new Map<string, number>(ids.map((id) => [id, 0]));
  const statuses = new Map<number, number>();
  let next = 0;
  // Each worker takes the next click number until all are taken: 50 requests in flight at all times.
  const worker = async () => {
    for (let n = next++; n < CLICKS; n = next++) {
      const id = ids[n % LINKS]!;
      const headers: Record<string, string> = { "User-Agent": agents[n % agents.length]!, "X-Forwarded-For": `81.2.${n % 250}.${(n * 7) % 250 + 1}` };
      const referer = referers[n % referers.length];
      if (referer) headers.Referer = referer;
      const res = await click(server.url, id + queries[n % queries.length], headers);
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 302) answered.set(id, answered.get(id)! + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));

  expect(Object.fromEntries(statuses)).toEqual({ 302: CLICKS });
  const visits = await drained(server.url); // an empty queue: every recorded visit is committed
  expect(visits.dropped).toBe(0);
  expect(visits.written).toBe(CLICKS);

  let sum = 0;
  for (const id of ids) {
    const body = await stats(server.url, `id=${id}`);
    expect({ id, totalClicks: body.data.stats.totalClicks }).toEqual({ id, totalClicks: answered.get(id)! });
    sum += body.data.stats.totalClicks;
  }
  expect(sum).toBe(CLICKS);
}, 30_000);
