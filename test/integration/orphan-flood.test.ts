// A flood of visits to no link against the real recorder thread, on the real server's database (SQLite,
// or PostgreSQL with SHORTENER_TEST_ENGINE=postgres): a visit to no link may fill at most half of the
// visit queue's bound (src/threads/recorder/client.ts; docs/statistics.md: Visits to no link), so
// clicks arriving during the flood are still admitted and counted, and the orphans past half the
// bound are counted as dropped, never written.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startClickRecorder, type ClickRecorder } from "../../src/threads/recorder/client.ts";
import { ORPHAN_SEQ, orphanText } from "../../src/visits/orphans.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { openStored } from "../support/stored.ts";

const ID = "flooded";
const MAX_QUEUED = 100;
const FLOOD = 1000;
const CLICKS = 40;
const UA = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

let server: RunningServer;
let recorder: ClickRecorder;
let seq = 0;
beforeAll(async () => {
  server = await startServer();
  expect((await createLink(server.url, { url: "https://example.org/flooded", custom_url: ID })).status).toBe(201);
  const stored = await openStored(server);
  seq = (await stored.get<{ seq: number }>("SELECT seq FROM links WHERE id = ?", ID))!.seq;
  await stored.close();
  recorder = await startClickRecorder({ database: server.dbPath, databasePassword: null, geoipDb: null, trustProxy: "", logFormat: "text", maxQueued: MAX_QUEUED, flushIntervalMs: 20 });
}, 60_000);
afterAll(() => server.dispose());

const base = { ts: Date.now(), userAgent: UA, referer: null, peer: "198.51.100.1", forwardedFor: null, forwarded: null, destination: null };

test("a flood of visits to no link fills half the queue: clicks are still admitted and counted, the orphans past it dropped", async () => {
  // Recorded in one turn of the event loop, as a burst is: nothing is handed over or written
  // meanwhile, so what is admitted is decided by the bound alone.
  for (let i = 0; i < FLOOD; i++) recorder.recordOrphan({ ...base, linkSeq: ORPHAN_SEQ, linkId: "", route: orphanText("regular_404", `/scan/${i}`) });
  const admittedOrphans = MAX_QUEUED / 2;
  expect(recorder.stats().dropped).toBe(FLOOD - admittedOrphans);
  const waits: Promise<void>[] = [];
  for (let i = 0; i < CLICKS; i++) {
    const wait = recorder.record({ ...base, linkSeq: seq, linkId: ID });
    if (wait !== undefined) waits.push(wait);
  }
  // Not one click dropped: the flood left them the other half.
  expect(recorder.stats().dropped).toBe(FLOOD - admittedOrphans);
  await Promise.all(waits);
  const final = await recorder.close();
  expect({ written: final.written, dropped: final.dropped, lastError: final.lastError }).toEqual({ written: admittedOrphans + CLICKS, dropped: FLOOD - admittedOrphans, lastError: null });
  const stored = await openStored(server);
  try {
    expect(Number((await stored.get<{ total_clicks: unknown }>("SELECT total_clicks FROM links WHERE id = ?", ID))!.total_clicks)).toBe(CLICKS);
    expect(Number((await stored.get<{ n: unknown }>("SELECT COALESCE(SUM(n), 0) AS n FROM orphan_batches"))!.n)).toBe(admittedOrphans);
    expect(Number((await stored.get<{ n: unknown }>("SELECT COALESCE(SUM(visits), 0) AS n FROM orphan_daily"))!.n)).toBe(admittedOrphans);
  } finally {
    await stored.close();
  }
}, 60_000);
