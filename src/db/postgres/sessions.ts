// Signed-in browsers' sessions in PostgreSQL (the SessionRepository of src/auth/sessions.ts).

import type { SessionRepository } from "../../auth/sessions.ts";
import { num, type Pg } from "./connect.ts";

export function postgresSessions(sql: Pg): SessionRepository {
  return {
    async insert(tokenHash, owner, now, idleBefore) {
      await sql.begin(async (tx) => {
        await tx`DELETE FROM sessions WHERE last_used_at <= ${idleBefore}`;
        await tx`INSERT INTO sessions (token_hash, key_hash, user_id, created_at, last_used_at)
                 VALUES (${tokenHash}, ${owner.keyHash ?? null}, ${owner.userId ?? null}, ${now}, ${now})`;
      });
    },
    async find(tokenHash, idleBefore) {
      const [row] = await sql`SELECT key_hash, user_id, created_at, last_used_at FROM sessions WHERE token_hash = ${tokenHash} AND last_used_at > ${idleBefore}`;
      if (!row) return null;
      const times = { createdAt: num(row.created_at), lastUsedAt: num(row.last_used_at) };
      return row.user_id !== null ? { userId: num(row.user_id), ...times } : { keyHash: new Uint8Array(row.key_hash), ...times };
    },
    setLastUsed: (tokenHash, now) => sql`UPDATE sessions SET last_used_at = ${now} WHERE token_hash = ${tokenHash}`.then(() => true),
    async remove(tokenHash) {
      await sql`DELETE FROM sessions WHERE token_hash = ${tokenHash}`;
    },
  };
}
