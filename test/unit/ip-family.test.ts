// ipFamily replaced node:net's isIP in the service's threads (docs/performance.md: At rest): it must
// answer as isIP does for every input, so isIP is the reference here, on edge cases picked by hand
// and on generated text close to an address (every group count, "::" anywhere, dotted quads, zone
// ids, junk characters).
import { describe, expect, test } from "bun:test";
import { isIP } from "node:net";
import { ipFamily } from "../../src/visits/ip-family.ts";
import { seededRandom } from "../support/seeded-random.ts";

const random = seededRandom;

const EDGES = [
  "", ":", "::", ":::", "::::", "1::2::3", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "::ffff:1.2.3.4",
  "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4", "1:2:3:4:5::1.2.3.4", "1:2:3:4:5:6::1.2.3.4", "::1.2.3.04", "::1.2.3.4",
  "::256.1.1.1", "::1.2.3", "::1.2.3.4.5", "::1.2.3.4:5", "1.2.3.4::", "::1.2.3.4%x", "fe80::1%eth0", "fe80::1%", "fe80::1%%",
  "fe80::1%a%b", "fe80::1%a b", "fe80::1%é", "fe80::1%:", "fe80::1%-.:", "fe80::1%_", "fe80::1%\n", "fe80::1%\u0000",
  "%eth0", "::%eth0", "1.2.3.4%eth0", "[::1]", " ::1", "::1 ", "::1\n", "ABCD:EF01:2345:6789:ABCD:EF01:2345:6789", "aBcD::Ef",
  "12345::", "::12345", "1:12345::", "0::0", "::0000", "::00000", "1::", "::1", ":1", "1:", ":1::", "1::2:", "::1:", ":1:2:3:4:5:6:7:8",
  "1:2:3:4:5:6:7:8:", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1:2:3:4:5:6:7::8", "1::2:3:4:5:6:7:8", "1:2:3:4:5::6:7:8",
  "::a:b:c:d:e:f:1.2.3.4", "::b:c:d:e:f:1.2.3.4", "::ffff:0001.2.3.4", "::ffff:1.2.3.4:5", "g::1", "1::g", "::1.2.3.4.",
  "1.2.3.4", "1.2.3.04", "256.0.0.0", "::ffff:a01:203", "2001:db8::/32", "2001:db8::1/128", "１::", "٣::", "::1\u0000",
  "1:2:3:4:5:6:7:8%eth0", "1:2:3:4:5:6:7:8%", "::%", "::ffff:1.2.3.4%zone", ":::1.2.3.4", "1:::1.2.3.4", "::.1.2.3",
];

const pick = <T>(next: () => number, xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;

// One group: mostly 1-4 hex digits, sometimes too many, none, or a character that is not hex.
function group(next: () => number): string {
  const roll = next();
  if (roll < 0.85) return Math.floor(next() * 65536).toString(16).slice(0, 1 + Math.floor(next() * 4));
  if (roll < 0.9) return Math.floor(next() * 2 ** 20).toString(16).padStart(5, "0");
  if (roll < 0.93) return "";
  if (roll < 0.96) return pick(next, ["0000", "FFFF", "AbC", "00", "0"]);
  return pick(next, ["g", "G", "x", " ", "-", "%", "[", "]", "/", ".", "１", "é"]) + (next() < 0.5 ? "1" : "");
}

// A dotted quad, mostly valid, sometimes with a leading zero, an octet over 255, or the wrong count.
function quad(next: () => number): string {
  const octet = () => (next() < 0.9 ? String(Math.floor(next() * 256)) : pick(next, ["01", "00", "256", "999", "", "a", "-1"]));
  return Array.from({ length: pick(next, [4, 4, 4, 4, 3, 5]) }, octet).join(".");
}

// A zone id: mostly the characters isIP takes there, sometimes others or none.
function zoneId(next: () => number): string {
  const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.:";
  const odd = ["_", " ", "%", "/", "é", "\n", "[", "]", "~", "@"];
  const length = Math.floor(next() * 6);
  return Array.from({ length }, () => (next() < 0.93 ? chars[Math.floor(next() * chars.length)]! : pick(next, odd))).join("");
}

// Text close to an IPv6 address: 1 to 9 groups, a "::" at a random place (or two, or none), a
// dotted quad at the end or elsewhere, a zone, junk before or after.
function nearIPv6(next: () => number): string {
  const count = 1 + Math.floor(next() * 9);
  const parts = Array.from({ length: count }, () => group(next));
  if (next() < 0.25) parts[next() < 0.9 ? count - 1 : Math.floor(next() * count)] = quad(next);
  let text = parts.join(":");
  const gaps = next() < 0.6 ? 1 : next() < 0.6 ? 0 : 2;
  for (let g = 0; g < gaps; g++) {
    const colons = [...text.matchAll(/:/g)].map((m) => m.index!);
    const at = next() < 0.3 ? pick(next, [0, text.length]) : colons.length > 0 ? pick(next, colons) : 0;
    text = `${text.slice(0, at)}${pick(next, ["::", "::", ":", ":::"])}${text.slice(at)}`;
  }
  if (next() < 0.2) text += "%" + zoneId(next);
  const roll = next();
  if (roll < 0.03) return pick(next, [" ", "[", ":", "\t"]) + text;
  if (roll < 0.06) return text + pick(next, [" ", "]", ":", ".", "\n", "/64"]);
  if (roll < 0.09) text = text.toUpperCase();
  return text;
}

describe("ipFamily", () => {
  test("answers as isIP on the edge cases", () => {
    for (const text of EDGES) {
      expect({ text, family: ipFamily(text) }).toEqual({ text, family: isIP(text) as 0 | 4 | 6 });
    }
  });

  test("takes exactly the zone id characters isIP takes (every UTF-16 code unit)", () => {
    for (let c = 0; c < 65536; c++) {
      const text = `fe80::1%a${String.fromCharCode(c)}`;
      if (ipFamily(text) !== isIP(text)) throw new Error(`zone character ${c}: ${ipFamily(text)}, isIP ${isIP(text)}`);
    }
  });

  test("answers as isIP on 400,000 generated inputs, of which many are addresses of either family", () => {
    const next = random(36);
    const found = { 0: 0, 4: 0, 6: 0 };
    for (let i = 0; i < 400_000; i++) {
      const text = i % 10 === 0 ? quad(next) : nearIPv6(next);
      const family = ipFamily(text);
      if (family !== isIP(text)) throw new Error(`ipFamily(${JSON.stringify(text)}) = ${family}, isIP = ${isIP(text)}`);
      found[family]++;
    }
    // The generator reached both answers, not only rejections.
    expect(found[6]).toBeGreaterThan(30_000);
    expect(found[4]).toBeGreaterThan(10_000);
    expect(found[0]).toBeGreaterThan(40_000);
  });
});
