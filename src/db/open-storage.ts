// Opens the storage a --db value names (src/db/storage.ts): a SQLite file or a PostgreSQL URL.

import { engineOf, type Storage } from "./storage.ts";
import { openSqliteStorage } from "./sqlite/storage.ts";
import { openPostgresStorage } from "./postgres/storage.ts";
import { openDatabase } from "./open.ts";
import { createKeyStore, type KeyStore } from "../auth/keys.ts";
import { connectPostgres } from "./postgres/connect.ts";
import { migratePostgres } from "./postgres/schema.ts";
import { createPgKeyStore } from "./postgres/keys.ts";

export type StorageOptions = {
  /** SQLite: how long the click thread's connection waits for the write lock */
  busyTimeoutMs: number;
  /** PostgreSQL: the password when the URL has none (the systemd credential db-password) */
  password: string | null;
};

export async function openStorage(location: string, options: StorageOptions): Promise<Storage> {
  if (engineOf(location) === "postgres") return openPostgresStorage(location, options.password);
  return openSqliteStorage(location, options.busyTimeoutMs);
}

/** Only the API keys, for the `shortener key` commands (the schema brought up to date first). */
export async function openKeyStore(location: string, password: string | null): Promise<{ keys: KeyStore; close: () => Promise<void> }> {
  if (engineOf(location) === "sqlite") {
    const db = openDatabase(location);
    return { keys: createKeyStore(db), close: async () => db.close() };
  }
  const sql = connectPostgres(location, { max: 1, password });
  try {
    await migratePostgres(sql);
  } catch (err) {
    await sql.close({ timeout: 1 }).catch(() => {});
    throw err;
  }
  return { keys: createPgKeyStore(sql), close: () => sql.close({ timeout: 5 }) };
}
