// API keys in SQLite (the KeyRepository of src/auth/keys.ts): only hashes are stored.

import type { Database } from "bun:sqlite";
import { KeyNameTakenError, type ApiKey, type KeyRepository, type Scope } from "../../auth/keys.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { isUniqueViolation } from "../errors.ts";
import { writeIfFree } from "./write-if-free.ts";

type KeyRow = { id: number; name: string; scope: Scope; user_id: number | null; created_at: number; last_used_at: number | null; revoked_at: number | null };
const COLUMNS = "id, name, scope, user_id, created_at, last_used_at, revoked_at";
const toKey = (r: KeyRow): ApiKey => ({ id: r.id, name: r.name, scope: r.scope, userId: r.user_id, createdAt: r.created_at, lastUsedAt: r.last_used_at, revokedAt: r.revoked_at });

export function sqliteKeys(db: Database): Synchronous<KeyRepository> {
  const insert = db.query<KeyRow, [string, string, Uint8Array, number, number | null]>(`INSERT INTO api_keys (name, scope, hash, created_at, user_id) VALUES (?, ?, ?, ?, ?) RETURNING ${COLUMNS}`);
  const byHash = db.query<KeyRow, [Uint8Array]>(`SELECT ${COLUMNS} FROM api_keys WHERE hash = ? AND revoked_at IS NULL`);
  const touch = db.query<void, [number, number]>("UPDATE api_keys SET last_used_at = ? WHERE id = ?");
  return {
    insert(name, scope, hash, now, userId) {
      try {
        return toKey(insert.get(name, scope, hash, now, userId)!);
      } catch (err) {
        if (isUniqueViolation(err)) throw new KeyNameTakenError(name);
        throw err;
      }
    },
    list: () => db.query<KeyRow, []>(`SELECT ${COLUMNS} FROM api_keys ORDER BY id`).all().map(toKey),
    revoke: (name, now) => db.query("UPDATE api_keys SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL").run(now, name).changes > 0,
    byHash(hash) {
      const row = byHash.get(hash);
      return row ? toKey(row) : null;
    },
    setLastUsed: (id, now) => writeIfFree(db, () => touch.run(now, id)),
  };
}
