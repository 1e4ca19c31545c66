// This instance's row in the registry (src/instances/presence.ts) over a real SQLite file: written
// at start with its settings, renewed by the heartbeat while it runs, marked at stop and not renewed
// after; a database that refuses the heartbeat is said in the log once per run of failures, and
// never stops the service.

import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import { sqliteInstances } from "../../src/db/sqlite/instances.ts";
import { announcePresence } from "../../src/instances/presence.ts";
import type { InstanceRegistry } from "../../src/instances/registry.ts";
import { eventually } from "../support/eventually.ts";

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), "shortener-presence-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));


test("written at start, renewed while it runs, marked at stop and left so", async () => {
  const db = openDatabase(join(dir, "s.db"));
  const registry = sqliteInstances(db);
  const clock = { now: 1_000 };
  const errors: string[] = [];
  const presence = await announcePresence(registry, "vm:8080", { webhookAllowPrivate: true }, { log: { info() {}, error: (m) => errors.push(m) }, now: () => clock.now, everyMs: 10 });
  expect(registry.all()).toEqual([{ name: "vm:8080", startedAt: 1_000, seenAt: 1_000, stoppedAt: null, webhookAllowPrivate: true }]);
  clock.now = 5_000;
  expect((await eventually(async () => registry.all()[0]!, (r) => r.seenAt === 5_000, 5_000, 5)).seenAt).toBe(5_000);
  clock.now = 9_000;
  await presence.stop();
  expect(registry.all()[0]).toMatchObject({ seenAt: 9_000, stoppedAt: 9_000 });
  clock.now = 12_000;
  await Bun.sleep(50); // several heartbeat periods: none comes after the stop
  expect(registry.all()[0]).toMatchObject({ seenAt: 9_000, stoppedAt: 9_000 });
  expect(errors).toEqual([]);
  db.close();
});

test("a heartbeat the database refuses is said once per run of failures; the start's failure too, and neither throws", async () => {
  let failing = true;
  let beats = 0;
  const seen: number[] = [];
  const registry: InstanceRegistry = {
    started: () => {
      throw new Error("disk I/O error");
    },
    seen: (_, at) => {
      beats++;
      if (failing) throw new Error("database is locked");
      seen.push(at);
    },
    stopped: () => {},
    all: () => [],
  };
  const errors: string[] = [];
  const presence = await announcePresence(registry, "vm:8080", { webhookAllowPrivate: false }, { log: { info() {}, error: (m, f) => errors.push(`${m} ${f?.error}`) }, everyMs: 5 });
  expect(errors).toEqual([expect.stringMatching(/^recording this instance \(vm:8080\) in the database failed at start.* disk I\/O error$/)]);
  await eventually(async () => beats, (n) => n >= 5, 5_000, 5); // five refused heartbeats
  expect(errors).toHaveLength(2);
  expect(errors[1]).toContain("(its heartbeat) database is locked");
  failing = false;
  await eventually(async () => seen.length, (n) => n > 0, 5_000, 5);
  await presence.stop();
  expect(errors).toHaveLength(2);
});
