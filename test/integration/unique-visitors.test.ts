// Unique visitors and the hourly view against a real server: the same address and User-Agent are
// one visitor however often they click, the forwarded client counts behind a trusted proxy, a
// restart does not count anyone twice, and the database file never holds a client address.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, existsSync } from "node:fs";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { click, stats, UA, waitForClicks } from "../support/clicks.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--trust-proxy", "127.0.0.1", "--create-rate-limit", "0"] });
});
afterAll(() => server.dispose());

test("5 clicks from one address and browser: 5 clicks, 1 unique; a second address: 2; a bot is left out with bots=exclude", async () => {
  await createLink(server.url, { url: "https://example.com/u", custom_url: "uniq" });
  for (let i = 0; i < 5; i++) await click(server.url, "uniq", { "user-agent": UA.firefoxLinux, "x-forwarded-for": "203.0.113.50" });
  let body = await waitForClicks(server.url, "uniq", 5);
  expect(body.data.stats).toMatchObject({ totalClicks: 5, uniqueVisitors: 1 });
  await click(server.url, "uniq", { "user-agent": UA.firefoxLinux, "x-forwarded-for": "203.0.113.51" });
  await click(server.url, "uniq", { "user-agent": UA.googlebot, "x-forwarded-for": "66.249.66.1" });
  body = await waitForClicks(server.url, "uniq", 7);
  expect(body.data.stats).toMatchObject({ totalClicks: 7, uniqueVisitors: 3 });
  expect(body.data.stats.visitsByDate.at(-1)).toMatchObject({ count: 7, unique: 3 });
  const humans = (await stats(server.url, "id=uniq&bots=exclude")).data.stats;
  expect(humans).toMatchObject({ totalClicks: 6, uniqueVisitors: 2 });
  expect(humans.visitsByDate.at(-1)).toMatchObject({ count: 6, unique: 2 });
});

test("behind a trusted proxy the forwarded client counts, not the proxy; an untrusted peer's header is ignored", async () => {
  await createLink(server.url, { url: "https://example.com/p", custom_url: "via-proxy" });
  // Peer 127.0.0.1 is trusted: two different forwarded clients are two visitors.
  await click(server.url, "via-proxy", { "user-agent": UA.chromeWindows, "x-forwarded-for": "198.51.100.10" });
  await click(server.url, "via-proxy", { "user-agent": UA.chromeWindows, "x-forwarded-for": "198.51.100.11" });
  // The rightmost untrusted address is the client: a spoofed left part does not make a new visitor.
  await click(server.url, "via-proxy", { "user-agent": UA.chromeWindows, "x-forwarded-for": "1.2.3.4, 198.51.100.11" });
  const body = await waitForClicks(server.url, "via-proxy", 3);
  expect(body.data.stats).toMatchObject({ totalClicks: 3, uniqueVisitors: 2 });

  const direct = await startServer(); // trusts nobody: every X-Forwarded-For is the client's own words
  try {
    await createLink(direct.url, { url: "https://example.com/d", custom_url: "no-proxy" });
    for (const xff of ["198.51.100.20", "198.51.100.21", "198.51.100.22"]) await click(direct.url, "no-proxy", { "user-agent": UA.chromeWindows, "x-forwarded-for": xff });
    expect((await waitForClicks(direct.url, "no-proxy", 3)).data.stats).toMatchObject({ totalClicks: 3, uniqueVisitors: 1 });
  } finally {
    await direct.dispose();
  }
});

test("visitsByHour: the hours of the range up to now, zero-filled, with this hour's clicks and uniques", async () => {
  const hourNow = () => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
  const hourBefore = hourNow();
  const s = (await stats(server.url, "id=uniq")).data.stats;
  const hourAfter = hourNow();
  const hours = s.visitsByHour;
  expect(hours.length).toBeGreaterThanOrEqual(1);
  expect(hours.length).toBeLessThanOrEqual(48);
  expect([hourBefore, hourAfter]).toContain(hours.at(-1).hour); // ends with the current hour
  // The first test's 7 clicks by 3 visitors fell in this hour or, if it turned meanwhile, in the one
  // before it too: each such hour counts each visitor at most once, and together at least once.
  const clicked = hours.map((h: { count: number }, i: number) => ({ ...h, i })).filter((h: { count: number }) => h.count > 0);
  expect(clicked.every((h: { i: number }) => h.i >= hours.length - 2)).toBe(true);
  expect(clicked.every((h: { unique: number }) => h.unique >= 1 && h.unique <= 3)).toBe(true);
  expect(hours.every((h: { hour: string }) => /^\d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/.test(h.hour))).toBe(true);
  expect(hours.reduce((n: number, h: { count: number }) => n + h.count, 0)).toBe(7);
  expect(hours.reduce((n: number, h: { unique: number }) => n + h.unique, 0)).toBeGreaterThanOrEqual(3);
  const sorted = [...hours.map((h: { hour: string }) => h.hour)].sort();
  expect(hours.map((h: { hour: string }) => h.hour)).toEqual(sorted);
  // A range that ended on a past day ends at its last hour, 23:00 UTC.
  const past = (await stats(server.url, "id=uniq&from=2026-01-01&to=2026-01-03")).data.stats.visitsByHour;
  expect(past).toEqual([]); // before the link existed: nothing to show
});

test("a restart within the day does not count anyone again; the file never holds a client address", async () => {
  const one = await startServer({ args: ["--trust-proxy", "127.0.0.1"] });
  const v4 = "203.0.113.99";
  const v6 = "2001:db8::77";
  await createLink(one.url, { url: "https://example.com/r", custom_url: "restart" });
  await click(one.url, "restart", { "user-agent": UA.safariIphone, "x-forwarded-for": v4 });
  await click(one.url, "restart", { "user-agent": UA.safariIphone, "x-forwarded-for": v6 });
  await waitForClicks(one.url, "restart", 2);
  await one.stop();
  const two = await startServer({ dir: one.dir, args: ["--trust-proxy", "127.0.0.1"] });
  try {
    await click(two.url, "restart", { "user-agent": UA.safariIphone, "x-forwarded-for": v4 });
    await click(two.url, "restart", { "user-agent": UA.safariIphone, "x-forwarded-for": v6 });
    const body = await waitForClicks(two.url, "restart", 4);
    expect(body.data.stats).toMatchObject({ totalClicks: 4, uniqueVisitors: 2 });
  } finally {
    await two.stop();
  }
  for (const file of [two.dbPath, `${two.dbPath}-wal`]) {
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    expect(bytes.includes(Buffer.from(v4))).toBe(false);
    expect(bytes.includes(Buffer.from(v6))).toBe(false);
    expect(bytes.includes(Buffer.from([203, 0, 113, 99]))).toBe(false);
    expect(bytes.includes(Buffer.from("20010db8000000000000000000000077", "hex"))).toBe(false);
  }
  await two.dispose();
});
