// Size limits: the 16 KiB create body (declared, streamed, or absurd), oversized headers and URLs,
// and long User-Agent / Referer / UTM values, which must never cost a click but are stored bounded.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { openStored } from "../support/stored.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { click, waitForClicks } from "../support/clicks.ts";
import { rawGet, rawRequest } from "../support/raw-http.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  expect((await createLink(server.url, { url: "https://example.com/limits", custom_url: "limits" })).status).toBe(201);
});
afterAll(() => server.dispose());

const head = (length: string) =>
  `POST /api/create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;

test("a declared Content-Length over 16 KiB is refused with the JSON 413 before any body arrives", async () => {
  // No body is sent at all: if the server waited for it, rawRequest would hit its deadline.
  const r = await rawRequest(server.port, head("16385"));
  expect(r.status).toBe(413);
  expect(JSON.parse(r.body)).toMatchObject({ success: false, code: "body_too_large", error: expect.any(String) });
});

test("exactly 16 KiB is read (and judged on its content); one byte more is 413", async () => {
  // Padded with JSON whitespace: every field of a create is known (an unknown one is a 400).
  const fill = (n: number) => `{"url":"https://example.com/"${" ".repeat(n)}}`;
  const base = fill(0).length;
  const at = await fetch(`${server.url}/api/create`, { method: "POST", headers: { "content-type": "application/json" }, body: fill(16 * 1024 - base) });
  expect(at.status).toBe(201);
  const over = await fetch(`${server.url}/api/create`, { method: "POST", headers: { "content-type": "application/json" }, body: fill(16 * 1024 - base + 1) });
  expect(over.status).toBe(413);
});

test("a client that declares 1,000 bytes, sends 20 and hangs up: no error logged, the server keeps answering", async () => {
  let letGo!: () => void;
  const serverLetGo = new Promise<void>((resolve) => (letGo = resolve));
  const socket = await Bun.connect({ hostname: "127.0.0.1", port: server.port, socket: { data() {}, end: () => letGo(), close: () => letGo() } });
  socket.write(head("1000") + '{"url":"https://exam');
  // Kept: the 20 bytes arrive on their own, before the hang-up (there is no fact for "the server has read them").
  await Bun.sleep(50);
  socket.shutdown(); // our side is done sending, as a client that hangs up mid-body
  await serverLetGo; // the server has finished with the cut body and closed the connection
  socket.end();
  const res = await createLink(server.url, { url: "https://example.com/after-hang-up" });
  expect(res.status).toBe(201);
  expect(server.output()).not.toMatch(/error|TypeError|unhandled/i);
});

test("a chunked body with no Content-Length is cut off at 16 KiB with the JSON 413", async () => {
  const chunk = new TextEncoder().encode("x".repeat(4096));
  let sent = 0;
  // A body that would go on for 1 MB: the server must stop reading and answer.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= 256) return controller.close();
      sent++;
      controller.enqueue(chunk);
    },
  });
  const res = await fetch(`${server.url}/api/create`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
  expect(res.status).toBe(413);
  expect(await res.json()).toMatchObject({ success: false, code: "body_too_large" });
});

test("an absurd Content-Length (1 TB) is refused, without a 5xx", async () => {
  // Over Bun's own request-body ceiling Bun answers 413 itself (empty body) before our handler
  // runs; below it our handler answers the JSON 413. Either way: refused at once, nothing read.
  const r = await rawRequest(server.port, head("1000000000000"));
  expect(r.status).toBe(413);
});

test("a 100 KB header, 1,000 headers and a 100 KB URL: refused by Bun (431/414), the server keeps answering", async () => {
  const big = await rawGet(server.port, "/limits", `X-Big: ${"a".repeat(100_000)}\r\n`);
  expect([400, 431]).toContain(big.status!);
  const many = await rawGet(server.port, "/limits", Array.from({ length: 1000 }, (_, i) => `X-H${i}: v\r\n`).join(""));
  expect(many.status === null || many.status < 500).toBe(true);
  const longUrl = await rawGet(server.port, `/limits?q=${"a".repeat(100_000)}`);
  expect([414, 431]).toContain(longUrl.status!);
  expect((await click(server.url, "limits")).status).toBe(302);
  expect((await fetch(`${server.url}/health`)).status).toBe(200);
});

test("long User-Agent, Referer and UTM values: the click is a 302, is counted, and stored values are bounded", async () => {
  expect((await createLink(server.url, { url: "https://example.com/long", custom_url: "long-values" })).status).toBe(201);
  const hugeHost = `https://${"h".repeat(60)}.${"i".repeat(60)}.${"j".repeat(60)}.${"k".repeat(60)}.${"l".repeat(60)}.example/`;
  const clicks = [
    { ua: `Mozilla/5.0 ${"X".repeat(6000)}`, referer: `https://news.example.org/${"p".repeat(6000)}`, query: "" },
    // a 3,000-character source keeps the Location under its 4,000-character cap: it is followed and read
    { ua: "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0", referer: hugeHost, query: `?utm_source=${"s".repeat(3000)}&utm_campaign=${"c".repeat(300)}` },
    // a 5,000-character one would push it past the cap: the click query is dropped whole, the link's URL kept
    { ua: "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0", referer: "", query: `?utm_source=${"t".repeat(5000)}` },
  ];
  const locations: string[] = [];
  for (const c of clicks) {
    const res = await click(server.url, `long-values${c.query}`, { "user-agent": c.ua, referer: c.referer });
    expect(res.status).toBe(302);
    locations.push(res.headers.get("location")!);
  }
  expect(locations[1]).toBe(`https://example.com/long?utm_source=${"s".repeat(3000)}&utm_campaign=${"c".repeat(300)}`);
  expect(locations[2]).toBe("https://example.com/long");
  const body = await waitForClicks(server.url, "long-values", 3);
  expect(body.data.stats.totalClicks).toBe(3);
  expect(body.data.stats.utmStats).toHaveLength(1);
  const referrers = body.data.stats.referrerStats.map((r: { name: string }) => r.name).sort();
  expect(referrers).toEqual(["Direct", "Unknown", "news.example.org"]); // a 300-character host is no DNS name
  expect(body.data.stats.utmStats[0].source).toBe("s".repeat(100));
  expect(body.data.stats.utmStats[0].campaign).toBe("c".repeat(100));

  // And in the database itself: no stored text value longer than the longest DNS name.
  await server.stop();
  const db = await openStored(server);
  const visits = await db.all<Record<string, unknown>>("SELECT browser, os, device, country, referrer, utm_source, utm_medium, utm_campaign FROM visits WHERE link_seq = (SELECT seq FROM links WHERE id = 'long-values')");
  const names = await db.all<{ name: string }>("SELECT name FROM dimension_rollup WHERE link_seq = (SELECT seq FROM links WHERE id = 'long-values')");
  await db.close();
  const lengths = [...visits.flatMap((v) => Object.values(v)), ...names.map((r) => r.name)].map((v) => (typeof v === "string" ? v.length : 0));
  expect(visits.length).toBe(3);
  expect(Math.max(...lengths)).toBeLessThanOrEqual(253);
});
