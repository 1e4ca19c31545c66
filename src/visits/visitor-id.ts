// Unique visitors without storing anyone (the way Plausible counts them): a visitor of a link on a
// UTC day is SHA-256(that day's random salt, link id, client address, User-Agent), cut to 16 bytes
// (written as 32 hex digits).
// The salt lives in the database only for its day and the next (so a restart does not double the
// day's uniques, and a click from just before midnight still finds its day), then it is deleted
// together with every hash made with it. Without the salt a hash says nothing about an address.

import type { Database } from "bun:sqlite";
import { cryptoRandomBytes, type RandomBytes } from "../util/random.ts";
import { addDays, dayOf } from "../util/day.ts";

const VISITOR_ID_HEX = 32;

export type VisitorIds = {
  /** The visitor of a click, or null when its day's salt is gone (a click older than yesterday). */
  of(ts: number, linkId: string, address: string, userAgent: string | null): string | null;
  /** Deletes salts and seen hashes of every day before yesterday (as seen at `now`). */
  forgetOldDays(now: number): void;
};

export function createVisitorIds(db: Database, now: () => number, random: RandomBytes = cryptoRandomBytes): VisitorIds {
  const select = db.query<{ salt: Uint8Array }, [string]>("SELECT salt FROM visitor_salts WHERE day = ?");
  // INSERT OR IGNORE then SELECT: two recorders (or a restart racing one) agree on one salt.
  const insert = db.query<void, [string, Uint8Array]>("INSERT OR IGNORE INTO visitor_salts (day, salt) VALUES (?, ?)");
  const deleteSalts = db.query<void, [string]>("DELETE FROM visitor_salts WHERE day < ?");
  const deleteSeen = db.query<void, [string]>("DELETE FROM visitors_seen WHERE bucket < ?");
  const salts = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();

  const saltOf = (day: string): Uint8Array | null => {
    const known = salts.get(day);
    if (known) return known;
    const today = dayOf(now());
    if (day < addDays(today, -1) || day > today) return null; // deleted, or a clock gone wrong
    let salt: Uint8Array;
    try {
      insert.run(day, random(32));
      salt = select.get(day)!.salt;
    } catch {
      // The disk refuses writes: a salt of this process alone still counts today's uniques right
      // until a restart; the visits themselves wait in the writer's queue meanwhile.
      salt = random(32);
    }
    salts.set(day, salt);
    return salt;
  };

  return {
    of(ts, linkId, address, userAgent) {
      const salt = saltOf(dayOf(ts));
      if (salt === null) return null;
      const hasher = new Bun.CryptoHasher("sha256");
      hasher.update(salt);
      // NUL-separated: no two different (link, address, agent) triples give the same input.
      hasher.update(encoder.encode(`${linkId}\u0000${address}\u0000${userAgent ?? ""}`));
      return hasher.digest("hex").slice(0, VISITOR_ID_HEX);
    },
    forgetOldDays(at) {
      const keepFrom = addDays(dayOf(at), -1);
      deleteSalts.run(keepFrom);
      deleteSeen.run(keepFrom); // "YYYY-MM-DDTHH" of an older day sorts before keepFrom too
      for (const day of salts.keys()) if (day < keepFrom) salts.delete(day);
    },
  };
}
