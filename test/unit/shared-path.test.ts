// A share link's token is a credential: request paths are logged without it (src/http/shared-path.ts),
// and a label is checked as the API says (src/stats/shares.ts).
import { expect, test } from "bun:test";
import { loggablePath } from "../../src/http/shared-path.ts";
import { parseShareLabel, shareOpen } from "../../src/stats/shares.ts";

test("the token is cut from the page's, a language's and the API's paths; other paths are kept", () => {
  const token = "q7ZkF0pA3c9x_-Yb2mWnE1s8tLrVuHjGdKiOoPyQzXw";
  expect(loggablePath(`/stats/shared/${token}`)).toBe("/stats/shared/…");
  expect(loggablePath(`/de/stats/shared/${token}`)).toBe("/de/stats/shared/…");
  expect(loggablePath(`/api/stats/shared/${token}`)).toBe("/api/stats/shared/…");
  expect(loggablePath("/api/stats")).toBe("/api/stats");
  expect(loggablePath("/stats/shared")).toBe("/stats/shared");
});

test("a label: none, trimmed, at most 100 characters (not UTF-16 units), no control characters", () => {
  expect(parseShareLabel(undefined)).toEqual({ ok: true, value: "" });
  expect(parseShareLabel(null)).toEqual({ ok: true, value: "" });
  expect(parseShareLabel("  the board ")).toEqual({ ok: true, value: "the board" });
  expect(parseShareLabel("😀".repeat(100)).ok).toBe(true);
  expect(parseShareLabel("x".repeat(101)).ok).toBe(false);
  expect(parseShareLabel("a\u001bb").ok).toBe(false);
  expect(parseShareLabel(42).ok).toBe(false);
});

test("a share opens until its expiry, not at it; without one, always", () => {
  expect(shareOpen({ expiresAt: null }, Number.MAX_SAFE_INTEGER)).toBe(true);
  expect(shareOpen({ expiresAt: 1000 }, 999)).toBe(true);
  expect(shareOpen({ expiresAt: 1000 }, 1000)).toBe(false);
});
