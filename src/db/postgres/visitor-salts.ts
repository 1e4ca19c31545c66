// Daily salts shared by every instance (so that a visitor is the same visitor whichever instance
// answers): read, or created by the first instance that needs one, before a hand-over's visits are
// built. Kept while the day lasts and an hour after, like SQLite's (src/visits/visitor-id.ts).

import { clickTimes } from "../../visits/click.ts";
import { dayCache } from "../../visits/rollup.ts";
import { oldestKeptDay, visitorKey } from "../../visits/visitor-id.ts";
import { dayOf } from "../../util/day.ts";
import { cryptoRandomBytes, type RandomBytes } from "../../util/random.ts";
import type { Pg } from "./connect.ts";

export type PgVisitorIds = {
  /** Reads (or makes) the salts of the days of a hand-over's clicks. */
  prepare(flat: readonly (string | number | null)[]): Promise<void> | undefined;
  of(ts: number, linkId: string, address: string, userAgent: string | null): number | null;
  forgetOldDays(now: number): Promise<void>;
};

export function createPgVisitorIds(sql: Pg, now: () => number, random: RandomBytes = cryptoRandomBytes): PgVisitorIds {
  const salts = new Map<string, string>(); // day → salt as hex
  // While the database cannot be read: a salt of this instance alone, so that the day's visitors
  // are still told apart here (another instance may count them once more). Replaced as soon as
  // the shared salt can be read.
  const stopgaps = new Map<string, string>();
  const dayOfClick = dayCache();

  const kept = (day: string) => day >= oldestKeptDay(now()) && day <= dayOf(now());

  const load = async (day: string): Promise<void> => {
    try {
      // Read first (every instance but the first of the day finds it); an insert that loses the
      // race to another instance's is ignored, and the salt read again is that one.
      let [row] = await sql`SELECT salt FROM visitor_salts WHERE day = ${day}`;
      if (row === undefined) {
        await sql`INSERT INTO visitor_salts (day, salt) VALUES (${day}, ${random(32)}) ON CONFLICT (day) DO NOTHING`;
        [row] = await sql`SELECT salt FROM visitor_salts WHERE day = ${day}`;
      }
      salts.set(day, Buffer.from(row.salt as Uint8Array).toString("hex"));
      stopgaps.delete(day);
    } catch {
      if (!stopgaps.has(day)) stopgaps.set(day, Buffer.from(random(32)).toString("hex"));
    }
  };

  return {
    prepare(flat) {
      let missing: Set<string> | null = null;
      for (const ts of clickTimes(flat)) {
        const day = dayOfClick(ts);
        if (!salts.has(day) && kept(day)) (missing ??= new Set()).add(day);
      }
      return missing === null ? undefined : Promise.all([...missing].map(load)).then(() => undefined);
    },
    of(ts, linkId, address, userAgent) {
      const day = dayOfClick(ts);
      const salt = salts.get(day) ?? (kept(day) ? stopgaps.get(day) : undefined);
      return salt === undefined ? null : visitorKey(salt, linkId, address, userAgent);
    },
    async forgetOldDays(at) {
      const keepFrom = oldestKeptDay(at);
      await sql`DELETE FROM visitor_salts WHERE day < ${keepFrom}`;
      for (const map of [salts, stopgaps]) for (const day of map.keys()) if (day < keepFrom) map.delete(day);
    },
  };
}
