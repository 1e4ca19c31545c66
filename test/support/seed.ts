// Writes links and past visits into a running service's database through the service's own parts
// (its link store and visit writer, on either engine), for tests of history that clicks made
// "now" cannot produce.

import type { LinkStore } from "../../src/links/store.ts";
import type { Visit } from "../../src/visits/visit.ts";
import { openStorage } from "../../src/db/open-storage.ts";
import { openRecorderStorage } from "../../src/db/open-recorder.ts";
import { createVisitQueue } from "../../src/visits/visit-queue.ts";
import type { Engine } from "./server.ts";

export type Seeder = { links: LinkStore; record(visit: Visit): void };

/** Runs fn with the store and writer of the server's database; every visit is written when it resolves. */
export async function seed(server: { dbPath: string; engine: Engine }, fn: (s: Seeder) => Promise<void> | void): Promise<void> {
  const storage = await openStorage(server.dbPath, { busyTimeoutMs: 5000, password: null });
  const recorder = await openRecorderStorage(server.dbPath, null, { info() {}, error() {} });
  const writer = createVisitQueue(recorder.batches, { flushIntervalMs: 60_000 });
  try {
    await fn({ links: storage.links, record: writer.record });
  } finally {
    await writer.close();
    await recorder.close();
    await storage.close();
  }
  if (writer.stats().lastError !== null) throw new Error(`seeding visits failed: ${writer.stats().lastError}`);
}
