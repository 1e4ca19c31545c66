// A flood of visits to no link against the real recorder thread, on the real server's database (SQLite,
// or PostgreSQL with SHORTENER_TEST_ENGINE=postgres): visits to no link are dropped once the backlog
// is half of where clicks start to wait for the writer (src/visits/catch-up.ts orphanBound;
// docs/statistics.md: Visits to no link), so clicks arriving during the flood are admitted at once,
// never delayed, and counted; the orphans past the bound are counted apart as dropped, never
// written, and not as visits the database refused.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startClickRecorder, type ClickRecorder } from "../../src/threads/recorder/client.ts";
import { ORPHAN_SEQ, orphanText } from "../../src/visits/orphans.ts";
import { catchUpThreshold, orphanBound } from "../../src/visits/catch-up.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { openStored } from "../support/stored.ts";

const ID = "flooded";
const MAX_QUEUED = 100;
const FLOOD = 1000;
// Clicks start to wait at catchUpThreshold(MAX_QUEUED) = 25; the flood leaves them 25 - 12.
const CLICKS = 12;
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

test("a flood of visits to no link stops well before clicks would wait: clicks are admitted at once and counted, the orphans past it dropped apart", async () => {
  const admittedOrphans = orphanBound(MAX_QUEUED);
  expect(admittedOrphans + CLICKS).toBeLessThan(catchUpThreshold(MAX_QUEUED));
  // Recorded in one turn of the event loop, as a burst is: nothing is handed over or written
  // meanwhile, so what is admitted is decided by the bound alone.
  for (let i = 0; i < FLOOD; i++) recorder.recordOrphan({ ...base, linkSeq: ORPHAN_SEQ, linkId: "", route: orphanText("regular_404", `/scan/${i}`) });
  expect(recorder.stats()).toMatchObject({ orphansDropped: FLOOD - admittedOrphans, dropped: 0 });
  const waits: (Promise<void> | undefined)[] = [];
  for (let i = 0; i < CLICKS; i++) waits.push(recorder.record({ ...base, linkSeq: seq, linkId: ID }));
  // Not one click dropped nor made to wait for the writer by the flood.
  expect(waits.filter((w) => w !== undefined).length).toBe(0);
  expect(recorder.stats()).toMatchObject({ dropped: 0, delayed: 0, orphansDropped: FLOOD - admittedOrphans });
  const final = await recorder.close();
  expect({ written: final.written, dropped: final.dropped, orphansDropped: final.orphansDropped, lastError: final.lastError }).toEqual({
    written: admittedOrphans + CLICKS,
    dropped: 0,
    orphansDropped: FLOOD - admittedOrphans,
    lastError: null,
  });
  const stored = await openStored(server);
  try {
    expect(Number((await stored.get<{ total_clicks: unknown }>("SELECT total_clicks FROM links WHERE id = ?", ID))!.total_clicks)).toBe(CLICKS);
    expect(Number((await stored.get<{ n: unknown }>("SELECT COALESCE(SUM(n), 0) AS n FROM orphan_batches"))!.n)).toBe(admittedOrphans);
    expect(Number((await stored.get<{ n: unknown }>("SELECT COALESCE(SUM(visits), 0) AS n FROM orphan_daily"))!.n)).toBe(admittedOrphans);
  } finally {
    await stored.close();
  }
}, 60_000);
