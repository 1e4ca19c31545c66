// Which visitors a link already had in a day and in an hour, so that each is counted once there.
// The sets live in the recorder thread's memory (a lookup per visit); each batch appends the keys
// it adds to visitors_seen in the batch's own transaction, one row per day or hour, and a restart
// rebuilds the sets from those rows. A set and its rows go an hour after their day or hour is over.
// A random-key index of every visitor cost 8.6 µs a visit and grew slower as it filled (measured);
// this costs a Set lookup and 8 bytes per new visitor.

import type { Database } from "bun:sqlite";
import type { Visit } from "../../visits/visit.ts";
import { dayCache, FIRST_IN_DAY, FIRST_IN_HOUR, hourCache, hourOf, type FirstVisits } from "../../visits/rollup.ts";
import { GRACE_MS, oldestKeptDay } from "../../visits/visitor-id.ts";

export type SeenMarks = {
  /** per visit of the batch: FIRST_IN_DAY | FIRST_IN_HOUR where its visitor is new */
  flags: FirstVisits;
  /** the keys the batch adds, per day or hour bucket */
  added: Map<string, number[]>;
};

export type SeenVisitors = {
  /** Which visits of a batch are firsts; changes nothing until commit(). */
  mark(batch: readonly Visit[], now: number): SeenMarks;
  /** Appends the added keys to the database; call inside the batch's transaction. */
  persist(added: Map<string, number[]>): void;
  /** After that transaction committed: the added keys count as seen from now on. */
  commit(added: Map<string, number[]>): void;
  /** Drops days and hours over for more than an hour, from memory and the database; returns the rows deleted. */
  forget(now: number): number;
  /** Keys held in memory (for tests and /health-like reporting). */
  readonly size: number;
};

/**
 * At most this many keys in memory (about 52 bytes each: 25 MB), for a day's and an hour's sets
 * together, so about 250,000 visitors of links a day. Past it, new visitors are counted without
 * being remembered (so a flood from many addresses overcounts uniques instead of taking memory).
 */
export const MAX_SEEN_KEYS = 500_000;

// Day buckets are YYYY-MM-DD (10 characters), hour buckets YYYY-MM-DDTHH (13). As strings a day
// sorts just before its own hours ("2026-11-22" < "2026-11-22T05" < "2026-11-23"), and the oldest
// kept day (?1) and hour (?2) are of one instant, so ?2 is an hour of day ?1. Hence every bucket
// kept is at least ?1, and every bucket gone is below ?1 (older days and their hours) or an hour of
// day ?1 below ?2: ranges the index on bucket serves, so the write lock is held for the rows gone
// only, not for a scan of the table (the plans are checked in test/unit/seen-visitors-sql.test.ts).
export const SEEN_SQL = {
  load: "SELECT bucket, visitors FROM visitors_seen WHERE bucket >= ?1 AND NOT (length(bucket) = 13 AND bucket < ?2)",
  forgetDays: "DELETE FROM visitors_seen WHERE bucket < ?1",
  forgetHours: "DELETE FROM visitors_seen WHERE bucket > ?1 AND bucket < ?2 AND length(bucket) = 13",
} as const;

