// The PostgreSQL server goes away while the service runs, and comes back (with the PostgreSQL
// suites: SHORTENER_TEST_ENGINE=postgres). On a cluster of this test's own (the shared one serves
// the other files): clicks on links in memory go on being
// answered and are queued, everything that needs the database answers 503 (never 500), /health
// says degraded, and once the server is back every queued click is written and writes work again.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { createLink, onPostgres, startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, stats, waitForClicks } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";

let pg: Postgres;
let server: RunningServer;
let key: string;
beforeAll(async () => {
  if (!onPostgres) return;
  pg = await startPostgres();
  server = await startServer({ database: await pg.createDatabase(), args: ["--create-rate-limit", "0"] });
  key = makeKey(server.dbPath, "outage");
}, 60_000);
afterAll(async () => {
  await server?.dispose();
  await pg?.stop();
});


test.skipIf(!onPostgres)("an outage: cached clicks answered and kept, the rest 503, and all written once the server is back", async () => {
  expect((await createLink(server.url, { url: "https://example.com/kept", custom_url: "kept" })).status).toBe(201);
  expect((await createLink(server.url, { url: "https://example.com/cold", custom_url: "cold" }, { authorization: `Bearer ${key}` })).status).toBe(201);
  expect((await click(server.url, "kept")).status).toBe(302);
  await waitForClicks(server.url, "kept", 1);

  await pg.pause();
  // The link in memory still redirects; its clicks wait in the queue.
  for (let i = 0; i < 20; i++) expect((await click(server.url, "kept")).status).toBe(302);
  const health = await eventually(() => fetch(`${server.url}/health`), (r) => r.status === 503);
  expect(health.status).toBe(503);
  expect((await health.json()).status).toBe("degraded");

  // Everything that needs the database: a clear 503, JSON for the API, a page for a click.
  const created = await createLink(server.url, { url: "https://example.com/during" });
  expect(created.status).toBe(503);
  expect(created.body).toMatchObject({ success: false, code: "storage_unavailable" });
  const listed = await api(server.url, key, "GET", "/api/links");
  expect(listed.status).toBe(503);
  expect(listed.body).toMatchObject({ success: false, code: "storage_unavailable" });
  const statsDuring = await fetch(`${server.url}/api/stats?id=kept`);
  expect(statsDuring.status).toBe(503);
  // The peer APIs say it in their own shapes (docs/kutt-api.md, docs/yourls-api.md), never in ours.
  const kutt = await fetch(`${server.url}/api/v2/links`, { headers: { "X-API-KEY": key } });
  expect({ status: kutt.status, body: await kutt.json() }).toEqual({ status: 503, body: { error: expect.stringContaining("database") } });
  const yourls = await fetch(`${server.url}/yourls-api.php?action=db-stats&format=json&signature=${key}`);
  expect({ status: yourls.status, body: await yourls.json() }).toMatchObject({ status: 503, body: { errorCode: "503", message: expect.stringContaining("database") } });
  const fresh = await startServerCold();
  try {
    expect(fresh).toBe(1); // a service cannot start without its database: exit 1, one clear line
  } finally {
    // nothing to stop: it never started
  }
  // "unknown" is in no instance's memory: the lookup needs the database.
  const unknown = await click(server.url, "unknown-link");
  expect(unknown.status).toBe(503);
  expect(unknown.headers.get("content-type")).toContain("text/html");
  expect(unknown.headers.get("retry-after")).toBe("30");

  await pg.resume();
  const healthy = await eventually(() => fetch(`${server.url}/health`), (r) => r.status === 200);
  expect(healthy.status).toBe(200);
  const body = await waitForClicks(server.url, "kept", 21);
  expect(body.data.stats.totalClicks).toBe(21); // none of the clicks answered during the outage is lost
  expect((await createLink(server.url, { url: "https://example.com/after" })).status).toBe(201);
  expect((await click(server.url, "cold")).status).toBe(302);
  expect((await stats(server.url, "id=cold")).success).toBe(true);
  expect(server.output()).not.toContain("internal error");
}, 60_000);

/** Starts a second service on the paused server; returns its exit code (it must not start). */
async function startServerCold(): Promise<number | null> {
  const { serverCommand } = await import("../support/server.ts");
  const proc = Bun.spawn([...serverCommand(), "--port", "0", "--host", "127.0.0.1", "--db", server.dbPath], { stdout: "pipe", stderr: "pipe" });
  const code = await proc.exited;
  const err = await new Response(proc.stderr).text();
  expect(err).toContain("cannot open database postgres://");
  expect(err).not.toContain(new URL(server.dbPath).password);
  expect(err.trim().split("\n")).toHaveLength(1);
  return code;
}
