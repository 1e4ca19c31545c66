// API keys in PostgreSQL: the same rules as SQLite's (src/auth/keys.ts); only hashes are stored.

import { generateKey, hashSecret, KeyNameTakenError, looksLikeKey, type ApiKey, type KeyStore, type Scope } from "../../auth/keys.ts";
import { cryptoRandomBytes, type RandomBytes } from "../../util/random.ts";
import { isPgUniqueViolation, num, numOrNull, type Pg } from "./connect.ts";

// last_used_at is written at most this often per key (by this instance).
const TOUCH_INTERVAL_MS = 60_000;

const toKey = (r: Record<string, unknown>): ApiKey => ({
  id: num(r.id),
  name: r.name as string,
  scope: r.scope as Scope,
  createdAt: num(r.created_at),
  lastUsedAt: numOrNull(r.last_used_at),
  revokedAt: numOrNull(r.revoked_at),
});

export function createPgKeyStore(sql: Pg, random: RandomBytes = cryptoRandomBytes): KeyStore {
  const touched = new Map<number, number>();
  const findByHash = async (hash: Uint8Array): Promise<ApiKey | null> => {
    const [row] = await sql`SELECT id, name, scope, created_at, last_used_at, revoked_at FROM api_keys WHERE hash = ${hash} AND revoked_at IS NULL`;
    return row ? toKey(row) : null;
  };
  return {
    async create(name, scope, now) {
      const key = generateKey(random);
      try {
        const [row] = await sql`
          INSERT INTO api_keys (name, scope, hash, created_at) VALUES (${name}, ${scope}, ${hashSecret(key)}, ${now})
          RETURNING id, name, scope, created_at, last_used_at, revoked_at`;
        return { key, record: toKey(row) };
      } catch (err) {
        if (isPgUniqueViolation(err)) throw new KeyNameTakenError(name);
        throw err;
      }
    },
    list: async () => (await sql`SELECT id, name, scope, created_at, last_used_at, revoked_at FROM api_keys ORDER BY id`).map(toKey),
    revoke: async (name, now) => (await sql`UPDATE api_keys SET revoked_at = ${now} WHERE name = ${name} AND revoked_at IS NULL`).count > 0,
    find: (secret) => (looksLikeKey(secret) ? findByHash(hashSecret(secret)) : null),
    findByHash,
    touch(id, now) {
      if (now - (touched.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
      touched.set(id, now);
      // Best effort, not awaited: a request never waits for (or fails on) its "last used" time.
      sql`UPDATE api_keys SET last_used_at = ${now} WHERE id = ${id}`.catch(() => touched.delete(id));
    },
  };
}
