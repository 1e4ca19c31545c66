// Unique visitors without storing anyone (the way Plausible counts them): a visitor of a link on a
// UTC day is SHA-256(that day's random salt, link id, client address, User-Agent), of which 52 bits
// are kept as a number (the chance that two of a million visitors of one day share a key is 1e-4).
// The salt lives in the database only while its day lasts and an hour after (so a restart does not
// count the day's visitors again, and a click from just before midnight still finds its day), then
// it is deleted together with every key made with it. Without the salt a key says nothing.

import type { Database } from "bun:sqlite";
import { cryptoRandomBytes, type RandomBytes } from "../util/random.ts";
import { dayOf } from "../util/day.ts";
import { dayCache } from "./rollup.ts";

/** How long after its day (or hour) is over a salt and the keys seen in it are kept. */
export const GRACE_MS = 3_600_000;

export type VisitorIds = {
  /** The visitor key of a click, or null when its day's salt is gone (a click from long ago). */
  of(ts: number, linkId: string, address: string, userAgent: string | null): number | null;
  /** Deletes the salts of days over for more than GRACE_MS (as seen at `now`); returns how many. */
  forgetOldDays(now: number): number;
};

export function createVisitorIds(db: Database, now: () => number, random: RandomBytes = cryptoRandomBytes): VisitorIds {
  const select = db.query<{ salt: Uint8Array }, [string]>("SELECT salt FROM visitor_salts WHERE day = ?");
  // INSERT OR IGNORE then SELECT again: two recorders (or a restart racing one) agree on one salt.
  const insert = db.query<void, [string, Uint8Array]>("INSERT OR IGNORE INTO visitor_salts (day, salt) VALUES (?, ?)");
  const deleteSalts = db.query<void, [string]>("DELETE FROM visitor_salts WHERE day < ?");
  const salts = new Map<string, string>(); // day → salt as hex, the prefix of every hashed input
  const dayOfClick = dayCache(); // clicks come in time order: the day is formatted once a day

  const saltOf = (day: string): string | null => {
    const known = salts.get(day);
    if (known !== undefined) return known;
    if (day < oldestKeptDay(now()) || day > dayOf(now())) return null; // deleted, or a clock gone wrong
    let salt: Uint8Array;
    try {
      // The stored salt first: a restart on a full or read-only disk still finds the day's salt,
      // and a day's salt is written once, not tried again by every process that needs it.
      let row = select.get(day);
      if (row === null) {
        insert.run(day, random(32));
        row = select.get(day);
      }
      salt = row!.salt;
    } catch {
      // The disk refuses writes: a salt of this process alone still counts today's uniques right
      // until a restart; the visits themselves wait in the writer's queue meanwhile.
      salt = random(32);
    }
    const hex = Buffer.from(salt).toString("hex");
    salts.set(day, hex);
    return hex;
  };

  return {
    of(ts, linkId, address, userAgent) {
      const salt = saltOf(dayOfClick(ts));
      return salt === null ? null : visitorKey(salt, linkId, address, userAgent);
    },
    forgetOldDays(at) {
      const keepFrom = oldestKeptDay(at);
      const deleted = deleteSalts.run(keepFrom).changes;
      for (const day of salts.keys()) if (day < keepFrom) salts.delete(day);
      return deleted;
    },
  };
}

/** The oldest day whose salt is still kept at `now`: yesterday during the first hour of a day, else today. */
export function oldestKeptDay(now: number): string {
  return dayOf(now - GRACE_MS);
}

/** The key of a visitor under a day's salt (as hex): 52 bits of the SHA-256 of them all. */
export function visitorKey(saltHex: string, linkId: string, address: string, userAgent: string | null): number {
  // NUL-separated: no two different (link, address, agent) triples give the same input.
  return keyOf(Bun.CryptoHasher.hash("sha256", `${saltHex}\u0000${linkId}\u0000${address}\u0000${userAgent ?? ""}`) as Uint8Array);
}

/** The first 52 bits of a digest as a number (exact in a double, a cheap Set key). */
function keyOf(d: Uint8Array): number {
  return d[0]! * 2 ** 44 + d[1]! * 2 ** 36 + d[2]! * 2 ** 28 + d[3]! * 2 ** 20 + d[4]! * 2 ** 12 + d[5]! * 2 ** 4 + (d[6]! >> 4);
}
