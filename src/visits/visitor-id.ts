// Unique visitors without storing anyone (the way Plausible counts them): a visitor of a link on a
// UTC day is a keyed hash of (link, client address, User-Agent) under that day's random salt:
// SipHash-2-4 (src/util/siphash.ts), a pseudo-random function made for short inputs, keyed with the
// salt, over the link's seq (its decimal text), the address and a digest of the User-Agent (SHA-256, worked out once per
// distinct User-Agent). 52 bits are kept as a number (the chance that two of a million visitors of
// one day share a key is 1e-4).
// The salt lives in the database only while its day lasts and an hour after (so a restart does not
// count the day's visitors again, and a click from just before midnight still finds its day), then
// it is deleted together with every key made with it. Without the salt a key says nothing.
// Every process (every instance, with PostgreSQL) uses the day's one stored salt (SaltStore).

import { cryptoRandomBytes, type RandomBytes } from "../util/random.ts";
import { sipHash52, sipKey, type SipKey } from "../util/siphash.ts";
import { dayOf } from "../util/day.ts";
import { then, type MaybePromise } from "../util/maybe.ts";
import { dayCache } from "./rollup.ts";

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
  /** Reads the salts of the days of these click times that are not known yet. */
  prepare(times: Iterable<number>): MaybePromise<void>;
  /** The visitor key of a click (`agent`: userAgentDigest of its User-Agent), or null when its day's salt is gone (a click from long ago). */
  of(ts: number, linkSeq: number, address: string, agent: string): number | null;
  /** Deletes the salts of days over for more than GRACE_MS (as seen at `now`); returns how many. */
  forgetOldDays(now: number): MaybePromise<number>;
};

export function createVisitorIds(store: SaltStore, now: () => number, random: RandomBytes = cryptoRandomBytes): VisitorIds {
  const salts = new Map<string, SipKey>(); // day → the hash key made from its salt
  // A day whose stored salt could not be had (the database away, a disk refusing the insert): a
  // salt of this process alone, so that the day's visitors are still told apart here, until the
  // stored one can be read (then a visitor may be counted once more that day).
  const stopgaps = new Map<string, { key: SipKey; retryAt: number }>();
  const dayOfClick = dayCache(); // clicks come in time order: the day is formatted once a day
  const kept = (day: string) => day >= oldestKeptDay(now()) && day <= dayOf(now()); // else deleted, or a clock gone wrong

  const known = (day: string, salt: Uint8Array) => {
    salts.set(day, sipKey(salt));
    stopgaps.delete(day);
  };
  const failed = (day: string) => {
    stopgaps.set(day, { key: stopgaps.get(day)?.key ?? sipKey(random(16)), retryAt: now() + SALT_RETRY_MS });
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
    prepare(times) {
      let waiting: Promise<void>[] | null = null;
      let last = "";
      for (const ts of times) {
        const day = dayOfClick(ts);
        if (day === last) continue;
        last = day;
        if (salts.has(day) || !kept(day)) continue;
        const loading = load(day);
        if (loading instanceof Promise) (waiting ??= []).push(loading);
      }
      return waiting === null ? undefined : Promise.all(waiting).then(() => undefined);
    },
    of(ts, linkSeq, address, agent) {
      const day = dayOfClick(ts);
      let key = salts.get(day);
      if (key === undefined) {
        if (!kept(day)) return null;
        // An engine that answers at once loads here; one that answers later was prepared, and
        // otherwise the stopgap serves this click while the salt is read.
        void load(day);
        key = salts.get(day) ?? stopgaps.get(day)?.key;
        if (key === undefined) {
          failed(day);
          key = stopgaps.get(day)!.key;
        }
      }
      return visitorKey(key, linkSeq, address, agent);
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

/**
 * The key of a visitor under a day's hash key: 52 bits of SipHash over the link's seq, the address
 * and the agent's digest. The seq, not the alias, since a link is its seq (docs/clicks.md: Unique visitors).
 */
export function visitorKey(key: SipKey, linkSeq: number, address: string, agent: string): number {
  // NUL-separated, and the digest of a fixed length: no two different triples give the same input.
  return sipHash52(key, `${linkSeq}\u0000${address}\u0000${agent}`);
}

/** A User-Agent as the visitor key takes it: 64 bits of its SHA-256 as eight Latin-1 characters (worked out once per distinct agent). */
export function userAgentDigest(userAgent: string | null): string {
  const d = Bun.CryptoHasher.hash("sha256", userAgent ?? "") as Uint8Array;
  return String.fromCharCode(d[0]!, d[1]!, d[2]!, d[3]!, d[4]!, d[5]!, d[6]!, d[7]!);
}
