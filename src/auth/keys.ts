// API keys: `sk_` and 32 random base62 characters (190 bits). Only the key's SHA-256 is stored,
// and the hash is how a key is found, so no comparison of secrets ever happens in our code. A
// fast hash is enough: the keys are random, there is nothing to guess a dictionary from.

import type { Database } from "bun:sqlite";
import { cryptoRandomBytes, randomString, type RandomBytes } from "../util/random.ts";
import { isUniqueViolation, writeIfFree } from "../db/errors.ts";
import type { MaybePromise, Synchronous } from "../util/maybe.ts";

export type Scope = "admin" | "create";
export const SCOPES: readonly Scope[] = ["admin", "create"];

export const KEY_PREFIX = "sk_";
const KEY_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_BODY_LENGTH = 32;
const KEY_PATTERN = /^sk_[0-9A-Za-z]{32}$/;
export const KEY_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

export type ApiKey = { id: number; name: string; scope: Scope; createdAt: number; lastUsedAt: number | null; revokedAt: number | null };

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
  create(name: string, scope: Scope, now: number): MaybePromise<{ key: string; record: ApiKey }>;
  /** Every key, revoked ones too, oldest first. */
  list(): MaybePromise<ApiKey[]>;
  /** Revokes the key in use under this name; false when there is none. */
  revoke(name: string, now: number): MaybePromise<boolean>;
  /** The key in use with this secret, or null. */
  find(secret: string): MaybePromise<ApiKey | null>;
  /** The key in use whose secret has this SHA-256 (a session remembers the hash), or null. */
  findByHash(hash: Uint8Array): MaybePromise<ApiKey | null>;
  /** Records a use; best effort (a busy or full database skips it, the next use tries again); never throws for the disk's trouble. */
  touch(id: number, now: number): void;
};

type KeyRow = { id: number; name: string; scope: Scope; created_at: number; last_used_at: number | null; revoked_at: number | null };
const COLUMNS = "id, name, scope, created_at, last_used_at, revoked_at";
const toKey = (r: KeyRow): ApiKey => ({ id: r.id, name: r.name, scope: r.scope, createdAt: r.created_at, lastUsedAt: r.last_used_at, revokedAt: r.revoked_at });

// last_used_at is written at most this often per key: a write per request would be a write lock per request.
const TOUCH_INTERVAL_MS = 60_000;

export function createKeyStore(db: Database, random: RandomBytes = cryptoRandomBytes): Synchronous<KeyStore> {
  const insert = db.query<KeyRow, [string, string, Uint8Array, number]>(`INSERT INTO api_keys (name, scope, hash, created_at) VALUES (?, ?, ?, ?) RETURNING ${COLUMNS}`);
  const byHash = db.query<KeyRow, [Uint8Array]>(`SELECT ${COLUMNS} FROM api_keys WHERE hash = ? AND revoked_at IS NULL`);
  const touched = new Map<number, number>();
  const findByHash = (hash: Uint8Array): ApiKey | null => {
    const row = byHash.get(hash);
    return row ? toKey(row) : null;
  };
  return {
    create(name, scope, now) {
      const key = generateKey(random);
      try {
        return { key, record: toKey(insert.get(name, scope, hashSecret(key), now)!) };
      } catch (err) {
        if (isUniqueViolation(err)) throw new KeyNameTakenError(name);
        throw err;
      }
    },
    list: () => db.query<KeyRow, []>(`SELECT ${COLUMNS} FROM api_keys ORDER BY id`).all().map(toKey),
    revoke: (name, now) => db.query("UPDATE api_keys SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL").run(now, name).changes > 0,
    find: (secret) => (looksLikeKey(secret) ? findByHash(hashSecret(secret)) : null),
    findByHash,
    touch(id, now) {
      if (now - (touched.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
      // A busy lock (the recorder writing) is not worth waiting for, nor is a full disk worth
      // failing the request for: the next use writes it.
      if (writeIfFree(db, () => db.query("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(now, id))) touched.set(id, now);
    },
  };
}