export function createSeenVisitors(db: Database, now: number, maxKeys = MAX_SEEN_KEYS, onFull: () => void = () => {}): SeenVisitors {
  const insert = db.query<void, [string, Uint8Array]>("INSERT INTO visitors_seen (bucket, visitors) VALUES (?, ?)");
  const forgetDays = db.query<void, [string]>(SEEN_SQL.forgetDays);
  const forgetHours = db.query<void, [string, string]>(SEEN_SQL.forgetHours);
  const sets = new Map<string, Set<number>>();
  let held = 0; // keys in the sets
  for (const row of db.query<{ bucket: string; visitors: Uint8Array }, [string, string]>(SEEN_SQL.load).iterate(...limits(now))) {
    const set = sets.get(row.bucket) ?? new Set<number>();
    sets.set(row.bucket, set);
    for (const key of decode(row.visitors)) set.add(key);
  }
  for (const set of sets.values()) held += set.size;

  return {
    mark(batch, at) {
      const [oldestDay, oldestHour] = limits(at);
      const flags = new Uint8Array(batch.length);
      const added = new Map<string, number[]>();
      const states = new Map<string, Bucket>();
      // A batch spans a few hundred ms: its day and hour nearly never change, so each visit only
      // compares strings and does the two Set lookups it must.
      const room = { left: maxKeys - held };
      const state = (bucket: string, kept: boolean): Bucket => {
        let b = states.get(bucket);
        if (b === undefined) {
          const keys: number[] = [];
          b = { seen: sets.get(bucket), mine: new Set(), keys, kept, room };
          states.set(bucket, b);
          if (kept) added.set(bucket, keys);
        }
        return b;
      };
      const dayOf = dayCache();
      const hourOfVisit = hourCache();
      let day = "";
      let hour = "";
      let dayState: Bucket | null = null;
      let hourState: Bucket | null = null;
      for (let i = 0; i < batch.length; i++) {
        const v = batch[i]!;
        if (v.visitor === null) {
          flags[i] = FIRST_IN_DAY | FIRST_IN_HOUR;
          continue;
        }
        const d = dayOf(v.ts);
        if (d !== day || dayState === null) dayState = state((day = d), d >= oldestDay);
        const h = hourOfVisit(v.ts);
        if (h !== hour || hourState === null) hourState = state((hour = h), h >= oldestHour);
        flags[i] = (isFirst(dayState, v.visitor) ? FIRST_IN_DAY : 0) | (isFirst(hourState, v.visitor) ? FIRST_IN_HOUR : 0);
      }
      for (const [bucket, keys] of added) if (keys.length === 0) added.delete(bucket);
      if (room.left <= 0) onFull();
      return { flags, added };
    },
    persist(added) {
      for (const [bucket, keys] of added) insert.run(bucket, encode(keys));
    },
    commit(added) {
      for (const [bucket, keys] of added) {
        let set = sets.get(bucket);
        if (set === undefined) sets.set(bucket, (set = new Set()));
        for (const key of keys) set.add(key);
        held += keys.length;
      }
    },
    forget(at) {
      const [oldestDay, oldestHour] = limits(at);
      const deleted = forgetDays.run(oldestDay).changes + forgetHours.run(oldestDay, oldestHour).changes;
      for (const [bucket, set] of sets) {
        if (bucket >= (bucket.length === 10 ? oldestDay : oldestHour)) continue;
        held -= set.size;
        sets.delete(bucket);
      }
      return deleted;
    },
    get size() {
      return held;
    },
  };
}

/** A day or hour while a batch is marked: its known visitors, the batch's new ones, room for more. */
type Bucket = { seen: Set<number> | undefined; mine: Set<number>; keys: number[]; kept: boolean; room: { left: number } };

/**
 * True when the visitor is new in the bucket (and notes it). A bucket long gone, or no room left,
 * counts the visit as new without remembering it.
 */
function isFirst(b: Bucket, key: number): boolean {
  if (!b.kept) return true;
  if (b.seen?.has(key) || b.mine.has(key)) return false;
  if (b.room.left <= 0) return true;
  b.room.left--;
  b.mine.add(key);
  b.keys.push(key);
  return true;
}

/** The oldest day and hour buckets still kept at `now`. */
function limits(now: number): [string, string] {
  return [oldestKeptDay(now), hourOf(now - GRACE_MS)];
}

function encode(keys: readonly number[]): Uint8Array {
  return new Uint8Array(Float64Array.from(keys).buffer);
}

function decode(bytes: Uint8Array): Float64Array {
  // A copy: the blob's bytes need not be 8-byte aligned.
  return new Float64Array(Uint8Array.from(bytes).buffer);
}
