// Both engines for the contract suites (test/contract): a fresh database of either, opened the way
// the service opens it, with the domain's rules over its adapters (Storage), the adapters
// themselves (EngineStorage), the recorder thread's side (RecorderStorage) with a visit queue over
// it, and a plain reader of what was stored. SQLite: a file in a temp folder; PostgreSQL: a copy of
// the shared test cluster's migrated template (support/postgres-template.ts), which the open below
// finds already at the current schema.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Engine, EngineStorage, Storage } from "../../src/db/storage.ts";
import { withRules } from "../../src/db/open-storage.ts";
import { openSqliteStorage } from "../../src/db/sqlite/storage.ts";
import { openPostgresStorage } from "../../src/db/postgres/storage.ts";
import { openRecorderStorage } from "../../src/db/open-recorder.ts";
import type { RecorderStorage } from "../../src/visits/recorder-storage.ts";
import { createVisitQueue, type VisitWriter } from "../../src/visits/visit-queue.ts";
import type { Logger } from "../../src/log.ts";
import { sharedPostgres } from "./postgres.ts";
import { migratedDatabase } from "./postgres-template.ts";
import { openStored, type Stored } from "./stored.ts";

export const ENGINES: readonly Engine[] = ["sqlite", "postgres"];

export type OpenedEngine = {
  engine: Engine;
  /** the file, or the postgres:// URL */
  location: string;
  storage: Storage;
  adapters: EngineStorage;
  recorder: RecorderStorage;
  /** a visit queue over recorder.batches that writes only when flushed or closed */
  writer: VisitWriter;
  /** the database read with the engine's own client */
  stored: Stored;
  /** A second process on the same database (a restart, or another instance): its own storage and recorder. */
  reopen(): Promise<{ storage: Storage; adapters: EngineStorage; recorder: RecorderStorage; close(): Promise<void> }>;
  dispose(): Promise<void>;
};

const quietLog: Logger = { info() {}, error() {} };

/** The recorder's clock in the contract suites: a minute after their NOW (support/contract-suite.ts). */
export const RECORDER_NOW = Date.parse("2026-11-23T12:01:00.000Z");

async function openAt(engine: Engine, location: string) {
  const adapters = engine === "sqlite" ? await openSqliteStorage(location, 5000) : await openPostgresStorage(location, null);
  const storage = await withRules(adapters);
  const recorder = await openRecorderStorage(location, null, quietLog, undefined, () => RECORDER_NOW);
  return { storage, adapters, recorder, close: async () => { await recorder.close(); await storage.close(); } };
}

/** A fresh, migrated database of the engine. */
export async function openEngine(engine: Engine): Promise<OpenedEngine> {
  let dir: string | null = null;
  let location: string;
  if (engine === "sqlite") {
    dir = mkdtempSync(join(tmpdir(), "shortener-contract-"));
    location = join(dir, "s.db");
  } else {
    location = await migratedDatabase();
  }
  const first = await openAt(engine, location);
  const writer = createVisitQueue(first.recorder.batches, { flushIntervalMs: 3_600_000 });
  const stored = await openStored({ dbPath: location, engine });
  const others: { close(): Promise<void> }[] = [];
  return {
    engine,
    location,
    ...first,
    writer,
    stored,
    async reopen() {
      const other = await openAt(engine, location);
      others.push(other);
      return other;
    },
    async dispose() {
      await writer.close();
      for (const other of others) await other.close();
      await first.close();
      await stored.close();
      if (dir !== null) rmSync(dir, { recursive: true, force: true });
      else await (await sharedPostgres()).dropDatabase(location);
    },
  };
}
