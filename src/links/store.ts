// Links on disk, and the bounded in-memory map that lets a click resolve without touching SQLite.
// Every function that writes a row also updates that map before it returns, so the next click
// anywhere in this process sees the change.

import type { Database } from "bun:sqlite";
import { generateId } from "./id.ts";
import { cryptoRandomBytes, type RandomBytes } from "../util/random.ts";
import { isReserved } from "./alias.ts";
import type { Link } from "./link.ts";
import { clickRules, DELETED, GONE, rowFacts, verdictBeforeBudget, type Admission, type RuleFacts, type Target } from "./click-rules.ts";
import { LINK_COLUMNS, tagReader, toLink, type LinkRow } from "./rows.ts";
import { Lru } from "../util/lru.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { MaybePromise, Synchronous } from "../util/maybe.ts";

export class AliasTakenError extends Error {}
export class AliasRetiredError extends Error {}

/** A link to insert; what is left out is null (or no tags). */
export type NewLink = {
  url: string;
  /** null = generate an id */
  alias?: string | null;
  ownerKeyId?: number | null;
  expiresAt?: number | null;
  maxClicks?: number | null;
  tags?: readonly string[];
};

/** What PATCH may change; null clears expiresAt and maxClicks. */
export type LinkChanges = { url?: string; expiresAt?: number | null; maxClicks?: number | null; disabled?: boolean; tags?: readonly string[] };

export type { Admission, ClickRules, Target } from "./click-rules.ts";

export type LinkStore = {
  /** Inserts a link (committed before returning); a generated id when alias is null. */
  create(link: NewLink, now: number): MaybePromise<Link>;
  /**
   * What a request for id gets: the target, why it is gone, or null for no such link. A click (GET)
   * that is let through counts against max_clicks here, on the one thread that answers clicks,
   * so exactly max_clicks clicks are let through however many arrive at once.
   */
  admit(id: string, click: boolean, now: number): MaybePromise<Admission | null>;
  /** Clicks let through so far by this process, for links with a click limit (ahead of the recorder). */
  clicksAnswered(id: string): number | undefined;
  /** Lookups answered from memory and from the database, since start (for /metrics). */
  cacheStats(): { hits: number; misses: number };
  /** The whole link. */
  get(id: string): MaybePromise<Link | null>;
  /** Applies changes; null when there is no such link. */
  update(id: string, changes: LinkChanges): MaybePromise<Link | null>;
  /** Deletes the link, its visits and rollups, and retires its id; false when there is no such link. */
  remove(id: string, now: number): MaybePromise<boolean>;
  /** Every link's seq, destination and blocked flag (the blocklist's input). */
  destinations(): AsyncIterable<{ seq: number; url: string; blocked: boolean }>;
  /** Sets the blocked flag of links by seq (the blocklist's verdict) and forgets every cached entry. */
  setBlocked(blocked: readonly number[], unblocked: readonly number[]): MaybePromise<void>;
};

// Enough for the working set of a busy homelab (≈ 150 B per entry → ~15 MB at the bound).
/** A link as it is right after its insert (each engine's create): the row is exactly what was inserted, no need to read it back. */
export function newlyStored(seq: number, id: string, link: NewLink, now: number): Link {
  return {
    seq, id, url: link.url, createdAt: now, ownerKeyId: link.ownerKeyId ?? null, expiresAt: link.expiresAt ?? null, maxClicks: link.maxClicks ?? null,
    disabled: false, blocked: false, tags: [...new Set(link.tags ?? [])].sort(), totalClicks: 0, humanClicks: 0, lastClickAt: null,
  };
}

/** The click path's cache entry of a link just created (no click spent yet). */
export function targetOfNew(link: Link): Target {
  return { url: link.url, rules: clickRules({ ...rowFacts(link), total_clicks: 0 }) };
}

