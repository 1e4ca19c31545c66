// Two instances on one PostgreSQL database (docs/several-domains.md: Renaming and removing): a new
// default made through one moves links between domains, and the other's link cache forgets every
// link at once (the change is announced in its transaction: src/db/postgres/domains.ts); its
// directory reads the domains again within 10 s. Without the announcement the other instance would
// keep answering a moved alias with the link it cached, on the wrong domain, indefinitely.
// PostgreSQL only: a SQLite file has one instance.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";
import { onPostgres, startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(90_000);

let first: RunningServer;
let second: RunningServer;
let admin: string;

beforeAll(async () => {
  if (!onPostgres) return;
  first = await startServer();
  second = await startServer({ database: first.dbPath });
  admin = makeKey(first.dbPath, "admin");
}, 60_000);
afterAll(async () => {
  await second?.stop();
  await first?.dispose();
});

async function click(base: string, host: string, alias: string): Promise<number> {
  const res = await fetch(`${base}/${alias}`, { headers: { host }, redirect: "manual" });
  await res.arrayBuffer();
  return res.status;
}

test.skipIf(!onPostgres)("a new default made on one instance: the other stops answering the moved alias on the new default", async () => {
  await madeLink(first.url, admin, "moving");
  expect((await api(first.url, admin, "POST", "/api/domains", { name: "s.example.org" })).status).toBe(201);
  expect((await api(first.url, admin, "POST", "/api/domains", { name: "go.example.net" })).status).toBe(201);
  // The second instance knows both domains (within 10 s) and has the link cached as the default's "moving".
  await eventually(() => click(second.url, "go.example.net", "moving"), (s) => s === 404, 25_000, 500);
  expect(await click(second.url, "s.example.org", "moving")).toBe(302);

  expect((await api(first.url, admin, "PATCH", "/api/domains/go.example.net", { isDefault: true })).status).toBe(200);
  // Once the second instance has read the domains again (within 10 s), go.example.net is its default:
  // its / is the public form there (200), no longer a redirect to the default's. Then the alias it
  // cached as the default's must not answer on go.example.net: it is s.example.org's now.
  await eventually(() => click(second.url, "go.example.net", ""), (s) => s === 200, 30_000, 500);
  expect(await click(second.url, "go.example.net", "moving")).toBe(404);
  expect(await click(second.url, "s.example.org", "moving")).toBe(302);
});
