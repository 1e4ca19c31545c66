// Opens the storage a --db value names (src/db/storage.ts): a SQLite file or a PostgreSQL URL.

import { engineOf, type Storage } from "./storage.ts";
import { openSqliteStorage } from "./sqlite/storage.ts";

export type StorageOptions = {
  /** SQLite: how long the click thread's connection waits for the write lock */
  busyTimeoutMs: number;
};

export async function openStorage(location: string, options: StorageOptions): Promise<Storage> {
  if (engineOf(location) === "postgres") throw new Error("PostgreSQL is not supported by this build");
  return openSqliteStorage(location, options.busyTimeoutMs);
}
