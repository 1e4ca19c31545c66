// Signed-in browsers' sessions in PostgreSQL (the SessionRepository of src/auth/sessions.ts).

import type { SessionRepository } from "../../auth/sessions.ts";
import { num, type Pg } from "./connect.ts";

export function postgresSessions(sql: Pg): SessionRepository {
  return {
    async insert(tokenHash, keyHash, now, idleBefore) {
      await sql.begin(async (tx) => {
        await tx`DELETE FROM sessions WHERE last_used_at <= ${idleBefore}`;
        await tx`INSERT INTO sessions (token_hash, key_hash, created_at, last_used_at) VALUES (${tokenHash}, ${keyHash}, ${now}, ${now})`;
      });
    },
    async find(tokenHash, idleBefore) {
      const [row] = await sql`SELECT key_hash, last_used_at FROM sessions WHERE token_hash = ${tokenHash} AND last_used_at > ${idleBefore}`;
      return row ? { keyHash: new Uint8Array(row.key_hash), lastUsedAt: num(row.last_used_at) } : null;
    },
    setLastUsed: (tokenHash, now) => sql`UPDATE sessions SET last_used_at = ${now} WHERE token_hash = ${tokenHash}`.then(() => true),
    async remove(tokenHash) {
      await sql`DELETE FROM sessions WHERE token_hash = ${tokenHash}`;
    },
  };
}