export const DEFAULT_CACHE_ENTRIES = 100_000;
export const MAX_GENERATION_TRIES = 8;
export function createLinkStore(db: Database, random: RandomBytes = cryptoRandomBytes, cacheEntries = DEFAULT_CACHE_ENTRIES): Synchronous<LinkStore> {
  // Nothing is inserted under a retired id: the check is part of the insert itself.
  const insert = db.query<{ seq: number }, [string, string, number, number | null, number | null, number | null]>(
    `INSERT INTO links (id, url, created_at, owner_key_id, expires_at, max_clicks)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE NOT EXISTS (SELECT 1 FROM retired_ids WHERE id = ?1)
     RETURNING seq`,
  );
  const insertTag = db.query<void, [number, string]>("INSERT OR IGNORE INTO link_tags (link_seq, tag) VALUES (?, ?)");
  const deleteTags = db.query<void, [number]>("DELETE FROM link_tags WHERE link_seq = ?");
  // One statement for a cache miss: the link's row, or whether the id was retired (deleted).
  const selectTarget = db.query<(RuleFacts & { url: string | null; retired: number }), [string]>(
    `SELECT l.url, l.expires_at, l.max_clicks, l.disabled, l.blocked, l.total_clicks, r.id IS NOT NULL AS retired
     FROM (SELECT ?1 AS id) AS q LEFT JOIN links AS l ON l.id = q.id LEFT JOIN retired_ids AS r ON r.id = q.id`,
  );
  const selectLink = db.query<LinkRow, [string]>(`SELECT ${LINK_COLUMNS} FROM links WHERE id = ?`);
  const tagsOf = tagReader(db);
  const cache = new Lru<string, Target>(cacheEntries);

  const read = (id: string): Link | null => {
    const row = selectLink.get(id);
    return row ? toLink(row, tagsOf([row.seq]).get(row.seq) ?? []) : null;
  };

  /** The new link's seq, or why there is none. */
  const tryInsert = db.transaction((id: string, link: NewLink, now: number): number | "taken" | "retired" => {
    let row;
    try {
      row = insert.get(id, link.url, now, link.ownerKeyId ?? null, link.expiresAt ?? null, link.maxClicks ?? null);
    } catch (err) {
      if (isUniqueViolation(err)) return "taken";
      throw err;
    }
    if (row === null) return "retired";
    for (const tag of link.tags ?? []) insertTag.run(row.seq, tag);
    return row.seq;
  });

  const created = (seq: number, id: string, link: NewLink, now: number): Link => {
    const stored = newlyStored(seq, id, link, now);
    cache.set(id, targetOfNew(stored));
    return stored;
  };

  let hits = 0;
  let misses = 0;
  const resolve = (id: string): Target | null => {
    const hit = cache.get(id);
    if (hit !== undefined) {
      hits++;
      return hit;
    }
    misses++;
    const row = selectTarget.get(id)!;
    let target: Target;
    if (row.url !== null) target = { url: row.url, rules: clickRules(row) };
    else if (row.retired === 1) target = DELETED;
    else return null;
    cache.set(id, target);
    return target;
  };

  // Clicks let through per link with a click limit, since this process started. Never evicted:
  // a count re-read from the database would miss the clicks still on their way to it.
  const answered = new Map<string, number>();

  const removeRow = db.transaction((id: string, now: number): boolean => {
    const gone = db.query("DELETE FROM links WHERE id = ?").run(id).changes > 0; // tags cascade, search by trigger
    if (!gone) return false;
    for (const table of ["visit_batches", "daily_rollup", "hourly_rollup", "dimension_rollup", "utm_rollup"]) db.query(`DELETE FROM ${table} WHERE link_id = ?`).run(id);
    db.query("INSERT OR IGNORE INTO retired_ids (id, retired_at) VALUES (?, ?)").run(id, now);
    return true;
  });

  const updateRow = db.transaction((id: string, changes: LinkChanges): boolean => {
    const sets: string[] = [];
    const values: (string | number | null)[] = [];
    const set = (column: string, value: string | number | null) => {
      sets.push(`${column} = ?`);
      values.push(value);
    };
    if (changes.url !== undefined) {
      set("url", changes.url);
      set("blocked", 0); // the new destination passed the blocklist (changes.ts) to get here
    }
    if (changes.expiresAt !== undefined) set("expires_at", changes.expiresAt);
    if (changes.maxClicks !== undefined) set("max_clicks", changes.maxClicks);
    if (changes.disabled !== undefined) set("disabled", changes.disabled ? 1 : 0);
    const seq = db.query<{ seq: number }, [string]>("SELECT seq FROM links WHERE id = ?").get(id)?.seq;
    if (seq === undefined) return false;
    if (sets.length > 0) db.query(`UPDATE links SET ${sets.join(", ")} WHERE seq = ?`).run(...values, seq);
    if (changes.tags !== undefined) {
      deleteTags.run(seq);
      for (const tag of changes.tags) insertTag.run(seq, tag);
    }
    return true;
  });

  return {
    create(link, now) {
      if (link.alias != null) {
        const outcome = tryInsert(link.alias, link, now);
        if (outcome === "taken") throw new AliasTakenError(link.alias);
        if (outcome === "retired") throw new AliasRetiredError(link.alias);
        return created(outcome, link.alias, link, now);
      }
      for (let attempt = 0; attempt < MAX_GENERATION_TRIES; attempt++) {
        const id = generateId(random);
        if (isReserved(id)) continue;
        const outcome = tryInsert(id, link, now);
        if (typeof outcome === "number") return created(outcome, id, link, now);
      }
      throw new Error(`no free id after ${MAX_GENERATION_TRIES} tries`);
    },
    admit(id, click, now) {
      const target = resolve(id);
      if (target === null) return null;
      const fixed = verdictBeforeBudget(target, now);
      if (fixed !== null) return fixed;
      const rules = target.rules!;
      // The larger: clicks counted here may be ahead of the recorded total by a flush, but not
      // after the limit was cleared for a while (then only the total went on counting).
      const used = Math.max(answered.get(id) ?? 0, rules.clicks);
      if (used >= rules.maxClicks!) return GONE.expired;
      if (click) answered.set(id, used + 1);
      return target;
    },
    clicksAnswered: (id) => answered.get(id),
    cacheStats: () => ({ hits, misses }),
    get: read,
    update(id, changes) {
      // IMMEDIATE: it reads the row, then writes; taking the write lock first avoids a busy snapshot.
      if (!updateRow.immediate(id, changes)) return null;
      cache.delete(id);
      return read(id);
    },
    remove(id, now) {
      if (!removeRow.immediate(id, now)) return false;
      cache.set(id, DELETED);
      answered.delete(id);
      return true;
    },
    async *destinations() {
      // prepare, not query: a cached statement would be shared with an overlapping walk.
      for (const row of db.prepare<{ seq: number; url: string; blocked: number }, []>("SELECT seq, url, blocked FROM links").iterate()) {
        yield { seq: row.seq, url: row.url, blocked: row.blocked === 1 };
      }
    },
    setBlocked(blocked, unblocked) {
      const mark = db.query<void, [number, string]>("UPDATE links SET blocked = ? WHERE seq IN (SELECT value FROM json_each(?))");
      db.transaction(() => {
        if (blocked.length > 0) mark.run(1, JSON.stringify(blocked));
        if (unblocked.length > 0) mark.run(0, JSON.stringify(unblocked));
      }).immediate();
      cache.clear();
    },
  };
}
