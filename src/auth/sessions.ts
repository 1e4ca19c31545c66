// Signed-in browsers: a session is a random token in an HttpOnly cookie, stored only as its hash,
// tied to the hash of the key that signed in (so revoking the key ends its sessions too) or to the
// user who signed in with a provider (disabling the user deletes them). A session ends 30 days
// after its last use, or when its browser signs out.

import { cryptoRandomBytes, randomString, type RandomBytes } from "../util/random.ts";
import { hashSecret } from "./keys.ts";
import { then, type MaybePromise } from "../util/maybe.ts";
import { writeBestEffort, type LastUsedWrite } from "./last-used.ts";

export const SESSION_COOKIE = "shortener_session";
export const SESSION_IDLE_MS = 30 * 86_400_000;
const SESSION_TOKEN_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SESSION_TOKEN_PATTERN = /^[0-9A-Za-z]{32}$/;
// last_used_at is written at most this often; an hour's precision is plenty for a 30-day limit.
export const SESSION_TOUCH_INTERVAL_MS = 3_600_000;

/** Whose a session is: the key pasted in, or a signed-in user. */
export type SessionOwner = { keyHash: Uint8Array; userId?: undefined } | { userId: number; keyHash?: undefined };
export type Session = SessionOwner & { createdAt: number; lastUsedAt: number };

/**
 * A provider's user signs in again after this long, however active: the provider's groups (the
 * allowed group, the admin group) and its own disabling of the person are checked at sign-in only.
 * Going back to the provider is usually one redirect without a prompt.
 */
export const USER_SESSION_MAX_MS = 7 * 86_400_000;

export type SessionStore = {
  /** A new session for the key or the user; returns the cookie's value. */
  start(owner: SessionOwner, now: number): MaybePromise<string>;
  /** The live session of a cookie value, or null (unknown, ended or idle for 30 days). */
  find(token: string, now: number): MaybePromise<Session | null>;
  /** Records a use when the last one is an hour old or more (best effort: never waits for a lock, never fails for a full disk). */
  touch(token: string, session: Session, now: number): void;
  end(token: string): MaybePromise<void>;
};

/** The rows of sessions, by the token's hash, as an engine stores them (src/db/<engine>/sessions.ts). */
export type SessionRepository = {
  /** Stores a new session, deleting those idle since before `idleBefore` (the table stays small). */
  insert(tokenHash: Uint8Array, owner: SessionOwner, now: number, idleBefore: number): MaybePromise<void>;
  /** The session if it was used after `idleBefore`. */
  find(tokenHash: Uint8Array, idleBefore: number): MaybePromise<Session | null>;
  setLastUsed: LastUsedWrite<Uint8Array>;
  remove(tokenHash: Uint8Array): MaybePromise<void>;
};

export function createSessionStore(repo: SessionRepository, random: RandomBytes = cryptoRandomBytes): SessionStore {
  return {
    start(owner, now) {
      const token = randomString(SESSION_TOKEN_ALPHABET, 32, random);
      return then(repo.insert(hashSecret(token), owner, now, now - SESSION_IDLE_MS), () => token);
    },
    find: (token, now) => (SESSION_TOKEN_PATTERN.test(token) ? repo.find(hashSecret(token), now - SESSION_IDLE_MS) : null),
    touch(token, session, now) {
      // The stored time decides, so every instance skips the write within the interval.
      if (now - session.lastUsedAt >= SESSION_TOUCH_INTERVAL_MS) writeBestEffort(repo.setLastUsed, hashSecret(token), now, () => {});
    },
    end: (token) => (SESSION_TOKEN_PATTERN.test(token) ? repo.remove(hashSecret(token)) : undefined),
  };
}
