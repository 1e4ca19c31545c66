import { test, expect, describe } from "bun:test";
import { clientKey, createRateLimiter } from "../../src/http/rate-limit.ts";

const T0 = 1_700_000_000_000;

// Takes n tokens at time t and returns how many were allowed.
function takeN(limiter: ReturnType<typeof createRateLimiter>, address: string, n: number, t = T0): number {
  let allowed = 0;
  for (let i = 0; i < n; i++) if (limiter.take(address, t).allowed) allowed++;
  return allowed;
}

describe("createRateLimiter", () => {
  test.each([1, 5, 60, 1000])("%i per minute: that many allowed at once, then blocked", (perMinute) => {
    const rl = createRateLimiter(perMinute);
    expect(takeN(rl, "198.51.100.1", perMinute)).toBe(perMinute);
    const r = rl.take("198.51.100.1", T0);
    expect(r.allowed).toBe(false);
  });

  test.each([
    // [perMinute, ms elapsed after exhausting the bucket, expected Retry-After]
    [1, 0, 60],
    [1, 59_000, 1],
    [1, 59_001, 1], // 999 ms left rounds up to 1, never 0
    [1, 30_500, 30], // 29.5 s left -> 30
    [1, 30_600, 30], // 29.4 s left -> 30 (rounds up, not to nearest)
    [7, 0, 9], // 8.571 s per token -> 9
    [5, 0, 12],
    [60, 0, 1],
    [1000, 0, 1],
    [2, 1, 30], // 29.999 s left -> 30
  ] as const)("perMinute=%i, %i ms later -> Retry-After %i", (perMinute, elapsed, expected) => {
    const rl = createRateLimiter(perMinute);
    takeN(rl, "a", perMinute);
    const r = rl.take("a", T0 + elapsed);
    expect(r).toEqual({ allowed: false, retryAfterSeconds: expected });
    expect(Number.isInteger(expected)).toBe(true);
  });

  test("peek answers what take would, without taking", () => {
    const rl = createRateLimiter(2);
    expect(rl.peek("a", T0)).toEqual({ allowed: true }); // unknown: a full bucket
    for (let i = 0; i < 5; i++) expect(rl.peek("a", T0).allowed).toBe(true);
    expect(takeN(rl, "a", 2)).toBe(2); // peeking took nothing
    expect(rl.peek("a", T0)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(rl.take("a", T0)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(rl.peek("a", T0 + 30_000)).toEqual({ allowed: true }); // refilled by then
    expect(rl.peek("a", T0 + 29_999).allowed).toBe(false); // and peeking later did not move the bucket's time
    expect(rl.take("a", T0 + 30_000).allowed).toBe(true);
  });

  test("waiting exactly Retry-After seconds is enough", () => {
    const rl = createRateLimiter(7);
    takeN(rl, "a", 7);
    const r = rl.take("a", T0);
    if (r.allowed) throw new Error("expected block");
    expect(rl.take("a", T0 + r.retryAfterSeconds * 1000 - 1000).allowed).toBe(false);
    expect(rl.take("a", T0 + r.retryAfterSeconds * 1000).allowed).toBe(true);
  });

  test("refills continuously at perMinute per 60 s, capped at capacity", () => {
    const rl = createRateLimiter(6); // one token per 10 s
    expect(takeN(rl, "a", 6)).toBe(6);
    expect(rl.take("a", T0 + 9_999).allowed).toBe(false);
    expect(rl.take("a", T0 + 10_000).allowed).toBe(true);
    expect(rl.take("a", T0 + 10_000).allowed).toBe(false);
    expect(takeN(rl, "a", 3, T0 + 40_000)).toBe(3); // 30 s -> 3 tokens
    expect(rl.take("a", T0 + 40_000).allowed).toBe(false);
    // a long idle period does not bank more than one minute's worth
    expect(takeN(rl, "a", 10, T0 + 3_600_000)).toBe(6);
  });

  test("blocked attempts do not consume tokens", () => {
    const rl = createRateLimiter(1);
    rl.take("a", T0);
    for (let i = 0; i < 100; i++) expect(rl.take("a", T0 + i * 100).allowed).toBe(false);
    expect(rl.take("a", T0 + 60_000).allowed).toBe(true);
  });

  test("a clock stepping backwards neither refills nor breaks", () => {
    const rl = createRateLimiter(2);
    takeN(rl, "a", 2);
    expect(rl.take("a", T0 - 120_000).allowed).toBe(false);
    // refill is still measured from T0: the backwards step must not count as elapsed time
    expect(rl.take("a", T0 + 29_999).allowed).toBe(false);
    expect(rl.take("a", T0 + 30_000).allowed).toBe(true);
  });

  test("separate addresses are independent", () => {
    const rl = createRateLimiter(3);
    expect(takeN(rl, "198.51.100.1", 3)).toBe(3);
    expect(rl.take("198.51.100.1", T0).allowed).toBe(false);
    expect(takeN(rl, "198.51.100.2", 3)).toBe(3);
    expect(takeN(rl, "2001:db8:0:1::1", 3)).toBe(3);
    expect(takeN(rl, "2001:db8:0:2::1", 3)).toBe(3);
    expect(rl.size).toBe(4);
  });

  test("IPv6 addresses in the same /64 share one bucket", () => {
    const rl = createRateLimiter(4);
    const sameHousehold = ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:DB8:1:2:abcd::9", "2001:db8:1:2::1"];
    for (const a of sameHousehold) expect(rl.take(a, T0).allowed).toBe(true);
    expect(rl.take("2001:db8:1:2:1234::5", T0).allowed).toBe(false);
    expect(rl.take("2001:db8:1:3::1", T0).allowed).toBe(true); // neighbouring /64
    expect(rl.size).toBe(2);
  });

  test("IPv4 is keyed by full address and mapped IPv6 counts as its IPv4", () => {
    const rl = createRateLimiter(1);
    expect(rl.take("198.51.100.1", T0).allowed).toBe(true);
    expect(rl.take("::ffff:198.51.100.1", T0).allowed).toBe(false);
    expect(rl.take("198.51.100.0", T0).allowed).toBe(true);
  });

  test.each([
    ["198.51.100.1", "198.51.100.1"],
    ["::ffff:198.51.100.1", "198.51.100.1"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002::", "2001:db8:1:2::/64"],
    ["::1", "0:0:0:0::/64"],
    ["unix:/run/x.sock", "unix:/run/x.sock"],
  ])("clientKey(%p) = %p", (address, key) => {
    expect(clientKey(address)).toBe(key);
  });

  test("perMinute = 0 means no limit and keeps no state", () => {
    const rl = createRateLimiter(0);
    expect(takeN(rl, "198.51.100.1", 10_000)).toBe(10_000);
    expect(rl.size).toBe(0);
  });

  test("memory bound holds with 50,000 distinct addresses", () => {
    const rl = createRateLimiter(5);
    for (let i = 0; i < 50_000; i++) {
      const a = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      expect(rl.take(a, T0 + i).allowed).toBe(true);
      if (rl.size > 10_000) throw new Error(`size ${rl.size} after ${i + 1} addresses`);
    }
    expect(rl.size).toBe(10_000);
  });

  test("custom bound; eviction drops the least recently used address", () => {
    const rl = createRateLimiter(1, 3);
    rl.take("1.1.1.1", T0);
    rl.take("2.2.2.2", T0);
    rl.take("3.3.3.3", T0);
    expect(rl.take("1.1.1.1", T0).allowed).toBe(false); // touches 1.1.1.1: now most recent
    rl.take("4.4.4.4", T0); // evicts 2.2.2.2, the least recently used
    expect(rl.size).toBe(3);
    expect(rl.take("1.1.1.1", T0).allowed).toBe(false); // still remembered
    expect(rl.take("3.3.3.3", T0).allowed).toBe(false); // still remembered
    expect(rl.take("2.2.2.2", T0).allowed).toBe(true); // forgotten, so a fresh bucket
    expect(rl.size).toBe(3);
  });

  test.each([
    [-1, undefined],
    [1.5, undefined],
    [Number.NaN, undefined],
    [10, 0],
    [10, -5],
  ])("rejects bad configuration perMinute=%p maxAddresses=%p", (perMinute, max) => {
    expect(() => createRateLimiter(perMinute, max)).toThrow("rate limit: bad");
  });
});

test("ten failures a minute, then refused until a token is back (the failed-attempt limit's setting)", () => {
  const limiter = createRateLimiter(10);
  const t0 = 1_000_000;
  for (let i = 0; i < 10; i++) expect(limiter.take("192.0.2.1", t0).allowed).toBe(true);
  expect(limiter.take("192.0.2.1", t0)).toEqual({ allowed: false, retryAfterSeconds: 6 });
  expect(limiter.take("192.0.2.2", t0)).toEqual({ allowed: true }); // another address
  expect(limiter.take("192.0.2.1", t0 + 6_000)).toEqual({ allowed: true });
});
