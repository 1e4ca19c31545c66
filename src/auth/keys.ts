// API keys: `sk_` and 32 random base62 characters (190 bits). Only the key's SHA-256 is stored,
// and the hash is how a key is found, so no comparison of secrets ever happens in our code. A
// fast hash is enough: the keys are random, there is nothing to guess a dictionary from.

import { cryptoRandomBytes, randomString, type RandomBytes } from "../util/random.ts";
import { then, type MaybePromise } from "../util/maybe.ts";
import { throttledTouch, type LastUsedWrite } from "./last-used.ts";

export type Scope = "admin" | "create";
export const SCOPES: readonly Scope[] = ["admin", "create"];

export const KEY_PREFIX = "sk_";
const KEY_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_BODY_LENGTH = 32;
const KEY_PATTERN = /^sk_[0-9A-Za-z]{32}$/;
export const KEY_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** `userId`: the user the key acts as (their links), or null for a key of its own. */
export type ApiKey = { id: number; name: string; scope: Scope; userId: number | null; createdAt: number; lastUsedAt: number | null; revokedAt: number | null };

export class KeyNameTakenError extends Error {}

export function generateKey(random: RandomBytes = cryptoRandomBytes): string {
  return KEY_PREFIX + randomString(KEY_ALPHABET, KEY_BODY_LENGTH, random);
}

export function hashSecret(secret: string): Uint8Array {
  return new Bun.CryptoHasher("sha256").update(secret).digest() as Uint8Array;
}

export function looksLikeKey(text: string): boolean {
  return KEY_PATTERN.test(text);
}

export type KeyStore = {
  /** A new key: the key itself (shown once) and its record. Throws KeyNameTakenError. */
  create(name: string, scope: Scope, now: number, userId?: number | null): MaybePromise<{ key: string; record: ApiKey }>;
  /** Every key, revoked ones too, oldest first. */
  list(): MaybePromise<ApiKey[]>;
  /** Revokes the key in use under this name; false when there is none. */
  revoke(name: string, now: number): MaybePromise<boolean>;
  /** The key in use with this secret, or null. */
  find(secret: string): MaybePromise<ApiKey | null>;
  /** The key in use whose secret has this SHA-256 (a session remembers the hash), or null. */
  findByHash(hash: Uint8Array): MaybePromise<ApiKey | null>;
  /** Records a use, at most once a minute per key; best effort, never throws for the database's trouble. */
  touch(id: number, now: number): void;
};

/** The rows of keys, as an engine stores them (src/db/<engine>/keys.ts). */
export type KeyRepository = {
  /** Throws KeyNameTakenError when a key in use has the name. */
  insert(name: string, scope: Scope, hash: Uint8Array, now: number, userId: number | null): MaybePromise<ApiKey>;
  list(): MaybePromise<ApiKey[]>;
  revoke(name: string, now: number): MaybePromise<boolean>;
  /** The key in use (not revoked) with this hash. */
  byHash(hash: Uint8Array): MaybePromise<ApiKey | null>;
  setLastUsed: LastUsedWrite<number>;
};

// last_used_at is written at most this often per key (by this process).
export const KEY_TOUCH_INTERVAL_MS = 60_000;

export function createKeyStore(repo: KeyRepository, random: RandomBytes = cryptoRandomBytes): KeyStore {
  return {
    create(name, scope, now, userId = null) {
      const key = generateKey(random);
      return then(repo.insert(name, scope, hashSecret(key), now, userId), (record) => ({ key, record }));
    },
    list: () => repo.list(),
    revoke: (name, now) => repo.revoke(name, now),
    find: (secret) => (looksLikeKey(secret) ? repo.byHash(hashSecret(secret)) : null),
    findByHash: (hash) => repo.byHash(hash),
    touch: throttledTouch(KEY_TOUCH_INTERVAL_MS, repo.setLastUsed),
  };
}
