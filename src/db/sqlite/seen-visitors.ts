// Which visitors a link already had in a day and in an hour, so that each is counted once there.
// One table per day (day-visitors.ts) lives in the recorder thread's memory: a visitor's key and
// the hours it was seen in, one probe per visit. Each batch appends the keys it adds to
// visitors_seen in the batch's own transaction, one row per day or hour, and a restart rebuilds the
// tables from those rows. A day's table and its rows go an hour after the day is over; an hour's
// rows an hour after the hour is over (its bits are then never asked again).
// A random-key index of every visitor cost 8.6 µs a visit and grew slower as it filled (measured);
// a Set per day and per hour cost two lookups, two insertions and about 104 bytes per new visitor;
// this costs one probe and 12 to 24 bytes.

import type { Database } from "bun:sqlite";
import type { Visit } from "../../visits/visit.ts";
import { dayCache, FIRST_IN_DAY, FIRST_IN_HOUR, hourCache, hourOf, type FirstVisits } from "../../visits/rollup.ts";
import { DayVisitors } from "./day-visitors.ts";
import { GRACE_MS, oldestKeptDay } from "../../visits/visitor-id.ts";

export type SeenMarks = {
  /** per visit of the batch: FIRST_IN_DAY | FIRST_IN_HOUR where its visitor is new */
  flags: FirstVisits;
  /** the keys the batch adds, per day or hour bucket */
  added: Map<string, number[]>;
};

export type SeenVisitors = {
  /** Which visits of a batch are firsts; they count as seen at once, until undo() takes them back. */
  mark(batch: readonly Visit[], now: number): SeenMarks;
  /** Appends the added keys to the database; call inside the batch's transaction. */
  persist(added: Map<string, number[]>): void;
  /** The batch's transaction failed: its visitors are unseen again (it is written again later). */
  undo(added: Map<string, number[]>): void;
  /** Drops days and hours over for more than an hour, from memory and the database; returns the rows deleted. */
  forget(now: number): number;
  /** Visitors held in memory, all days together (for tests and /health-like reporting). */
  readonly size: number;
};

/**
 * At most this many visitors in memory, all days together: tables of 2^20 slots at most, 12 bytes
 * a slot (12 MB; a table doubles when half full, hence 12 to 24 bytes a visitor). Past it, new
 * visitors are counted without being remembered (so a flood from many addresses overcounts
 * uniques instead of taking memory); a visitor already held is still told apart per hour.
 */
export const MAX_SEEN_VISITORS = 500_000;

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

export function createSeenVisitors(db: Database, now: number, maxVisitors = MAX_SEEN_VISITORS, onFull: () => void = () => {}): SeenVisitors {
  const insert = db.query<void, [string, Uint8Array]>("INSERT INTO visitors_seen (bucket, visitors) VALUES (?, ?)");
  const forgetDays = db.query<void, [string]>(SEEN_SQL.forgetDays);
  const forgetHours = db.query<void, [string, string]>(SEEN_SQL.forgetHours);
  const days = new Map<string, DayVisitors>();
  const dayTable = (day: string) => {
    let table = days.get(day);
    if (table === undefined) days.set(day, (table = new DayVisitors()));
    return table;
  };
  const held = () => {
    let n = 0;
    for (const table of days.values()) n += table.size;
    return n;
  };
  // An hour's row holds keys its day's rows hold too: in whichever order, a key ends with its hours.
  for (const row of db.query<{ bucket: string; visitors: Uint8Array }, [string, string]>(SEEN_SQL.load).iterate(...limits(now))) {
    const table = dayTable(row.bucket.slice(0, 10));
    const hours = row.bucket.length === 10 ? 0 : hourBit(row.bucket);
    for (const key of decode(row.visitors)) table.add(key, hours);
  }

  return {
    mark(batch, at) {
      const marking = createMarking(limits(at), dayTable, maxVisitors - held());
      const flags = new Uint8Array(batch.length);
      for (let i = 0; i < batch.length; i++) flags[i] = marking.visit(batch[i]!);
      if (marking.full()) onFull();
      for (const [bucket, keys] of marking.added) if (keys.length === 0) marking.added.delete(bucket);
      return { flags, added: marking.added };
    },
    persist(added) {
      for (const [bucket, keys] of added) insert.run(bucket, encode(keys));
    },
    undo(added) {
      // Hours first: a visitor new this day loses its hour's bit with its day's entry anyway.
      for (const [bucket, keys] of added) {
        const table = days.get(bucket.slice(0, 10));
        if (table === undefined) continue;
        if (bucket.length === 10) for (const key of keys) table.remove(key);
        else for (const key of keys) table.removeHours(key, hourBit(bucket));
      }
    },
    forget(at) {
      const [oldestDay, oldestHour] = limits(at);
      const deleted = forgetDays.run(oldestDay).changes + forgetHours.run(oldestDay, oldestHour).changes;
      for (const day of days.keys()) if (day < oldestDay) days.delete(day);
      return deleted;
    },
    get size() {
      return held();
    },
  };
}

/**
 * One batch's marking: per visit, FIRST_IN_DAY and FIRST_IN_HOUR where its visitor is new, noted
 * at once in its day's table; the keys added, per day and hour bucket, for the rows the batch
 * appends. A day or hour no longer kept counts every visit as new without noting it.
 */
function createMarking([oldestDay, oldestHour]: [string, string], dayTable: (day: string) => DayVisitors, room: number) {
  const added = new Map<string, number[]>();
  const keysOf = (bucket: string) => {
    let keys = added.get(bucket);
    if (keys === undefined) added.set(bucket, (keys = []));
    return keys;
  };
  const dayOf = dayCache();
  const hourOfVisit = hourCache();
  // A batch spans a few hundred ms: its day and hour nearly never change between visits.
  let day = "";
  let hour = "";
  let table: DayVisitors | null = null;
  let dayKeys: number[] = [];
  let hourKeys: number[] | null = null;
  let bit = 0;
  let full = false;
  const both = FIRST_IN_DAY | FIRST_IN_HOUR;
  return {
    added,
    full: () => full,
    visit(v: Visit): number {
      if (v.visitor === null) return both;
      const d = dayOf(v.ts);
      if (d !== day) {
        day = d;
        table = d >= oldestDay ? dayTable(d) : null;
        if (table !== null) dayKeys = keysOf(d);
      }
      if (table === null) return both;
      const h = hourOfVisit(v.ts);
      if (h !== hour) {
        hour = h;
        hourKeys = h >= oldestHour ? keysOf(h) : null;
        bit = hourBit(h);
      }
      const hours = table.hoursOf(v.visitor);
      if (hours === -1) {
        if (room <= 0) {
          full = true;
          return both;
        }
        room--;
        table.add(v.visitor, hourKeys === null ? 0 : bit);
        dayKeys.push(v.visitor);
        hourKeys?.push(v.visitor);
        return both;
      }
      if (hourKeys === null) return FIRST_IN_HOUR; // an hour long gone: new there, as its rows are
      if ((hours & bit) !== 0) return 0;
      table.addHours(v.visitor, bit);
      hourKeys.push(v.visitor);
      return FIRST_IN_HOUR;
    },
  };
}

/** The bit of an hour bucket ("YYYY-MM-DDTHH") in its day's hours mask. */
function hourBit(hour: string): number {
  return 1 << Number(hour.slice(11, 13));
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
