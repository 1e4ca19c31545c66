// Alias rules, reserved words, id generation and URL rules.

import { describe, expect, test } from "bun:test";
import { aliasProblem, isReserved, looksLikeId } from "../../src/links/alias.ts";
import { generateId, ID_ALPHABET, ID_LENGTH } from "../../src/links/id.ts";
import { checkUrl } from "../../src/links/url-rules.ts";
import { LANGUAGES } from "../../src/lang.ts";

describe("aliases", () => {
  test.each([
    ["abc", null],
    ["A-b_9", null],
    ["x".repeat(30), null],
    ["ab", "alias_invalid"],
    ["x".repeat(31), "alias_invalid"],
    ["has space", "alias_invalid"],
    ["dot.ted", "alias_invalid"],
    ["ümlaut", "alias_invalid"],
    ["api", "alias_reserved"],
    ["Api", "alias_reserved"],
    ["favicon", "alias_reserved"],
    ["health", "alias_reserved"],
    ["assets", "alias_reserved"],
  ])("%p → %p", (alias, problem) => {
    expect(aliasProblem(alias)).toBe(problem as never);
  });

  test("every UI language code and service path is reserved", () => {
    for (const lang of LANGUAGES) expect(isReserved(lang)).toBe(true);
    for (const word of ["api", "stats", "health", "favicon.ico", "robots.txt", "assets"]) expect(isReserved(word)).toBe(true);
  });

  test("looksLikeId filters junk before any lookup", () => {
    expect(looksLikeId("Ab3xY9z")).toBe(true);
    expect(looksLikeId("..")).toBe(false);
    expect(looksLikeId("a".repeat(64))).toBe(true); // an imported code may be as long (src/imports/plan.ts)
    expect(looksLikeId("a".repeat(65))).toBe(false);
    expect(looksLikeId("")).toBe(false);
    expect(looksLikeId("a%2Fb")).toBe(false);
  });
});

describe("generated ids", () => {
  test("7 characters of the documented alphabet, all symbols reachable", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const id = generateId();
      expect(id).toHaveLength(ID_LENGTH);
      for (const ch of id) seen.add(ch);
      expect([...id].every((ch) => ID_ALPHABET.includes(ch))).toBe(true);
    }
    expect(seen.size).toBe(ID_ALPHABET.length);
  });

  test("no look-alike characters", () => {
    for (const ch of "0O1lIo") expect(ID_ALPHABET).not.toContain(ch);
  });

  test("bytes past the unbiased range are skipped, not folded", () => {
    // 56 symbols: bytes >= 224 would favour the first 32 symbols; they must be rejected.
    expect(ID_ALPHABET).toHaveLength(56);
    const bytes = [255, 254, 224, 0, 1, 2, 3, 4, 5, 6];
    let calls = 0;
    const id = generateId((n) => {
      calls++;
      return Uint8Array.from({ length: n }, (_, i) => bytes[i] ?? 7);
    });
    expect(calls).toBe(1);
    expect(id).toBe(ID_ALPHABET.slice(0, 7));
  });

  test("random: 10,000 ids without a repeat", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => generateId()));
    expect(ids.size).toBe(10_000);
  });
});

describe("URL rules", () => {
  const own = { ownHosts: ["short.example:8080"], allowLocal: false };
  test.each([
    // stored in the WHATWG parser's form: what browsers and curl both follow
    ["https://example.com", true, "https://example.com/"],
    ["  http://example.com/x  ", true, "http://example.com/x"],
    ["HTTPS://EXAMPLE.com", true, "https://example.com/"],
    ["https://例え.jp/パス", true, "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9"],
    ["http://example.com:80/a/../b?q=1#f", true, "http://example.com/b?q=1#f"],
    ["https://[2001:db8::1]:8443/x", true, "https://[2001:db8::1]:8443/x"],
    ["", false, "url_missing"],
    ["example.com", false, "url_scheme"],
    ["mailto:a@b.c", false, "url_scheme"],
    ["https:example.com", false, "url_scheme"],
    ["https://", false, "url_invalid"],
    ["https:///x", false, "url_invalid"],
    ["https://a b.com", false, "url_invalid"],
    ["https://example.com/\ttab", false, "url_invalid"],
    ["https://example.com/\u0000", false, "url_invalid"],
    ["https://u@example.com", false, "url_credentials"],
    ["https://u:p@example.com", false, "url_credentials"],
    ["http://SHORT.example:8080/abc", false, "url_self"],
    ["https://" + "a".repeat(2049), false, "url_too_long"],
  ])("%p", (raw, ok, expected) => {
    const r = checkUrl(raw, own);
    expect(r.ok).toBe(ok);
    expect(r.ok ? r.url : r.problem).toBe(expected);
  });

  test("the same host on another port is not this service", () => {
    expect(checkUrl("http://short.example:9090/", own).ok).toBe(true);
  });
});
