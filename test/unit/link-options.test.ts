// Expiry, click limit and tags as a create or PATCH gives them, and the status rule at its boundaries.

import { describe, expect, test } from "bun:test";
import { parseExpiresAt, parseMaxClicks, parseTags } from "../../src/links/options.ts";
import { linkStatus } from "../../src/links/link.ts";

const NOW = Date.parse("2026-11-23T12:00:00.000Z");

describe("expires_at", () => {
  test.each([
    ["2026-11-23T12:00:00.001Z", NOW + 1],
    ["2026-11-23T13:00:00+01:00", NOW + 0], // the same instant as NOW: not in the future
    ["2026-11-23", Date.parse("2026-11-24T00:00:00.000Z")], // a day means the end of that UTC day
    ["2027-02-28", Date.parse("2027-03-01T00:00:00.000Z")],
    ["2026-12-01T08:30Z", Date.parse("2026-12-01T08:30:00.000Z")],
    ["  2026-12-01T08:30:00.5-05:00 ", Date.parse("2026-12-01T13:30:00.500Z")],
  ])("%p", (raw, at) => {
    const parsed = parseExpiresAt(raw, NOW);
    if (at > NOW) expect(parsed).toEqual({ ok: true, value: at });
    else expect(parsed).toMatchObject({ ok: false, problem: "expires_past" });
  });

  test("the boundary: one ms after now is accepted, now itself is past (injected clock)", () => {
    expect(parseExpiresAt(new Date(NOW + 1).toISOString(), NOW)).toEqual({ ok: true, value: NOW + 1 });
    expect(parseExpiresAt(new Date(NOW).toISOString(), NOW)).toMatchObject({ ok: false, problem: "expires_past" });
    expect(parseExpiresAt("2026-11-22", NOW)).toMatchObject({ ok: false, problem: "expires_past" });
  });

  test.each(["2026-11-30T10:00", "2026-02-30", "2027-02-30T10:00Z", "2027-04-31T00:00:00+02:00", "2027-13-01T00:00Z", "tomorrow", "2026-13-01", "1700000000000", "", "2026-11-30 10:00Z"])("%p is invalid", (raw) => {
    expect(parseExpiresAt(raw, NOW)).toMatchObject({ ok: false, problem: "expires_invalid" });
  });

  test("a number is not accepted (ambiguous: seconds or ms?)", () => {
    expect(parseExpiresAt(1_900_000_000_000, NOW)).toMatchObject({ ok: false, problem: "expires_invalid" });
  });
});

describe("max_clicks", () => {
  test.each([[1, 1], ["10", 10], [" 7 ", 7], [1_000_000_000, 1_000_000_000]])("%p → %p", (raw, n) => {
    expect(parseMaxClicks(raw)).toEqual({ ok: true, value: n });
  });
  test.each([0, -1, 1.5, "1.5", "ten", "", 1_000_000_001, null, true, "1e3"])("%p is invalid", (raw) => {
    expect(parseMaxClicks(raw)).toMatchObject({ ok: false, problem: "max_clicks_invalid" });
  });
});

describe("tags", () => {
  test("comma-separated text and JSON arrays; trimmed, duplicates dropped, order kept", () => {
    expect(parseTags("work, docs,,work ")).toEqual({ ok: true, value: ["work", "docs"] });
    expect(parseTags(["a-1", "B_2"])).toEqual({ ok: true, value: ["a-1", "B_2"] });
    expect(parseTags("")).toEqual({ ok: true, value: [] });
  });
  test.each([["has space"], ["x".repeat(31)], ["ü"], [[1]], [["a,b"]], [Array.from({ length: 11 }, (_, i) => `t${i}`)], [{ a: 1 }]])("%p is invalid", (raw) => {
    expect(parseTags(raw)).toMatchObject({ ok: false, problem: "tags_invalid" });
  });
  test("exactly 10 tags are fine", () => {
    expect(parseTags(Array.from({ length: 10 }, (_, i) => `t${i}`).join(","))).toMatchObject({ ok: true });
  });
});

describe("status", () => {
  const base = { disabled: false, blocked: false, expiresAt: null, maxClicks: null, clicks: 0 };
  test("expired from the instant expiresAt is reached (injected clock)", () => {
    expect(linkStatus({ ...base, expiresAt: NOW }, NOW - 1)).toBe("active");
    expect(linkStatus({ ...base, expiresAt: NOW }, NOW)).toBe("expired");
  });
  test("expired once maxClicks clicks were answered", () => {
    expect(linkStatus({ ...base, maxClicks: 3, clicks: 2 }, NOW)).toBe("active");
    expect(linkStatus({ ...base, maxClicks: 3, clicks: 3 }, NOW)).toBe("expired");
  });
  test("blocked outranks disabled outranks expired", () => {
    expect(linkStatus({ ...base, blocked: true, disabled: true, expiresAt: NOW }, NOW)).toBe("blocked");
    expect(linkStatus({ ...base, disabled: true, expiresAt: NOW }, NOW)).toBe("disabled");
  });
});
