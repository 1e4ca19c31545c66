// Signed-in browsers: a session is a random token in an HttpOnly cookie, stored only as its hash,
// tied to the hash of the key that signed in (so revoking the key ends its sessions too). A session
// ends 30 days after its last use, or when its browser signs out.

import type { Database } from "bun:sqlite";
import { cryptoRandomBytes, randomString, type RandomBytes } from "../util/random.ts";
import { hashSecret } from "./keys.ts";
import { writeIfFree } from "../db/errors.ts";
import type { MaybePromise, Synchronous } from "../util/maybe.ts";

export const SESSION_COOKIE = "shortener_session";
export const SESSION_IDLE_MS = 30 * 86_400_000;
export const SESSION_TOKEN_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const SESSION_TOKEN_PATTERN = /^[0-9A-Za-z]{32}$/;
// last_used_at is written at most this often; an hour's precision is plenty for a 30-day limit.
export const SESSION_TOUCH_INTERVAL_MS = 3_600_000;

export type Session = { keyHash: Uint8Array; lastUsedAt: number };

export type SessionStore = {
  /** A new session for the key with this hash; returns the cookie's value. */
  start(keyHash: Uint8Array, now: number): MaybePromise<string>;
  /** The live session of a cookie value, or null (unknown, ended or idle for 30 days). */
  find(token: string, now: number): MaybePromise<Session | null>;
  /** Records a use when the last one is an hour old or more (best effort: never waits for a lock, never fails for a full disk). */
  touch(token: string, session: Session, now: number): void;
  end(token: string): MaybePromise<void>;
};

export function createSessionStore(db: Database, random: RandomBytes = cryptoRandomBytes): Synchronous<SessionStore> {
  const insert = db.query<void, [Uint8Array, Uint8Array, number, number]>("INSERT INTO sessions (token_hash, key_hash, created_at, last_used_at) VALUES (?, ?, ?, ?)");
  const select = db.query<{ key_hash: Uint8Array; last_used_at: number }, [Uint8Array, number]>("SELECT key_hash, last_used_at FROM sessions WHERE token_hash = ? AND last_used_at > ?");
  const update = db.query<void, [number, Uint8Array]>("UPDATE sessions SET last_used_at = ? WHERE token_hash = ?");
  const remove = db.query<void, [Uint8Array]>("DELETE FROM sessions WHERE token_hash = ?");
  const purge = db.query<void, [number]>("DELETE FROM sessions WHERE last_used_at <= ?");
  return {
    start(keyHash, now) {
      const token = randomString(SESSION_TOKEN_ALPHABET, 32, random);
      purge.run(now - SESSION_IDLE_MS); // idle ones go when a new one comes: the table stays small
      insert.run(hashSecret(token), keyHash, now, now);
      return token;
    },
    find(token, now) {
      if (!SESSION_TOKEN_PATTERN.test(token)) return null;
      const row = select.get(hashSecret(token), now - SESSION_IDLE_MS);
      return row ? { keyHash: row.key_hash, lastUsedAt: row.last_used_at } : null;
    },
    touch(token, session, now) {
      if (now - session.lastUsedAt < SESSION_TOUCH_INTERVAL_MS) return;
      writeIfFree(db, () => update.run(now, hashSecret(token))); // busy or full: the next use writes it
    },
    end(token) {
      if (SESSION_TOKEN_PATTERN.test(token)) remove.run(hashSecret(token));
    },
  };
}
