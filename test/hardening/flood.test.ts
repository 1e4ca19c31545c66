// A create flood from one address: the rate limit holds (429 + Retry-After, the address's quota and
// no more), other clients behind the trusted proxy keep their own quota, and redirects, stats and
// /health keep answering 302/200 throughout.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { click } from "../support/clicks.ts";

const PER_MINUTE = 5;
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", String(PER_MINUTE), "--trust-proxy", "127.0.0.1"] });
  expect((await createLink(server.url, { url: "https://example.com/steady", custom_url: "steady" }, { "x-forwarded-for": "198.51.100.1" })).status).toBe(201);
});
afterAll(() => server.dispose());

test("a 600-request create flood from one address: its quota, then 429s; everyone else unaffected", async () => {
  const flooder = { "x-forwarded-for": "203.0.113.66" };
  const BYSTANDER_REQUESTS = 12;
  const creates: { status: number; retryAfter: string | null; code: string }[] = [];
  const others: number[] = [];

  const flood = (async () => {
    for (let wave = 0; wave < 30; wave++) {
      const results = await Promise.all(Array.from({ length: 20 }, () => createLink(server.url, { url: "https://example.com/flood" }, flooder)));
      for (const r of results) creates.push({ status: r.status, retryAfter: r.headers.get("retry-after"), code: r.body.code });
    }
  })();
  // Meanwhile: clicks, stats, health and creates from other clients (a fixed number, started with
  // the flood: how many fit inside it would be a matter of timing).
  const bystanders = Array.from({ length: 4 }, async (_, c) => {
    let i = 0;
    while (i < BYSTANDER_REQUESTS) {
      const kind = i++ % 4;
      const res =
        kind === 0 ? await click(server.url, "steady")
        : kind === 1 ? await fetch(`${server.url}/api/stats?id=steady`)
        : kind === 2 ? await fetch(`${server.url}/health`)
        : await fetch(`${server.url}/api/create`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${10 + c * 50 + i}` }, body: JSON.stringify({ url: "https://example.com/other" }) });
      await res.arrayBuffer();
      others.push(res.status);
    }
  });
  await Promise.all([flood, ...bystanders]);

  const accepted = creates.filter((c) => c.status === 201).length;
  const limited = creates.filter((c) => c.status === 429);
  expect(creates).toHaveLength(600);
  // The full bucket, plus at most what refills while the flood lasts (one token per 12 s).
  expect(accepted).toBeGreaterThanOrEqual(PER_MINUTE);
  expect(accepted).toBeLessThanOrEqual(PER_MINUTE + 2);
  expect(limited.length + accepted).toBe(600);
  for (const l of limited) {
    expect(l.code).toBe("rate_limited");
    expect(Number(l.retryAfter)).toBeGreaterThanOrEqual(1);
  }
  expect(others).toHaveLength(4 * BYSTANDER_REQUESTS);
  expect(others.every((s) => s === 200 || s === 201 || s === 302)).toBe(true);
}, 30_000);
