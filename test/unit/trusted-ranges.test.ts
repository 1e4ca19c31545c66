// --trust-proxy matches IPv4 as numbers now; node's BlockList, which it matched with before, is the
// reference: for every prefix length of both families, the same answer for every address tried.
import { describe, expect, test } from "bun:test";
import { BlockList, isIP } from "node:net";
import { normalizeAddress, parseTrustedProxies } from "../../src/visits/client-ip.ts";
import { formatIPv4 } from "../../src/visits/ipv4.ts";
import { cidrRange, normalizeCidr } from "../../src/links/rules.ts";
import { seededRandom } from "../support/seeded-random.ts";

const random = seededRandom;

// What contains() answered before: BlockList over the normalized address.
function reference(entries: readonly [string, number][]): (address: string) => boolean {
  const list = new BlockList();
  for (const [address, bits] of entries) list.addSubnet(address, bits, isIP(address) === 4 ? "ipv4" : "ipv6");
  return (address) => {
    const a = normalizeAddress(address);
    return a !== null && list.check(a, isIP(a) === 4 ? "ipv4" : "ipv6");
  };
}

const hex = (n: number) => n.toString(16);
const v4 = (next: () => number) => Math.floor(next() * 2 ** 32);
const v6 = (next: () => number, head?: number[]) => {
  const groups = Array.from({ length: 8 }, (_, i) => head?.[i] ?? Math.floor(next() * 65536));
  return groups.map(hex).join(":");
};
// IPv6 in the mapped space (::ffff:0:0/96), where BlockList holds IPv4 addresses too, and beside it.
const nearMapped = (next: () => number) => v6(next, [0, 0, 0, 0, 0, [0xffff, 0xffff, 0xfffe, 0, 0x8000][Math.floor(next() * 5)]!]);

// Around a range: its first and last address, just outside both ends, and random ones.
function addressesNear(start: number, bits: number, next: () => number): string[] {
  const size = 2 ** (32 - bits);
  const base = Math.floor(start / size) * size;
  const out = [base, base + size - 1, base - 1, base + size, base + Math.floor(next() * size)].filter((n) => n >= 0 && n < 2 ** 32).map(formatIPv4);
  return [...out, ...out.map((a) => `::ffff:${a}`), ...Array.from({ length: 5 }, () => formatIPv4(v4(next)))];
}

describe("--trust-proxy matching", () => {
  test("IPv4 ranges of every prefix length: the same answers as BlockList", () => {
    const next = random(4);
    for (let bits = 0; bits <= 32; bits++) {
      for (let round = 0; round < 20; round++) {
        const start = v4(next);
        const entry: [string, number] = [formatIPv4(start), bits];
        const trusted = parseTrustedProxies(`${entry[0]}/${bits}`);
        const expected = reference([entry]);
        for (const address of addressesNear(start, bits, next)) {
          expect({ entry, address, trusted: trusted.contains(address) }).toEqual({ entry, address, trusted: expected(address) });
        }
      }
    }
  });

  test("IPv6 ranges of every prefix length, around and inside the IPv4-mapped space: the same answers as BlockList", () => {
    const next = random(6);
    for (let bits = 0; bits <= 128; bits++) {
      for (let round = 0; round < 12; round++) {
        const base = round % 3 === 0 ? v6(next) : round % 3 === 1 ? nearMapped(next) : `::ffff:${formatIPv4(v4(next))}`;
        const entry: [string, number] = [base, bits];
        const trusted = parseTrustedProxies(`${base}/${bits}`);
        const expected = reference([entry]);
        const mappedIPv4 = base.startsWith("::ffff:") ? base.slice(7) : null;
        const addresses = [base, v6(next), nearMapped(next), formatIPv4(v4(next)), ...(mappedIPv4 ? [mappedIPv4] : []), "::1", "127.0.0.1"];
        for (const address of addresses) {
          expect({ entry, address, trusted: trusted.contains(address) }).toEqual({ entry, address, trusted: expected(address) });
        }
      }
    }
  });

  test("several ranges and the named ones together, for random and edge addresses", () => {
    const entries: [string, number][] = [["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["127.0.0.0", 8], ["::1", 128], ["fc00::", 7], ["203.0.113.7", 32], ["::ffff:198.51.100.0", 120]];
    const trusted = parseTrustedProxies("private,loopback,203.0.113.7,::ffff:198.51.100.0/120");
    const expected = reference(entries);
    const next = random(9);
    const edges = ["10.255.255.255", "11.0.0.0", "172.31.255.255", "172.32.0.0", "198.51.100.255", "198.51.101.0", "203.0.113.7", "203.0.113.8", " 10.1.2.3 ", "010.1.2.3", "", "garbage", "::ffff:10.1.2.3", "fe80::1%eth0"];
    for (const address of [...edges, ...Array.from({ length: 20_000 }, (_, i) => (i % 4 === 0 ? v6(next) : formatIPv4(v4(next))))]) {
      if (trusted.contains(address) !== expected(address)) throw new Error(`${address}: ${trusted.contains(address)}, BlockList ${expected(address)}`);
    }
    expect(trusted.containsIPv4(0x0a000001)).toBe(true);
    expect(trusted.containsIPv4(0x08080808)).toBe(false);
  });
});

// A redirect rule's cidr condition (docs/redirect-rules.md) checks the client's address as it is,
// not normalized: BlockList.check, which it used before, is the reference there too.
describe("a rule's cidr range", () => {
  test("answers as BlockList.check for ranges of every prefix length of both families, on addresses as written", () => {
    const next = random(36);
    let held = 0;
    for (let bits = 0; bits <= 128; bits++) {
      for (let round = 0; round < 6; round++) {
        const v4Range = bits <= 32 && round % 2 === 0;
        const start = v4(next);
        const base = v4Range ? formatIPv4(start) : round % 3 === 0 ? v6(next) : round % 3 === 1 ? nearMapped(next) : `::ffff:${formatIPv4(start)}`;
        const cidr = normalizeCidr(`${base}/${bits}`)!;
        const range = cidrRange(cidr);
        const list = new BlockList();
        list.addSubnet(base, bits, v4Range ? "ipv4" : "ipv6");
        const near = v4Range ? addressesNear(start, bits, next) : [base, base.toUpperCase(), `${base}%eth0`, v6(next), nearMapped(next), formatIPv4(v4(next))];
        for (const address of [...near, "::1", "127.0.0.1", "fe80::1%eth0", " 10.1.2.3", "garbage", ""]) {
          const family = isIP(address);
          const expected = family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
          if (range.contains(address) !== expected) throw new Error(`${cidr}, ${JSON.stringify(address)}: ${range.contains(address)}, BlockList ${expected}`);
          if (expected) held++;
        }
      }
    }
    expect(held).toBeGreaterThan(500); // addresses inside ranges were tried, not only outside
  });
});
