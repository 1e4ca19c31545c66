// Holds the lock the service's writes need, from a connection of the test's own, on the real
// server's database: SQLite's write lock (BEGIN IMMEDIATE); on PostgreSQL an EXCLUSIVE lock on the
// links table (reads go on; every insert or update of a link, and the visit writer's row locks, wait).

import { Database } from "bun:sqlite";
import { SQL } from "bun";
import type { Engine } from "./server.ts";

export type HeldLock = {
  /** Ends the holding transaction: SQLite commits it or rolls it back; PostgreSQL's holds no changes. */
  release(commit: boolean): Promise<void>;
};

export async function holdWriteLock(server: { dbPath: string; engine: Engine }): Promise<HeldLock> {
  if (server.engine === "sqlite") {
    const other = new Database(server.dbPath);
    other.run("BEGIN IMMEDIATE");
    return {
      release: async (commit) => {
        other.run(commit ? "COMMIT" : "ROLLBACK");
        other.close();
      },
    };
  }
  const pg = new SQL(server.dbPath, { max: 1 });
  let end!: () => void;
  const held = new Promise<void>((resolve) => (end = resolve));
  let locked!: () => void;
  const acquired = new Promise<void>((resolve) => (locked = resolve));
  const tx = pg.begin(async (t) => {
    await t`LOCK TABLE links IN EXCLUSIVE MODE`;
    locked();
    await held;
  });
  await acquired;
  return {
    release: async () => {
      end();
      await tx;
      await pg.close();
    },
  };
}
