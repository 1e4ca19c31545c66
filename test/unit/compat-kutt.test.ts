// The Kutt surface's pure parts: ids made from a link's seq, and expire_in read as Kutt reads it
// (github.com/thedevs-network/kutt server/handlers/validators.handler.js: the `ms` package, at
// least one minute; its messages).

import { expect, test } from "bun:test";
import { kuttId, seqOfKuttId } from "../../src/http/compat/kutt-id.ts";
import { expiryOf, inKuttWords, kuttBoolean, withProtocol } from "../../src/http/compat/kutt-json.ts";

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

test("an id is a version-8 UUID of the seq, and only such an id names a seq", () => {
  expect(kuttId(1)).toBe("00000000-0000-8000-8000-000000000001");
  expect(kuttId(0xabcdef)).toBe("00000000-0000-8000-8000-000000abcdef");
  for (const seq of [1, 255, 4096, 2 ** 40 + 7]) expect(seqOfKuttId(kuttId(seq))).toBe(seq);
  for (const other of ["00000000-0000-8000-8000-000000000000", "00000000-0000-8000-8000-00000000000g", "123e4567-e89b-12d3-a456-426614174000", "00000000-0000-8000-8000-0000000000001", "", "1"]) {
    expect(seqOfKuttId(other)).toBeNull();
  }
});

test("expire_in: ms's durations, from now", () => {
  const cases: [string, number][] = [
    ["1m", 60_000], ["8h", 8 * 3_600_000], ["42 days", 42 * 86_400_000], ["2 minutes", 120_000], ["1.5h", 5_400_000],
    ["2 Weeks", 14 * 86_400_000], ["1y", 31_557_600_000], ["90 secs", 90_000], ["60000", 60_000], [" 3 hrs ", 3 * 3_600_000], [".5d", 43_200_000],
  ];
  for (const [text, span] of cases) expect(expiryOf(text, NOW)).toEqual({ ok: true, at: NOW + span });
});

test("expire_in: what ms cannot read, and less than a minute, are Kutt's messages", () => {
  for (const bad of ["soon", "1 month", "1e5", "-", "", "2 minutes ago", "x".repeat(101), 5, null]) {
    expect(expiryOf(bad, NOW)).toEqual({ ok: false, error: "Expire format is invalid. Valid examples: 1m, 8h, 42 days." });
  }
  for (const short of ["59s", "59999", "-5m"]) expect(expiryOf(short, NOW)).toEqual({ ok: false, error: "Expire time should be more than 1 minute." });
  // Past the years ISO 8601 writes with four digits: no date.
  expect(expiryOf("9000y", NOW).ok).toBe(false);
});

test("Kutt's target, booleans and field names", () => {
  expect(withProtocol("example.com/a")).toBe("http://example.com/a");
  expect(withProtocol("https://example.com/a")).toBe("https://example.com/a");
  expect(withProtocol("//example.com/a")).toBe("//example.com/a");
  expect(withProtocol(42)).toBe(42);
  expect([true, "true", "1", false, "false", "0", "yes"].map(kuttBoolean)).toEqual([true, true, true, false, false, false, null]);
  expect(inKuttWords("custom_url \"x\" is already taken; url is required; title too long")).toBe("customurl \"x\" is already taken; target is required; description too long");
});
