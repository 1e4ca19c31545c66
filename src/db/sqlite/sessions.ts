// Signed-in browsers' sessions in SQLite (the SessionRepository of src/auth/sessions.ts).

import type { Database } from "bun:sqlite";
import type { SessionRepository } from "../../auth/sessions.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { writeIfFree } from "./write-if-free.ts";

export function sqliteSessions(db: Database): Synchronous<SessionRepository> {
  const insert = db.query<void, [Uint8Array, Uint8Array, number, number]>("INSERT INTO sessions (token_hash, key_hash, created_at, last_used_at) VALUES (?, ?, ?, ?)");
  const select = db.query<{ key_hash: Uint8Array; last_used_at: number }, [Uint8Array, number]>("SELECT key_hash, last_used_at FROM sessions WHERE token_hash = ? AND last_used_at > ?");
  const update = db.query<void, [number, Uint8Array]>("UPDATE sessions SET last_used_at = ? WHERE token_hash = ?");
  const remove = db.query<void, [Uint8Array]>("DELETE FROM sessions WHERE token_hash = ?");
  const purge = db.query<void, [number]>("DELETE FROM sessions WHERE last_used_at <= ?");
  return {
    insert(tokenHash, keyHash, now, idleBefore) {
      db.transaction(() => {
        purge.run(idleBefore);
        insert.run(tokenHash, keyHash, now, now);
      }).immediate();
    },
    find(tokenHash, idleBefore) {
      const row = select.get(tokenHash, idleBefore);
      return row ? { keyHash: row.key_hash, lastUsedAt: row.last_used_at } : null;
    },
    setLastUsed: (tokenHash, now) => writeIfFree(db, () => update.run(now, tokenHash)),
    remove(tokenHash) {
      remove.run(tokenHash);
    },
  };
}
