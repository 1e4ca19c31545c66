// Signed-in browsers' sessions in SQLite (the SessionRepository of src/auth/sessions.ts).

import type { Database } from "bun:sqlite";
import type { SessionRepository } from "../../auth/sessions.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { writeIfFree } from "./write-if-free.ts";

export function sqliteSessions(db: Database): Synchronous<SessionRepository> {
  const insert = db.query<void, [Uint8Array, Uint8Array | null, number | null, number, number]>(
    "INSERT INTO sessions (token_hash, key_hash, user_id, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)",
  );
  const select = db.query<{ key_hash: Uint8Array | null; user_id: number | null; created_at: number; last_used_at: number }, [Uint8Array, number]>(
    "SELECT key_hash, user_id, created_at, last_used_at FROM sessions WHERE token_hash = ? AND last_used_at > ?",
  );
  const update = db.query<void, [number, Uint8Array]>("UPDATE sessions SET last_used_at = ? WHERE token_hash = ?");
  const remove = db.query<void, [Uint8Array]>("DELETE FROM sessions WHERE token_hash = ?");
  const purge = db.query<void, [number]>("DELETE FROM sessions WHERE last_used_at <= ?");
  return {
    insert(tokenHash, owner, now, idleBefore) {
      db.transaction(() => {
        purge.run(idleBefore);
        insert.run(tokenHash, owner.keyHash ?? null, owner.userId ?? null, now, now);
      }).immediate();
    },
    find(tokenHash, idleBefore) {
      const row = select.get(tokenHash, idleBefore);
      if (!row) return null;
      const times = { createdAt: row.created_at, lastUsedAt: row.last_used_at };
      return row.user_id !== null ? { userId: row.user_id, ...times } : { keyHash: row.key_hash!, ...times };
    },
    setLastUsed: (tokenHash, now) => writeIfFree(db, () => update.run(now, tokenHash)),
    remove(tokenHash) {
      remove.run(tokenHash);
    },
  };
}
