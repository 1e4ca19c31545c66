// Crashes under load. kill -9: every acknowledged link survives, the file is intact, and the only
// visits lost are the ones still queued for the next flush (flushes run every 100 ms). SIGTERM: the
// graceful stop writes every visit whose 302 was answered.

import { expect, test } from "bun:test";
import { openStored } from "../support/stored.ts";
import { rmSync } from "node:fs";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { click } from "../support/clicks.ts";
import { mixedLoad, newLedger, total, type Ledger } from "./load.ts";
import { eventually } from "../support/eventually.ts";

const LINKS = ["crash-a", "crash-b", "crash-c"];

async function seeded(dir?: string): Promise<RunningServer> {
  const server = await startServer({ args: ["--create-rate-limit", "0"], dir });
  for (const id of LINKS) expect((await createLink(server.url, { url: `https://example.com/${id}`, custom_url: id })).status).toBe(201);
  return server;
}

/** Reads the database the way an operator would after the process is gone (SQLite: read-only). */
async function inspect(server: RunningServer) {
  const db = await openStored(server);
  try {
    // PostgreSQL keeps its own pages whole whatever a client process does; SQLite's file is checked.
    const integrity = server.engine === "sqlite" ? (await db.get<{ integrity_check: string }>("PRAGMA integrity_check"))!.integrity_check : "ok";
    const perLink = new Map((await db.all<{ id: string; n: number }>("SELECT l.id, COUNT(*) AS n FROM visits AS v JOIN links AS l ON l.seq = v.link_seq GROUP BY l.id")).map((r) => [r.id, r.n]));
    const visits = (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM visits"))!.n;
    const rolled = (await db.get<{ n: number }>("SELECT COALESCE(SUM(total), 0) AS n FROM daily_rollup"))!.n;
    return { integrity, perLink, visits, rolled };
  } finally {
    await db.close();
  }
}

/**
 * Resolves after ms, or as soon as the load has stopped on its own (which would be a failure).
 * A duration, not a wait for something: how long the load runs before the kill is the scenario.
 */
async function loadFor(ms: number, ledger: Ledger): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < ms && ledger.unexpected.length === 0) await Bun.sleep(20);
}

test("kill -9 during mixed load: acknowledged links survive, integrity ok, every visit reported written survives", async () => {
  const server = await seeded();
  const ledger = newLedger();
  let stopped = false;
  const load = mixedLoad(server.url, LINKS, 8, ledger, () => stopped);
  await loadFor(1500, ledger);
  // What the recorder says it has written, just before the kill (some, at least: waited for): all
  // of it must be in the file.
  const writtenSoFar = async () => ((await (await fetch(`${server.url}/health`)).json()) as { visits: { written: number } }).visits.written;
  const written = await eventually(writtenSoFar, (n) => n > 0);
  server.proc.kill("SIGKILL");
  await server.proc.exited;
  stopped = true;
  await load;

  expect(ledger.unexpected).toEqual([]);
  expect(ledger.created.size).toBeGreaterThan(10);
  expect(total(ledger.answered)).toBeGreaterThan(50);

  // The file as the crash left it (hot WAL and all), opened read-only while nothing runs.
  const after = await inspect(server);
  expect(after.integrity).toBe("ok");
  expect(after.rolled).toBe(after.visits); // visits and rollups commit together, never half
  const sum = (f: (id: string) => number) => LINKS.reduce((a, id) => a + f(id), 0);
  console.log(`kill -9: ${ledger.created.size} links acknowledged; clicks sent ${sum((id) => ledger.sent.get(id) ?? 0)}, answered ${total(ledger.answered)}, written before the kill ${written}, counted ${after.visits}`);
  // Lower bound, a fact rather than a time: every visit the recorder reported written survived.
  expect(after.visits).toBeGreaterThanOrEqual(written);
  for (const id of LINKS) {
    // Upper bound: nothing is invented (a click may be counted though its 302 was lost in the kill).
    expect(after.perLink.get(id) ?? 0).toBeLessThanOrEqual(ledger.sent.get(id) ?? 0);
  }

  // Restart on the same file: every link that was answered 201 resolves to its URL.
  const again = await startServer({ dir: server.dir, args: ["--create-rate-limit", "0"] });
  try {
    for (const [id, url] of [...ledger.created, ...LINKS.map((id) => [id, `https://example.com/${id}`] as const)]) {
      const res = await click(again.url, id, {}, "HEAD");
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(url);
    }
    expect((await fetch(`${again.url}/health`)).status).toBe(200);
  } finally {
    await again.stop();
    rmSync(server.dir, { recursive: true, force: true });
  }
}, 30_000);

test("SIGTERM during mixed load: exit 0 and every answered click is written", async () => {
  const server = await seeded();
  const ledger = newLedger();
  let stopped = false;
  const load = mixedLoad(server.url, LINKS, 8, ledger, () => stopped);
  await loadFor(1000, ledger);
  server.proc.kill("SIGTERM");
  const code = await server.proc.exited;
  stopped = true;
  await load;

  expect(code).toBe(0);
  expect(ledger.unexpected).toEqual([]);
  const after = await inspect(server);
  console.log(`SIGTERM: clicks answered ${total(ledger.answered)}, counted ${after.visits}`);
  expect(after.integrity).toBe("ok");
  for (const id of LINKS) expect({ id, counted: after.perLink.get(id) ?? 0 }).toEqual({ id, counted: ledger.answered.get(id)?.length ?? 0 });
  expect(after.rolled).toBe(after.visits);
  rmSync(server.dir, { recursive: true, force: true });
}, 30_000);
