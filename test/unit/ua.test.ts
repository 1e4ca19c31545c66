import { describe, expect, test } from "bun:test";
import { classifyUserAgent, createClientClassifier, MAX_UA_LENGTH } from "../../src/visits/ua.ts";
import { BOTS, BROWSERS, LINK_PREVIEW_FETCHERS, REGRESSIONS } from "../fixtures/user-agents.ts";

describe("classifyUserAgent", () => {
  for (const { name, ua, expect: expected } of [...BROWSERS, ...BOTS]) {
    test(name, () => expect(classifyUserAgent(ua)).toEqual(expected));
  }

  for (const { name, ua } of LINK_PREVIEW_FETCHERS) {
    test(`link preview is a bot: ${name}`, () => expect(classifyUserAgent(ua).isBot).toBe(true));
  }

  describe("regressions", () => {
    for (const { name, ua, expect: expected } of REGRESSIONS) {
      // The fixed ReDoS payloads took seconds to forever in vulnerable versions: the test's own
      // bound catches one that hangs. No timing is asserted: the machine is shared, and a first
      // parse under load once took 110 ms.
      test(name, () => expect(classifyUserAgent(ua)).toEqual(expected), 10_000);
    }
  });

  test(`reads only the first ${MAX_UA_LENGTH} characters`, () => {
    const chrome = BROWSERS[0]!.ua!;
    const token = "Googlebot/2.1";
    const withTokenAt = (offset: number) => `${chrome}${" ".repeat(offset - chrome.length)}${token}`;
    expect(classifyUserAgent(withTokenAt(MAX_UA_LENGTH - token.length))).toEqual({ ...BROWSERS[0]!.expect, browser: "Googlebot", isBot: true });
    expect(classifyUserAgent(withTokenAt(MAX_UA_LENGTH))).toEqual(BROWSERS[0]!.expect);
  });
});

describe("createClientClassifier", () => {
  const chrome = BROWSERS[0]!.ua!;
  const firefox = BROWSERS[1]!.ua!;
  const safari = BROWSERS.find((c) => c.name === "Safari on iPhone")!.ua!;

  test("gives the same answers as classifyUserAgent", () => {
    const classify = createClientClassifier();
    for (const { ua } of [...BROWSERS, ...BOTS, ...REGRESSIONS]) {
      expect(classify(ua)).toEqual(classifyUserAgent(ua));
      expect(classify(ua)).toEqual(classifyUserAgent(ua)); // second call comes from the cache
    }
  });

  test("returns the cached, frozen object on a hit", () => {
    const classify = createClientClassifier();
    const first = classify(chrome);
    expect(classify(chrome)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  test("evicts the least recently used entry", () => {
    const classify = createClientClassifier(2);
    const a = classify(chrome);
    const b = classify(firefox);
    expect(classify(chrome)).toBe(a); // chrome is now the most recent
    classify(safari); // evicts firefox
    expect(classify(chrome)).toBe(a);
    const b2 = classify(firefox);
    expect(b2).not.toBe(b);
    expect(b2).toEqual(b);
  });

  test("keys by the trimmed UA, so huge variants share one entry", () => {
    const classify = createClientClassifier();
    const base = `${chrome} ${"x".repeat(MAX_UA_LENGTH)}`;
    expect(classify(`${base}1`)).toBe(classify(`${base}2`));
  });

  test("null and empty share the empty-UA answer", () => {
    const classify = createClientClassifier();
    expect(classify(null)).toEqual({ browser: "Unknown", os: "Unknown", device: "desktop", isBot: true });
    expect(classify("")).toBe(classify(null));
  });

  test("rejects a size that is not a positive integer", () => {
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => createClientClassifier(size)).toThrow(RangeError);
  });
});
