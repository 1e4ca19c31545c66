// Signed-in browsers' sessions in PostgreSQL: the same rules as SQLite's (src/auth/sessions.ts).

import { SESSION_IDLE_MS, SESSION_TOKEN_ALPHABET, SESSION_TOKEN_PATTERN, SESSION_TOUCH_INTERVAL_MS, type SessionStore } from "../../auth/sessions.ts";
import { hashSecret } from "../../auth/keys.ts";
import { cryptoRandomBytes, randomString, type RandomBytes } from "../../util/random.ts";
import { num, type Pg } from "./connect.ts";

export function createPgSessionStore(sql: Pg, random: RandomBytes = cryptoRandomBytes): SessionStore {
  return {
    async start(keyHash, now) {
      const token = randomString(SESSION_TOKEN_ALPHABET, 32, random);
      await sql.begin(async (tx) => {
        await tx`DELETE FROM sessions WHERE last_used_at <= ${now - SESSION_IDLE_MS}`; // the table stays small
        await tx`INSERT INTO sessions (token_hash, key_hash, created_at, last_used_at) VALUES (${hashSecret(token)}, ${keyHash}, ${now}, ${now})`;
      });
      return token;
    },
    async find(token, now) {
      if (!SESSION_TOKEN_PATTERN.test(token)) return null;
      const [row] = await sql`SELECT key_hash, last_used_at FROM sessions WHERE token_hash = ${hashSecret(token)} AND last_used_at > ${now - SESSION_IDLE_MS}`;
      return row ? { keyHash: new Uint8Array(row.key_hash), lastUsedAt: num(row.last_used_at) } : null;
    },
    touch(token, session, now) {
      if (now - session.lastUsedAt < SESSION_TOUCH_INTERVAL_MS) return;
      // Best effort, not awaited: the next use writes it if this one fails.
      sql`UPDATE sessions SET last_used_at = ${now} WHERE token_hash = ${hashSecret(token)}`.catch(() => {});
    },
    async end(token) {
      if (SESSION_TOKEN_PATTERN.test(token)) await sql`DELETE FROM sessions WHERE token_hash = ${hashSecret(token)}`;
    },
  };
}
