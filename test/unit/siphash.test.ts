// SipHash-2-4 against the reference implementation's test vectors (vectors.h of
// https://github.com/veorq/SipHash: key 00 01 .. 0f, message 00 01 .. (n-1), the 64-bit results
// below as little-endian bytes), and the string form against the bytes form.

import { expect, test } from "bun:test";
import { sipHash52, sipKey } from "../../src/util/siphash.ts";
import { sipHashBytes } from "../support/siphash-reference.ts";

// vectors_sip64[n] for n = 0..15 and 63, from the reference implementation.
const VECTORS: Record<number, string> = {
  0: "310e0edd47db6f72", 1: "fd67dc93c539f874", 2: "5a4fa9d909806c0d", 3: "2d7efbd796666785",
  4: "b7877127e09427cf", 5: "8da699cd64557618", 6: "cee3fe586e46c9cb", 7: "37d1018bf50002ab",
  8: "6224939a79f5f593", 9: "b0e4a90bdf82009e", 10: "f3b9dd94c5bb5d7a", 11: "a7ad6b22462fb3f4",
  12: "fbe50e86bc8f1e75", 13: "903d84c02756ea14", 14: "eef27a8e90ca23f7", 15: "e545be4961ca29a1",
  63: "724506eb4c328a95",
};
const KEY = sipKey(Uint8Array.from({ length: 16 }, (_, i) => i));

test.each(Object.entries(VECTORS))("the reference vector for a message of %s bytes", (length, expected) => {
  const [hi, lo] = sipHashBytes(KEY, Uint8Array.from({ length: Number(length) }, (_, i) => i));
  const bytes = Buffer.alloc(8);
  bytes.writeUInt32LE(lo, 0);
  bytes.writeUInt32LE(hi, 4);
  expect(bytes.toString("hex")).toBe(expected);
});

test("a Latin-1 string's hash is the bytes hash of its Latin-1 bytes, any other's of its UTF-16LE bytes, kept to 52 bits", () => {
  const key = sipKey(crypto.getRandomValues(new Uint8Array(16)));
  const latin1 = ["", "a", "ab", "abc", "abcd", "abcde", "abcdefg", "abcdefgh", "abcdefghi", "link\u00001.2.3.4\u0000Mozilla/5.0", "\u00ff\u0080\u00e9t\u00e9", "x".repeat(257)];
  for (const text of latin1) {
    const [hi, lo] = sipHashBytes(key, new Uint8Array(Buffer.from(text, "latin1")));
    expect(sipHash52(key, text)).toBe((hi & 0xfffff) * 2 ** 32 + lo);
  }
  // One character past Latin-1 anywhere (first word, a later word, the last partial word) reads the whole text as UTF-16.
  for (const text of ["€", "ü€😀 mixed", "abcdefgh\u0100", "abcdefghijklmnop\u2028q", "x".repeat(30) + "😀"]) {
    const [hi, lo] = sipHashBytes(key, new Uint8Array(Buffer.from(text, "utf16le")));
    expect(sipHash52(key, text)).toBe((hi & 0xfffff) * 2 ** 32 + lo);
  }
});

test("different keys and inputs give different values, all below 2^52", () => {
  const a = sipKey(new Uint8Array(16).fill(1));
  const b = sipKey(new Uint8Array(16).fill(2));
  const seen = new Set<number>();
  for (let i = 0; i < 10_000; i++) {
    const value = sipHash52(i % 2 ? a : b, `link\u0000203.0.113.${i >> 1}`);
    expect(value).toBeLessThan(2 ** 52);
    seen.add(value);
  }
  expect(seen.size).toBe(10_000);
});
