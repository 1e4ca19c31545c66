// The peer APIs' totals are counted by the database (src/ops/links/list.ts countLinks), never by
// reading every link: Kutt's list reads only the links up to skip + limit (docs/kutt-api.md), and
// YOURLS's stats and db-stats count the key's links in one query (docs/yourls-api.md). The audit
// lines show how much was read: one list line per page read, one count line per total.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { api, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

const LINKS = 450;
let server: RunningServer;
let key: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  key = makeKey(server.dbPath, "counter", "create");
  const csv = "url\n" + Array.from({ length: LINKS }, (_, i) => `https://count.example/${i}`).join("\n");
  const imported = await api(server.url, key, "POST", "/api/links/import", csv, { "content-type": "text/csv" });
  expect(imported.body.data.created).toHaveLength(LINKS);
}, 60_000);
afterAll(() => server.dispose());

const auditLines = (action: string) => server.output().split("\n").filter((line) => line.startsWith(`management key=counter action=${action} `)).length;

test("Kutt's list: the total from one count, and only the page asked for read", async () => {
  const [lists, counts] = [auditLines("list"), auditLines("count")];
  const res = await fetch(`${server.url}/api/v2/links?limit=2`, { headers: { "X-API-KEY": key } });
  const body = await res.json();
  expect({ status: res.status, total: body.total, shown: body.data.length }).toEqual({ status: 200, total: LINKS, shown: 2 });
  expect({ lists: auditLines("list") - lists, counts: auditLines("count") - counts }).toEqual({ lists: 1, counts: 1 });
  // Far into the list: the links before skip are read (two pages of 200) and passed over, the rest not.
  const deep = await (await fetch(`${server.url}/api/v2/links?limit=5&skip=300`, { headers: { "X-API-KEY": key } })).json();
  expect({ total: deep.total, shown: deep.data.length, first: deep.data[0].target }).toEqual({ total: LINKS, shown: 5, first: `https://count.example/${LINKS - 301}` });
  expect(auditLines("list") - lists).toBe(1 + 2);
});

test("YOURLS's db-stats and stats: the key's links and clicks in one count", async () => {
  const counts = auditLines("count");
  const db = await (await fetch(`${server.url}/yourls-api.php?action=db-stats&format=json&signature=${key}`)).json();
  expect(db["db-stats"]).toEqual({ total_links: LINKS, total_clicks: 0 });
  const stats = await (await fetch(`${server.url}/yourls-api.php?action=stats&filter=last&limit=3&format=json&signature=${key}`)).json();
  expect({ totals: stats.stats, shown: Object.keys(stats.links).length }).toEqual({ totals: { total_links: LINKS, total_clicks: 0 }, shown: 3 });
  expect(auditLines("count") - counts).toBe(2);
});
