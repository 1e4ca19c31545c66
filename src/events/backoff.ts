// When a failed delivery is tried again (docs/webhooks.md: Webhooks, "Delivery."): soon at first, so that a
// receiver's restart costs seconds, then further apart, for 24 hours from the first attempt.

/** After the 1st, 2nd, … failed attempt; the last gap repeats until the day is over. */
export const RETRY_GAPS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000];
export const RETRY_FOR_MS = 24 * 3_600_000;
/** Retry-After is honoured up to this (a receiver asking for days is asking to be given up on). */
const MAX_RETRY_AFTER_MS = 6 * 3_600_000;
/** …and from this on: "Retry-After: 0" (or a date past) must not make a loop of sends. */
const MIN_RETRY_AFTER_MS = 1_000;

/**
 * When to try again after `attempts` failed attempts, the first at `firstAt`; null when the 24 hours
 * are over. `jitter` in [0, 1): ±20 % of the gap, so that endpoints failing together do not retry
 * together. `retryAfterMs`: the receiver's Retry-After, which replaces the gap.
 */
export function nextAttempt(attempts: number, firstAt: number, now: number, jitter: number, retryAfterMs: number | null): number | null {
  const gap = retryAfterMs !== null ? Math.min(Math.max(retryAfterMs, MIN_RETRY_AFTER_MS), MAX_RETRY_AFTER_MS) : RETRY_GAPS_MS[Math.min(attempts, RETRY_GAPS_MS.length) - 1]! * (0.8 + 0.4 * jitter);
  const end = firstAt + RETRY_FOR_MS;
  if (now >= end) return null;
  // The last try lands on the day's end rather than past it.
  return Math.min(now + Math.round(gap), end);
}

/** Retry-After as seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
