// The visit writer falls far behind a database that answers: here another connection holds the
// lock the writer needs (SQLite's write lock; on PostgreSQL an EXCLUSIVE lock on the links table),
// so its batch waits. The real recorder thread on the real server's database, with a small queue
// bound (40, so that clicks wait from a backlog of 10): every click is queued, the answers of those
// past the threshold wait until the writer has caught up, none before, and none is dropped.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startClickRecorder, type ClickRecorder } from "../../src/threads/recorder/client.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { stats } from "../support/clicks.ts";
import { holdWriteLock } from "../support/write-lock.ts";
import { openStored } from "../support/stored.ts";

const ID = "behind";
const MAX_QUEUED = 40;
const THRESHOLD = MAX_QUEUED / 4;

let server: RunningServer;
let recorder: ClickRecorder;
/** The link's seq, which the click door hands the recorder with each click. */
let seq = 0;
beforeAll(async () => {
  server = await startServer();
  expect((await createLink(server.url, { url: "https://example.org/behind", custom_url: ID })).status).toBe(201);
  const stored = await openStored(server);
  seq = (await stored.get<{ seq: number }>("SELECT seq FROM links WHERE id = ?", ID))!.seq;
  await stored.close();
  recorder = await startClickRecorder({
    database: server.dbPath,
    databasePassword: null,
    geoipDb: null,
    trustProxy: "",
    logFormat: "text",
    maxQueued: MAX_QUEUED,
    catchUpWaitMs: 60_000,
    flushIntervalMs: 20,
  });
});
afterAll(() => server.dispose());

const click = (i: number) => ({
  linkSeq: seq,
  linkId: ID,
  ts: Date.now(),
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  referer: null,
  peer: `198.51.100.${i}`,
  forwardedFor: null,
  forwarded: null,
  destination: null,
});

test("past a backlog of a quarter of the bound, answers wait for the writer; all are written, none dropped", async () => {
  const lock = await holdWriteLock(server);
  let released = false;
  const waits: Promise<void>[] = [];
  const atOnce: boolean[] = [];
  const wentBeforeRelease: boolean[] = [];
  for (let i = 0; i < 30; i++) {
    const wait = recorder.record(click(i));
    atOnce.push(wait === undefined);
    if (wait !== undefined) waits.push(wait.then(() => void wentBeforeRelease.push(!released)));
    // Let the first clicks reach the writer, so that it is stuck on the lock with a batch in hand.
    // Kept as a sleep: the recorder does not say when its thread has taken a batch (stats() counts
    // the backlog either way, so the assertions below hold without it; it makes the case realistic).
    if (i === 4) await Bun.sleep(200);
  }
  // Nothing can be written while the lock is held: the backlog is exactly the clicks so far.
  expect(atOnce).toEqual([...Array(THRESHOLD).fill(true), ...Array(30 - THRESHOLD).fill(false)]);
  // Kept: this proves an absence (no answer while the lock is held), which has no fact to wait on.
  await Bun.sleep(300);
  expect(wentBeforeRelease).toEqual([]);

  released = true;
  await lock.release(false);
  await Promise.all(waits);
  expect(wentBeforeRelease).toEqual(Array(30 - THRESHOLD).fill(false));

  const final = await recorder.close();
  expect({ written: final.written, dropped: final.dropped, delayed: final.delayed, lastError: final.lastError }).toEqual({
    written: 30,
    dropped: 0,
    delayed: 30 - THRESHOLD,
    lastError: null,
  });
  // Read back through the server: the link's 30 clicks are stored.
  const body = await stats(server.url, `id=${ID}`);
  expect(body.data.stats.totalClicks).toBe(30);
});
