// PostgreSQL test databases that start migrated. Migrating a fresh database costs more than every
// statement of a typical contract test (the whole schema, its indexes, pg_trgm), and each test
// used to pay it. Now the schema is brought up once per cluster, into a template, by the service's
// own open (openPostgresStorage: whatever shape the migrations take, this is how a database of the
// service gets its schema), and every test gets a copy (CREATE DATABASE … TEMPLATE …).

import { openPostgresStorage } from "../../src/db/postgres/storage.ts";
import { sharedPostgres } from "./postgres.ts";

/** Migrates the database at url the way the service does at start, and closes every connection. */
async function migrate(url: string): Promise<void> {
  const storage = await openPostgresStorage(url, null);
  await storage.close();
}

/** A new database of the shared cluster with the current schema, as the service would have left a fresh one; resolves to its URL. */
export async function migratedDatabase(): Promise<string> {
  const pg = await sharedPostgres();
  return await pg.createDatabase(await pg.template(migrate));
}
