// Links on disk, and the bounded in-memory map that lets a click resolve without touching SQLite.

import type { Database } from "bun:sqlite";
import { generateId, type RandomBytes, cryptoRandomBytes } from "./id.ts";
import { isReserved } from "./alias.ts";
import { Lru } from "../util/lru.ts";

export type Link = { id: string; url: string; createdAt: number };

export class AliasTakenError extends Error {}

export type LinkStore = {
  /** Inserts a link (committed before returning); a generated id when alias is null. */
  create(url: string, alias: string | null, now: number): Link;
  /** The destination for a click: from memory when cached, else one indexed read. */
  resolve(id: string): string | null;
  /** The whole link for stats. */
  get(id: string): Link | null;
};

// Enough for the working set of a busy homelab (≈ 100 B per entry → ~10 MB at the bound).
const DEFAULT_CACHE_ENTRIES = 100_000;
const MAX_GENERATION_TRIES = 8;

export function createLinkStore(db: Database, random: RandomBytes = cryptoRandomBytes, cacheEntries = DEFAULT_CACHE_ENTRIES): LinkStore {
  const insert = db.query<void, [string, string, number]>("INSERT INTO links (id, url, created_at) VALUES (?, ?, ?)");
  const selectUrl = db.query<{ url: string }, [string]>("SELECT url FROM links WHERE id = ?");
  const selectLink = db.query<{ id: string; url: string; created_at: number }, [string]>(
    "SELECT id, url, created_at FROM links WHERE id = ?",
  );
  const cache = new Lru<string, string>(cacheEntries);

  const tryInsert = (id: string, url: string, now: number): boolean => {
    try {
      insert.run(id, url, now);
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  };

  return {
    create(url, alias, now) {
      if (alias !== null) {
        if (!tryInsert(alias, url, now)) throw new AliasTakenError(alias);
        cache.set(alias, url);
        return { id: alias, url, createdAt: now };
      }
      for (let attempt = 0; attempt < MAX_GENERATION_TRIES; attempt++) {
        const id = generateId(random);
        if (isReserved(id)) continue;
        if (tryInsert(id, url, now)) {
          cache.set(id, url);
          return { id, url, createdAt: now };
        }
      }
      throw new Error(`no free id after ${MAX_GENERATION_TRIES} tries`);
    },
    resolve(id) {
      const hit = cache.get(id);
      if (hit !== undefined) return hit;
      const row = selectUrl.get(id);
      if (!row) return null;
      cache.set(id, row.url);
      return row.url;
    },
    get(id) {
      const row = selectLink.get(id);
      return row ? { id: row.id, url: row.url, createdAt: row.created_at } : null;
    },
  };
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? "";
  return code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE";
}
