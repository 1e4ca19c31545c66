// Per-client limiter for link creation.
//
// Algorithm: token bucket, capacity = perMinute, refilled continuously at
// perMinute tokens per 60 s. It allows a burst up to the minute's quota and then
// a steady rate, and needs only two numbers per client. Tokens are kept in
// integer "token-milliseconds" (1 token = 60_000 units, refill = perMinute units
// per ms) so the arithmetic is exact and Retry-After never drifts by a rounding.
//
// Memory: a Map in least-recently-used order (touched keys are re-inserted at
// the end); beyond maxAddresses the oldest entries are dropped. An evicted client
// just starts again with a full bucket.
import { ipv6Groups, normalizeAddress } from "../visits/client-ip.ts";

export type RateLimiter = {
  /** Takes one token for this address at time nowMs; returns {allowed:true} or {allowed:false, retryAfterSeconds} (integer >= 1). */
  take(address: string, nowMs: number): Verdict;
  /** What take would answer now, without taking a token. */
  peek(address: string, nowMs: number): Verdict;
  /** Gives back a token taken for an attempt that turned out not to count (a right password). */
  refund(address: string): void;
  readonly size: number;
};

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const UNIT = 60_000; // units per token; refill is perMinute units per millisecond

type Bucket = { units: number; atMs: number };

/** A token-bucket limiter of perMinute takes per client (0 = unlimited), remembering at most maxAddresses clients. */
export function createRateLimiter(perMinute: number, maxAddresses = 10_000): RateLimiter {
  if (!Number.isSafeInteger(perMinute) || perMinute < 0) throw new Error(`rate limit: bad perMinute: ${perMinute}`);
  if (!Number.isSafeInteger(maxAddresses) || maxAddresses < 1) throw new Error(`rate limit: bad maxAddresses: ${maxAddresses}`);
  const capacity = perMinute * UNIT;
  const buckets = new Map<string, Bucket>();

  return {
    get size() {
      return buckets.size;
    },
    take(address, nowMs) {
      if (perMinute === 0) return { allowed: true };
      const key = clientKey(address);
      const b = refill(buckets.get(key), nowMs);
      buckets.delete(key); // re-inserted below, which marks it most recently used
      buckets.set(key, b);
      while (buckets.size > maxAddresses) buckets.delete(buckets.keys().next().value!);
      if (b.units >= UNIT) {
        b.units -= UNIT;
        return { allowed: true };
      }
      return refused(b);
    },
    refund(address) {
      const b = buckets.get(clientKey(address));
      if (b !== undefined) b.units = Math.min(capacity, b.units + UNIT);
    },
    peek(address, nowMs) {
      if (perMinute === 0) return { allowed: true };
      const b = buckets.get(clientKey(address));
      if (b === undefined) return { allowed: true };
      // The refill on a copy: peeking neither mints tokens nor moves the bucket's time.
      const now = refill({ ...b }, nowMs);
      return now.units >= UNIT ? { allowed: true } : refused(now);
    },
  };

  /** The bucket as it stands at nowMs (a new full one for an unknown client). */
  function refill(bucket: Bucket | undefined, nowMs: number): Bucket {
    const b = bucket ?? { units: capacity, atMs: nowMs };
    // A clock that steps backwards must not mint or burn tokens.
    const elapsed = Math.max(0, Math.floor(nowMs - b.atMs));
    b.units = Math.min(capacity, b.units + elapsed * perMinute);
    b.atMs = Math.max(b.atMs, nowMs);
    return b;
  }

  function refused(b: Bucket): Verdict {
    const waitMs = Math.ceil((UNIT - b.units) / perMinute);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
}

/** The bucket key: the full IPv4 address, but the /64 for IPv6 because one subscriber gets a whole /64. */
export function clientKey(address: string): string {
  const a = normalizeAddress(address);
  if (a === null) return address; // not an IP (e.g. unix socket): still limit it as one client
  const g = ipv6Groups(a);
  if (g === null) return a;
  return `${g.slice(0, 4).map((x) => x.toString(16)).join(":")}::/64`;
}
