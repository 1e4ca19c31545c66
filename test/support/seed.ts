// Writes links and past visits into a running service's database through the service's own parts
// (its link store and visit writer, on either engine), for tests of history that clicks made
// "now" cannot produce.

import { openDatabase } from "../../src/db/open.ts";
import { createLinkStore, type LinkStore } from "../../src/links/store.ts";
import { createVisitWriter } from "../../src/visits/writer.ts";
import { createVisitQueue } from "../../src/visits/visit-queue.ts";
import { connectPostgres } from "../../src/db/postgres/connect.ts";
import { createPgLinkStore } from "../../src/db/postgres/links.ts";
import { pgBatchStore } from "../../src/db/postgres/visit-batches.ts";
import type { Visit } from "../../src/visits/visit.ts";
import type { Engine } from "./server.ts";

export type Seeder = { links: LinkStore; record(visit: Visit): void };

/** Runs fn with the store and writer of the server's database; every visit is written when it resolves. */
export async function seed(server: { dbPath: string; engine: Engine }, fn: (s: Seeder) => Promise<void> | void): Promise<void> {
  if (server.engine === "sqlite") {
    const db = openDatabase(server.dbPath);
    const writer = createVisitWriter(db, { flushIntervalMs: 60_000 });
    try {
      await fn({ links: createLinkStore(db), record: writer.record });
    } finally {
      writer.close();
      db.close();
    }
    return;
  }
  const sql = connectPostgres(server.dbPath, { max: 2, password: null });
  const writer = createVisitQueue(pgBatchStore(sql, Date.now), { flushIntervalMs: 60_000 });
  try {
    await fn({ links: createPgLinkStore(sql), record: writer.record });
  } finally {
    await writer.close();
    if (writer.stats().lastError !== null) throw new Error(`seeding visits failed: ${writer.stats().lastError}`);
    await sql.close();
  }
}
