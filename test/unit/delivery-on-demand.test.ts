// The delivery thread on demand (src/threads/delivery/client.ts, docs/architecture.md: Threads),
// with real threads on a real SQLite file: no thread while no webhook wants anything; a start
// that fails is logged, never fails the change that asked for it, and is tried again until it
// works; and a thread with nothing to do is stopped. Threads are counted by name from /proc.

import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../../src/log.ts";
import { deliveryOnDemand } from "../../src/threads/delivery/client.ts";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import { eventually } from "../support/eventually.ts";
import { threadsNamed } from "../support/thread-names.ts";

setDefaultTimeout(60_000);


test.skipIf(process.platform !== "linux")("a start that fails is logged and tried again until it works; with nothing wanted the thread is stopped", async () => {
  const dir = mkdtempSync(join(tmpdir(), "shortener-delivery-"));
  const lines: string[] = [];
  const log: Logger = { info: (msg) => lines.push(msg), error: (msg, fields) => lines.push(`${msg} ${JSON.stringify(fields ?? {})}`) };
  // The database's folder is not there yet: the thread cannot open it.
  const database = join(dir, "later", "shortener.db");
  let wanted = false;
  const before = threadsNamed("delivery");
  const delivery = deliveryOnDemand(
    { database, databasePassword: null, allowPrivate: true, logFormat: "text", userAgent: "test", baseHost: null },
    { wanted: async () => wanted, markExpiry: async () => {}, log, checkEveryMs: 50 },
  );
  try {
    await delivery.changed(); // nothing wanted: no thread
    expect(threadsNamed("delivery")).toBe(before);
    wanted = true;
    await delivery.changed(); // resolves: the request that made a webhook never fails for the thread
    const failures = () => lines.filter((l) => l.startsWith("the delivery thread could not start; trying again")).length;
    expect(await eventually(async () => failures(), (n) => n >= 2, 15_000)).toBeGreaterThanOrEqual(2);
    mkdirSync(join(dir, "later"));
    openDatabase(database).close(); // made and migrated as the service makes it
    expect(await eventually(async () => threadsNamed("delivery"), (n) => n === before + 1, 15_000)).toBe(before + 1);
    // No webhook in the file: the thread finds nothing to do, and once nothing is wanted here either, it is stopped.
    wanted = false;
    expect(await eventually(async () => threadsNamed("delivery"), (n) => n === before, 30_000)).toBe(before);
  } finally {
    await delivery.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
