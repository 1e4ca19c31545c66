// GET /metrics against a real server: counters that move by exactly the clicks, route patterns
// that never carry a link id, the exposition format (promtool where installed; CI installs it),
// and who may read it (--metrics-allow, an admin key).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, drained, UA, waitForClicks } from "../support/clicks.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.dispose());

async function scrape(base: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/metrics`, { headers });
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
}

/** The value of a sample line (`name{labels} value`), 0 when absent. */
function value(text: string, sample: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${sample} `));
  return line === undefined ? 0 : Number(line.slice(sample.length + 1));
}

test("scrape, click, scrape again: the counters moved by exactly the clicks", async () => {
  await createLink(server.url, { url: "https://example.com/m", custom_url: "metered-link" });
  const before = await scrape(server.url);
  expect(before.status).toBe(200);
  expect(before.type).toBe("text/plain; version=0.0.4; charset=utf-8");
  for (let i = 0; i < 7; i++) expect((await click(server.url, "metered-link", { "user-agent": UA.firefoxLinux })).status).toBe(302);
  expect((await click(server.url, "metered-link", {}, "HEAD")).status).toBe(302);
  expect((await click(server.url, "no-such-link")).status).toBe(404);
  await waitForClicks(server.url, "metered-link", 7);
  await drained(server.url); // the recorder's figures have reached the click thread
  const after = await scrape(server.url);
  const moved = (sample: string) => value(after.text, sample) - value(before.text, sample);
  expect(moved("shortener_redirects_total")).toBe(8); // 7 GET + 1 HEAD
  // HEAD is not a visit; the 404 is one, to no link (docs/statistics.md: Visits to no link).
  expect(moved("shortener_visits_recorded_total")).toBe(8);
  expect(moved('shortener_http_requests_total{route="/:id",status="302"}')).toBe(8);
  expect(moved('shortener_http_requests_total{route="/:id",status="404"}')).toBe(1);
  expect(moved('shortener_http_request_duration_seconds_count{route="/:id"}')).toBe(9);
  expect(value(after.text, "shortener_links")).toBe(1);
  expect(value(after.text, "shortener_visit_queue_length")).toBe(0);
  expect(value(after.text, "shortener_visits_dropped_total")).toBe(0);
  expect(value(after.text, "shortener_orphan_visits_dropped_total")).toBe(0);
  expect(moved("shortener_link_cache_hits_total") + moved("shortener_link_cache_misses_total")).toBe(9);
  expect(value(after.text, "shortener_database_bytes")).toBeGreaterThan(4096);
  expect(value(after.text, "shortener_recorder_batch_write_seconds_count")).toBeGreaterThan(0);
  expect(value(after.text, "process_resident_memory_bytes")).toBeGreaterThan(1_000_000);
  expect(value(after.text, "process_start_time_seconds")).toBeGreaterThan(1.7e9);
  expect(value(after.text, "process_cpu_seconds_total")).toBeGreaterThan(0);
  // Routes are patterns: no link id ever becomes a label (unbounded series, and ids are private).
  expect(after.text).not.toContain("metered-link");
  expect(after.text).not.toContain("no-such-link");
});

test("every route is reported by its pattern", async () => {
  const key = makeKey(server.dbPath, "metrics-admin");
  await api(server.url, key, "GET", "/api/links/metered-link");
  await api(server.url, key, "GET", "/api/stats?id=metered-link");
  await fetch(`${server.url}/de/stats/metered-link`);
  await fetch(`${server.url}/nope/nope`);
  const text = (await scrape(server.url)).text;
  for (const route of ["/api/links/:id", "/api/stats", "/:lang/stats/:id", "other", "/metrics", "/api/create"]) {
    expect(text).toContain(`shortener_http_requests_total{route="${route}",`);
  }
});

test.skipIf(!Bun.which("promtool"))("the output passes promtool check metrics (Debian package prometheus)", async () => {
  const text = (await scrape(server.url)).text;
  const proc = Bun.spawnSync(["promtool", "check", "metrics"], { stdin: new TextEncoder().encode(text), stdout: "pipe", stderr: "pipe" });
  expect(proc.stderr.toString() + proc.stdout.toString()).toBe("");
  expect(proc.exitCode).toBe(0);
});

describe("who may read it", () => {
  test("an address not in --metrics-allow is refused (403); an admin key may, a create key may not", async () => {
    const guarded = await startServer({ args: ["--metrics-allow", "10.0.0.0/8"] });
    try {
      const denied = await scrape(guarded.url);
      expect(denied.status).toBe(403);
      expect(JSON.parse(denied.text)).toMatchObject({ success: false, code: "metrics_forbidden" });
      const admin = makeKey(guarded.dbPath, "admin");
      const creator = makeKey(guarded.dbPath, "creator", "create");
      expect((await scrape(guarded.url, { authorization: `Bearer ${admin}` })).status).toBe(200);
      expect((await scrape(guarded.url, { authorization: `Bearer ${creator}` })).status).toBe(403);
      expect((await scrape(guarded.url, { authorization: "Bearer sk_wrong" })).status).toBe(401);
    } finally {
      await guarded.dispose();
    }
  });

  test("off: no address at all; behind a trusted proxy, the forwarded client is the one checked", async () => {
    const off = await startServer({ args: ["--metrics-allow", "off"] });
    try {
      expect((await scrape(off.url)).status).toBe(403);
    } finally {
      await off.dispose();
    }
    const proxied = await startServer({ args: ["--trust-proxy", "127.0.0.1", "--metrics-allow", "192.168.0.0/16"] });
    try {
      expect((await scrape(proxied.url, { "x-forwarded-for": "192.168.1.5" })).status).toBe(200);
      expect((await scrape(proxied.url, { "x-forwarded-for": "8.8.8.8" })).status).toBe(403);
      expect((await scrape(proxied.url)).status).toBe(403); // the proxy itself (loopback) is not listed
    } finally {
      await proxied.dispose();
    }
  });

  test("a bad --metrics-allow stops the start, naming it", async () => {
    const { cli } = await import("../support/admin.ts");
    const r = cli(["--metrics-allow", "10.0.0.0/99"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--metrics-allow");
  });
});
