// API keys in PostgreSQL (the KeyRepository of src/auth/keys.ts): only hashes are stored.

import { KeyNameTakenError, type ApiKey, type KeyRepository, type Scope } from "../../auth/keys.ts";
import { isPgUniqueViolation, num, numOrNull, type Pg } from "./connect.ts";

const toKey = (r: Record<string, unknown>): ApiKey => ({
  id: num(r.id),
  name: r.name as string,
  scope: r.scope as Scope,
  userId: numOrNull(r.user_id),
  createdAt: num(r.created_at),
  lastUsedAt: numOrNull(r.last_used_at),
  revokedAt: numOrNull(r.revoked_at),
});

export function postgresKeys(sql: Pg): KeyRepository {
  return {
    async insert(name, scope, hash, now, userId) {
      try {
        const [row] = await sql`
          INSERT INTO api_keys (name, scope, hash, created_at, user_id) VALUES (${name}, ${scope}, ${hash}, ${now}, ${userId})
          RETURNING id, name, scope, user_id, created_at, last_used_at, revoked_at`;
        return toKey(row);
      } catch (err) {
        if (isPgUniqueViolation(err)) throw new KeyNameTakenError(name);
        throw err;
      }
    },
    list: async () => (await sql`SELECT id, name, scope, user_id, created_at, last_used_at, revoked_at FROM api_keys ORDER BY id`).map(toKey),
    revoke: async (name, now) => (await sql`UPDATE api_keys SET revoked_at = ${now} WHERE name = ${name} AND revoked_at IS NULL`).count > 0,
    async byHash(hash) {
      const [row] = await sql`SELECT id, name, scope, user_id, created_at, last_used_at, revoked_at FROM api_keys WHERE hash = ${hash} AND revoked_at IS NULL`;
      return row ? toKey(row) : null;
    },
    setLastUsed: (id, now) => sql`UPDATE api_keys SET last_used_at = ${now} WHERE id = ${id}`.then(() => true),
  };
}
