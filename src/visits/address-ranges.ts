// Address ranges (--trust-proxy, the private ranges that have no country) matched as numbers.
// They answer as node:net BlockList did (test/unit/trusted-ranges.test.ts, every prefix length):
// an IPv4 address is also held by an IPv6 range that holds its mapped form (::ffff:a.b.c.d).

import { ipFamily } from "./ip-family.ts";
import { parseIPv4 } from "./ipv4.ts";
import { ipv6Groups, validIPv6Groups } from "./ipv6.ts";

export type AddressRange = { address: string; bits: number; type: "ipv4" | "ipv6" };

/** The IPv4 addresses a list of ranges holds, as start/mask pairs. */
export class IPv4Ranges {
  #starts: number[] = [];
  #masks: number[] = [];
  add(range: AddressRange): void {
    const v4 = range.type === "ipv4" ? { start: parseIPv4(range.address), bits: range.bits } : mappedIPv4(range);
    if (v4 === null) return;
    const mask = v4.bits === 0 ? 0 : (-1 << (32 - v4.bits)) >>> 0;
    this.#starts.push((v4.start & mask) >>> 0);
    this.#masks.push(mask);
  }
  contains(address: number): boolean {
    for (let i = 0; i < this.#starts.length; i++) if (((address & this.#masks[i]!) >>> 0) === this.#starts[i]) return true;
    return false;
  }
}

/** The IPv6 addresses (other than mapped ones) a list of ranges holds, as groups and a prefix length. */
export class IPv6Ranges {
  #ranges: { groups: number[]; bits: number }[] = [];
  add(range: AddressRange): void {
    const groups = range.type === "ipv6" ? ipv6Groups(range.address) : null;
    if (groups !== null) this.#ranges.push({ groups, bits: range.bits });
  }
  contains(g: ArrayLike<number>): boolean {
    for (const range of this.#ranges) if (samePrefix(g, range.groups, range.bits)) return true;
    return false;
  }
}

/**
 * Ranges of both families, answering for an address as text as BlockList.check did: an IPv6
 * address that maps an IPv4 one (::ffff:a.b.c.d) is that address, and a zone id is ignored.
 */
export class AddressRanges {
  readonly #v4 = new IPv4Ranges();
  readonly #v6 = new IPv6Ranges();
  add(range: AddressRange): void {
    this.#v4.add(range);
    this.#v6.add(range);
  }
  containsIPv4(address: number): boolean {
    return this.#v4.contains(address);
  }
  containsIPv6(g: ArrayLike<number>): boolean {
    return isMapped(g) ? this.#v4.contains(g[6]! * 65536 + g[7]!) : this.#v6.contains(g);
  }
  /** Whether `address` (as written, not trimmed) is held; false when it is not an address. */
  contains(address: string): boolean {
    const family = ipFamily(address);
    if (family === 4) return this.#v4.contains(parseIPv4(address));
    if (family === 0) return false;
    const zone = address.indexOf("%");
    const g = validIPv6Groups(zone < 0 ? address : address.slice(0, zone));
    return g !== null && this.containsIPv6(g);
  }
}

function isMapped(g: ArrayLike<number>): boolean {
  return g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff;
}

// Whether the first `bits` bits of two addresses' groups are equal.
function samePrefix(a: ArrayLike<number>, b: ArrayLike<number>, bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 16) {
    const width = Math.min(16, bits - bit);
    const mask = (0xffff << (16 - width)) & 0xffff;
    if ((a[bit / 16]! & mask) !== (b[bit / 16]! & mask)) return false;
  }
  return true;
}

const MAPPED = [0, 0, 0, 0, 0, 0xffff, 0, 0];

// BlockList checks an IPv4 address as its mapped IPv6 form against IPv6 ranges too: "::/0" or
// "::ffff:10.0.0.0/104" hold IPv4 addresses. The IPv4 part of such a range, or null.
function mappedIPv4(range: AddressRange): { start: number; bits: number } | null {
  const g = ipv6Groups(range.address);
  if (g === null || !samePrefix(g, MAPPED, Math.min(range.bits, 96))) return null;
  if (range.bits <= 96) return { start: 0, bits: 0 };
  return { start: g[6]! * 65536 + g[7]!, bits: range.bits - 96 };
}
