import { describe, expect, test } from "bun:test";
import { isIP } from "node:net";
import { formatIPv4, parseIPv4, rangeIndex } from "../../src/visits/ipv4.ts";
import { seededRandom } from "../support/seeded-random.ts";

const random = seededRandom;

const EDGES = [
  "1.2.3.04", "256.1.1.1", " 1.2.3.4", "1.2.3.4 ", "1.2.3.4.", ".1.2.3.4", "", "0.0.0.0", "255.255.255.255", "255.255.255.256",
  "1.2.3", "1.2.3.4.5", "1..2.3", "01.1.1.1", "1.2.3.00", "1.2.3.0", "10.0.0.1", "+1.2.3.4", "1.2.3.-1", "1.2.3.4\n", "\t1.2.3.4",
  "١.2.3.4", "１.2.3.4", "1.2.3.4%eth0", "::1", "::ffff:1.2.3.4", "1.2.3.4:80", "0x1.2.3.4", "1e1.2.3.4", "999.1.1.1", "1000.1.1.1",
  "100.200.250.199", "249.250.251.252", "1.2.3.4/32", "a.b.c.d", "1.2.3.4\u0000", "000.0.0.0", "0.0.0.00", "1.02.3.4",
];

// Text that is close to an IPv4 address: the shapes the parser must reject, as well as real ones.
function nearAddress(next: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const octet = () => pick([String(Math.floor(next() * 256)), String(Math.floor(next() * 1000)), "0" + Math.floor(next() * 100), "", "00", "-1", " 1", "1 ", "٣"]);
  const count = pick([3, 4, 4, 4, 4, 5]);
  const parts = Array.from({ length: count }, () => (next() < 0.8 ? String(Math.floor(next() * 256)) : octet()));
  const text = parts.join(pick([".", ".", ".", ".", ",", ":"]));
  const roll = next();
  if (roll < 0.05) return " " + text;
  if (roll < 0.1) return text + pick([".", " ", "\n", "%1", ":80", "/24"]);
  if (roll < 0.15) return Array.from({ length: Math.floor(next() * 17) }, () => pick([..."0123456789.", " ", "x", ":"])).join("");
  return text;
}

describe("parseIPv4", () => {
  test("agrees with node's isIP on the edge cases, and reads the right number", () => {
    for (const text of EDGES) {
      expect({ text, v4: parseIPv4(text) >= 0 }).toEqual({ text, v4: isIP(text) === 4 });
    }
    expect(parseIPv4("0.0.0.0")).toBe(0);
    expect(parseIPv4("255.255.255.255")).toBe(2 ** 32 - 1);
    expect(parseIPv4("1.2.3.4")).toBe(0x01020304);
    expect(parseIPv4("193.0.6.139")).toBe(193 * 2 ** 24 + 6 * 256 + 139);
  });

  test("agrees with isIP on 300,000 generated inputs, and a valid one reads back as itself", () => {
    const next = random(36);
    let valid = 0;
    for (let i = 0; i < 300_000; i++) {
      const text = nearAddress(next);
      const n = parseIPv4(text);
      if ((n >= 0) !== (isIP(text) === 4)) throw new Error(`parseIPv4(${JSON.stringify(text)}) = ${n}, isIP = ${isIP(text)}`);
      if (n >= 0) {
        valid++;
        if (formatIPv4(n) !== text) throw new Error(`${text} read as ${formatIPv4(n)}`);
      }
    }
    expect(valid).toBeGreaterThan(40_000); // the valid shapes were exercised too, not only rejections
  });
});

describe("rangeIndex", () => {
  test("finds the last range starting at or before an address", () => {
    const starts = Uint32Array.from([0, 10, 20, 2 ** 32 - 1]);
    expect([0, 9, 10, 11, 19, 20, 2 ** 32 - 2, 2 ** 32 - 1].map((n) => rangeIndex(starts, n))).toEqual([0, 0, 1, 1, 1, 2, 2, 3]);
    expect(rangeIndex(Uint32Array.from([0]), 12345)).toBe(0);
  });
});
