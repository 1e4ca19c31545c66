// validIPv6Groups reads by character codes what isIP accepted: the groups must be those the text says,
// in every way IPv6 can be written.
import { describe, expect, test } from "bun:test";
import { isIP } from "node:net";
import { formatIPv6, ipv6Groups } from "../../src/visits/ipv6.ts";
import { seededRandom } from "../support/seeded-random.ts";

const random = seededRandom;

// One address written in one of the ways isIP accepts: full, with leading zeros, upper case,
// compressed anywhere, or with its last 32 bits as a dotted quad.
function written(groups: number[], next: () => number): string {
  const roll = next();
  const hex = (g: number) => (roll < 0.2 ? g.toString(16).padStart(4, "0") : g.toString(16));
  let parts = groups.map(hex);
  let quad = "";
  if (next() < 0.25) {
    quad = `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
    parts = parts.slice(0, 6);
  }
  let text = parts.join(":");
  if (next() < 0.5) text = text.replace(/(^|:)0(:0)+(:|$)/, "::"); // the first run of zero groups
  else if (next() < 0.3 && !quad) text = formatIPv6(groups); // RFC 5952's longest run
  if (quad) text = text.endsWith(":") ? text + quad : `${text}:${quad}`;
  return next() < 0.2 ? text.toUpperCase() : text;
}

describe("ipv6Groups", () => {
  test("reads the groups of 100,000 addresses written every way, and each agrees with isIP", () => {
    const next = random(6);
    let read = 0;
    for (let i = 0; i < 100_000; i++) {
      const groups = Array.from({ length: 8 }, () => (next() < 0.4 ? 0 : Math.floor(next() * 65536)));
      const text = written(groups, next);
      if (isIP(text) !== 6) continue; // a way this generator writes that is not IPv6 (checked below)
      const groupsRead = ipv6Groups(text);
      if (JSON.stringify(groupsRead) !== JSON.stringify(groups)) throw new Error(`${text}: ${JSON.stringify(groupsRead)}, written from ${JSON.stringify(groups)}`);
      read++;
    }
    expect(read).toBeGreaterThan(90_000);
    for (const text of ["::", "::1", "1::", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "::ffff:1.2.3.4", "1:2:3:4:5:6:1.2.3.4", "FE80::1", "0000:0000::00ff"]) {
      expect([text, isIP(text)]).toEqual([text, 6]);
      expect(formatIPv6(ipv6Groups(text)!)).toBe(formatIPv6(ipv6Groups(text.toLowerCase())!));
    }
    expect(ipv6Groups("1:2:3:4:5:6:1.2.3.4")).toEqual([1, 2, 3, 4, 5, 6, 0x102, 0x304]);
    expect(ipv6Groups("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(ipv6Groups("1:2:3:4:5:6:7::")).toEqual([1, 2, 3, 4, 5, 6, 7, 0]);
  });

  test("anything isIP does not take as IPv6 gives null", () => {
    for (const text of ["", ":", ":::", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::", "1.2.3.4", "::1.2.3", "::1.2.3.256", "fe80::1%eth0", " ::1", "1:2:3:4:5:6:7"]) {
      expect([text, ipv6Groups(text)]).toEqual([text, null]);
    }
  });
});
