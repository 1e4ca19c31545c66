// Unique visitors without storing anyone (the way Plausible counts them): a visitor of a link on a
// UTC day is SHA-256(that day's random salt, link id, client address, User-Agent), of which 52 bits
// are kept as a number (the chance that two of a million visitors of one day share a key is 1e-4).
// The salt lives in the database only while its day lasts and an hour after (so a restart does not
// count the day's visitors again, and a click from just before midnight still finds its day), then
// it is deleted together with every key made with it. Without the salt a key says nothing.
// Every process (every instance, with PostgreSQL) uses the day's one stored salt (SaltStore).

import { cryptoRandomBytes, type RandomBytes } from "../util/random.ts";
import { dayOf } from "../util/day.ts";
import { then, type MaybePromise } from "../util/maybe.ts";
import { dayCache } from "./rollup.ts";
import { CLICK_FIELDS, CLICK_TS } from "./click.ts";

/** How long after its day (or hour) is over a salt and the keys seen in it are kept. */
export const GRACE_MS = 3_600_000;
/** While the stored salt cannot be had, a process's own salt serves, and the store is asked again this often. */
export const SALT_RETRY_MS = 1_000;

/** The salts as an engine stores them (src/db/<engine>/visitor-salts.ts). */
export type SaltStore = {
  /** The day's stored salt; when there is none, `fresh` is stored and returned (every process gets the first one stored). */
  saltOf(day: string, fresh: Uint8Array): MaybePromise<Uint8Array>;
  /** Deletes the salts of days before `day`; returns how many. */
  forgetBefore(day: string): MaybePromise<number>;
};

export type VisitorIds = {
  /** Reads the salts of the days of a hand-over's clicks (`flat` as packClick made it) that are not known yet. */
  prepare(flat: readonly (string | number | null)[]): MaybePromise<void>;
  /** The visitor key of a click, or null when its day's salt is gone (a click from long ago). */
  of(ts: number, linkId: string, address: string, userAgent: string | null): number | null;
  /** Deletes the salts of days over for more than GRACE_MS (as seen at `now`); returns how many. */
  forgetOldDays(now: number): MaybePromise<number>;
};

export function createVisitorIds(store: SaltStore, now: () => number, random: RandomBytes = cryptoRandomBytes): VisitorIds {
  const salts = new Map<string, string>(); // day → salt as hex, the prefix of every hashed input
  // A day whose stored salt could not be had (the database away, a disk refusing the insert): a
  // salt of this process alone, so that the day's visitors are still told apart here, until the
  // stored one can be read (then a visitor may be counted once more that day).
  const stopgaps = new Map<string, { hex: string; retryAt: number }>();
  const dayOfClick = dayCache(); // clicks come in time order: the day is formatted once a day
  const kept = (day: string) => day >= oldestKeptDay(now()) && day <= dayOf(now()); // else deleted, or a clock gone wrong

  const known = (day: string, salt: Uint8Array) => {
    salts.set(day, Buffer.from(salt).toString("hex"));
    stopgaps.delete(day);
  };
  const failed = (day: string) => {
    stopgaps.set(day, { hex: stopgaps.get(day)?.hex ?? Buffer.from(random(32)).toString("hex"), retryAt: now() + SALT_RETRY_MS });
  };
  const load = (day: string): MaybePromise<void> => {
    if (now() < (stopgaps.get(day)?.retryAt ?? 0)) return;
    let salt: MaybePromise<Uint8Array>;
    try {
      salt = store.saltOf(day, random(32));
    } catch {
      return failed(day);
    }
    if (!(salt instanceof Promise)) return known(day, salt);
    return salt.then((s) => known(day, s), () => failed(day));
  };

  return {
    prepare(flat) {
      let waiting: Promise<void>[] | null = null;
      let last = "";
      for (let i = CLICK_TS; i < flat.length; i += CLICK_FIELDS) {
        const day = dayOfClick(flat[i] as number);
        if (day === last) continue;
        last = day;
        if (salts.has(day) || !kept(day)) continue;
        const loading = load(day);
        if (loading instanceof Promise) (waiting ??= []).push(loading);
      }
      return waiting === null ? undefined : Promise.all(waiting).then(() => undefined);
    },
    of(ts, linkId, address, userAgent) {
      const day = dayOfClick(ts);
      let salt = salts.get(day);
      if (salt === undefined) {
        if (!kept(day)) return null;
        // An engine that answers at once loads here; one that answers later was prepared, and
        // otherwise the stopgap serves this click while the salt is read.
        void load(day);
        salt = salts.get(day) ?? stopgaps.get(day)?.hex;
        if (salt === undefined) {
          failed(day);
          salt = stopgaps.get(day)!.hex;
        }
      }
      return visitorKey(salt, linkId, address, userAgent);
    },
    forgetOldDays(at) {
      const keepFrom = oldestKeptDay(at);
      return then(store.forgetBefore(keepFrom), (deleted) => {
        for (const map of [salts, stopgaps]) for (const day of map.keys()) if (day < keepFrom) map.delete(day);
        return deleted;
      });
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
