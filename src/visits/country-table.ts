// The country of an address from a range table, built once by walking a MaxMind DB's search tree
// (https://maxmind.github.io/MaxMind-DB/, "Search Tree Section"): every leaf of the tree is a
// network with a data pointer, or "not found". Each distinct pointer's country is asked once of
// the caller (through maxmind's Reader, at the network's first address), so the table answers what
// the Reader answers by construction. A lookup is a binary search in typed arrays: no tree walk,
// no record decoding, no cache per address that grows and misses when every visitor is new.
//
// IPv4: the tree under ::/96 (or the root of an IPv4-only tree), as sorted 32-bit range starts.
// IPv6: every network of GeoLite2 Country is at most a /64, so the table keys on the top 64 bits;
// a /64 whose subtree goes deeper (the ::/64 that holds the IPv4 tree, or a database's aliases of
// it) gets a small table of its own over the low 64 bits, where the IPv4 tree is one marker. A
// database with too many of those has no IPv6 table, and the caller keeps its Reader for IPv6.

import { formatIPv4, rangeIndex } from "./ipv4.ts";

export type TreeShape = { nodeCount: number; recordSize: number; ipVersion: number };

export type CountryTable = {
  /** the country of an IPv4 address given as an unsigned 32-bit number */
  ipv4(address: number): string | null;
  /** the country of an IPv6 address given as four unsigned 32-bit words, most significant first; only when hasIPv6 */
  ipv6(words: ArrayLike<number>): string | null;
  /** false: the database's IPv6 tree did not fit a table (ipv6 answers null), or it holds no IPv6 at all */
  readonly hasIPv6: boolean;
  /** what the table holds in memory */
  readonly bytes: number;
  readonly ranges: { ipv4: number; ipv6: number };
  /** the first address of every range: IPv4 as numbers, IPv6 as four words (for tests and the docs' figures) */
  starts(): { ipv4: Uint32Array; ipv6: number[][] };
};

// Values: 0 = no country, 1.. = index into the codes; a /64 with a table of its own is DEEP + its
// index; in those, IPV4 = "the IPv4 tree, read with the last 32 bits".
const DEEP = 0x8000;
const IPV4 = 0x7fff;
// Deeper /64s are rare (one, ::/64, in GeoLite2 Country): past this many ranges, keep the Reader.
const MAX_DEEP_RANGES = 65_536;
// A tree visits each node once, or a few times where the IPv4 tree is aliased; a damaged file
// whose records point back up would make the walk endless: it is refused past this many visits.
const VISITS_PER_NODE = 8;

/** Sorted 64-bit range starts as two word arrays, and the value of each range. */
type Ranges64 = { high: Uint32Array; low: Uint32Array; values: Uint16Array };

/** Builds the table; `countryOf(address)` answers for the first address of each distinct data record. Throws for a tree that is not one. */
export function buildCountryTable(db: Uint8Array, shape: TreeShape, countryOf: (address: string) => string | null, options: { maxDeepRanges?: number } = {}): CountryTable {
  const tree = new Tree(db, shape, countryOf);
  const v4 = tree.ipv4Ranges();
  const v6 = shape.ipVersion === 6 ? tree.ipv6Ranges(options.maxDeepRanges ?? MAX_DEEP_RANGES) : null;
  const codes = tree.codes;
  // Where the ranges of each /16 begin: a search of a few ranges instead of all (256 KB).
  const by16 = new Uint32Array(65_537);
  for (let top = 0; top < 65_536; top++) by16[top] = rangeIndex(v4.starts, top * 65_536);
  by16[65_536] = v4.starts.length - 1;
  const countryOfIPv4 = (address: number): string | null => {
    const top = address >>> 16;
    return codes[v4.values[rangeIndex(v4.starts, address, by16[top], by16[top + 1])]!]!;
  };
  const bytes = by16.byteLength + v4.starts.byteLength + v4.values.byteLength + (v6 === null ? 0 : [v6.main, ...v6.deep].reduce((sum, r) => sum + r.high.byteLength * 2 + r.values.byteLength, 0));
  return {
    ipv4: countryOfIPv4,
    ipv6(words) {
      if (v6 === null) return null;
      const value = v6.main.values[index64(v6.main, words[0]!, words[1]!)]!;
      if (value < DEEP) return codes[value]!;
      const deep = v6.deep[value - DEEP]!;
      const inner = deep.values[index64(deep, words[2]!, words[3]!)]!;
      return inner === IPV4 ? countryOfIPv4(words[3]!) : codes[inner]!;
    },
    hasIPv6: v6 !== null,
    bytes,
    starts: () => ({ ipv4: v4.starts, ipv6: v6 === null ? [] : ipv6Starts(v6) }),
    ranges: { ipv4: v4.starts.length, ipv6: v6 === null ? 0 : v6.main.values.length + v6.deep.reduce((sum, r) => sum + r.values.length, 0) },
  };
}

function ipv6Starts(v6: { main: Ranges64; deep: Ranges64[] }): number[][] {
  const out: number[][] = [];
  v6.main.values.forEach((value, i) => {
    const top = [v6.main.high[i]!, v6.main.low[i]!];
    if (value < DEEP) return out.push([...top, 0, 0]);
    const deep = v6.deep[value - DEEP]!;
    deep.values.forEach((_, j) => out.push([...top, deep.high[j]!, deep.low[j]!]));
  });
  return out;
}

// The last range whose start is at most (high, low).
function index64(r: Ranges64, high: number, low: number): number {
  let lo = 0;
  let hi = r.high.length - 1;
  while (lo < hi) {
    const middle = (lo + hi + 1) >>> 1;
    const h = r.high[middle]!;
    if (h < high || (h === high && r.low[middle]! <= low)) lo = middle;
    else hi = middle - 1;
  }
  return lo;
}

/**
 * Range starts and values, appended in ascending order; a range with the previous one's value merges
 * into it. Walked twice: once to count (no arrays), then into arrays of the exact size, so that the
 * build leaves no grown-and-copied arrays behind for the allocator to keep (it showed in RSS).
 */
class RangeList {
  readonly high: Uint32Array;
  readonly low: Uint32Array;
  readonly values: Uint16Array;
  length = 0;
  #last = -1;
  constructor(readonly size: number | null, withHigh: boolean) {
    this.high = new Uint32Array(withHigh ? (size ?? 0) : 0);
    this.low = new Uint32Array(size ?? 0);
    this.values = new Uint16Array(size ?? 0);
  }
  get storing(): boolean {
    return this.size !== null;
  }
  add(high: number, low: number, value: number): void {
    if (this.#last === value && value < DEEP) return;
    this.#last = value;
    if (this.size !== null) {
      if (this.high.length > 0) this.high[this.length] = high;
      this.low[this.length] = low;
      this.values[this.length] = value;
    }
    this.length++;
  }
  ranges64(): Ranges64 {
    return { high: this.high, low: this.low, values: this.values };
  }
}

/** Runs a walk twice: counting, then storing into arrays of the counted size. */
function collect(withHigh: boolean, walk: (list: RangeList) => void): RangeList {
  const counted = new RangeList(null, withHigh);
  walk(counted);
  const list = new RangeList(counted.length, withHigh);
  walk(list);
  return list;
}

class Tree {
  readonly codes: (string | null)[] = [null];
  readonly #codeIndex = new Map<string, number>();
  readonly #pointers = new Map<number, number>();
  readonly #nodeCount: number;
  readonly #ipv4Start: number;
  readonly #record: (node: number, right: number) => number;
  #visitsLeft: number;
  constructor(
    db: Uint8Array,
    shape: TreeShape,
    readonly countryOf: (address: string) => string | null,
  ) {
    this.#nodeCount = shape.nodeCount;
    this.#visitsLeft = VISITS_PER_NODE * (shape.nodeCount + 1024);
    this.#record = recordReader(db, shape.recordSize);
    let node = 0;
    // IPv4 in an IPv6 tree: 96 zero bits down (the spec's "IPv4 addresses in an IPv6 tree").
    for (let depth = 0; shape.ipVersion === 6 && depth < 96 && node < this.#nodeCount; depth++) node = this.#record(node, 0);
    this.#ipv4Start = node;
  }

  ipv4Ranges(): { starts: Uint32Array; values: Uint16Array } {
    const list = collect(false, (into) => this.#walk32(this.#ipv4Start, 0, 0, into));
    return { starts: list.low, values: list.values };
  }

  // As maxmind's walk: a record >= nodeCount ends it (== nodeCount: not found); still a node after 32 bits: not found.
  #walk32(node: number, depth: number, start: number, list: RangeList): void {
    if (node >= this.#nodeCount) return list.add(0, start, this.#pointers.get(node) ?? this.#resolve(node, formatIPv4(start)));
    if (depth === 32) return list.add(0, start, 0);
    this.#visit();
    this.#walk32(this.#record(node, 0), depth + 1, start, list);
    this.#walk32(this.#record(node, 1), depth + 1, start + 2 ** (31 - depth), list);
  }

  ipv6Ranges(maxDeepRanges: number): { main: Ranges64; deep: Ranges64[] } | null {
    const deepNodes: { node: number; high: number; low: number }[] = [];
    const main = collect(true, (into) =>
      this.#walk64(0, 0, 0, 0, into, (node, high, low) => {
        into.add(high, low, DEEP + deepNodes.length);
        if (into.storing) deepNodes.push({ node, high, low });
      }),
    );
    const deep: Ranges64[] = [];
    let size = 0;
    for (const top of deepNodes) {
      const list = collect(true, (into) => this.#walk64(top.node, 64, 0, 0, into, (_, high, low) => into.add(high, low, 0), top));
      size += list.length;
      if (size > maxDeepRanges || deep.length >= DEEP - 1) return null;
      deep.push(list.ranges64());
    }
    return { main: main.ranges64(), deep };
  }

  // 64 bits of the address from `depth` (0 or 64); `top` is the /64 above a walk of the low bits.
  #walk64(node: number, depth: number, high: number, low: number, list: RangeList, deeper: (node: number, high: number, low: number) => void, top?: { high: number; low: number }): void {
    const end = top === undefined ? 64 : 128;
    if (node >= this.#nodeCount) return list.add(high, low, this.#pointers.get(node) ?? this.#resolve(node, ipv6Text(top, high, low)));
    if (top !== undefined && depth === 96 && node === this.#ipv4Start) return list.add(high, low, IPV4);
    if (depth === end) return deeper(node, high, low);
    this.#visit();
    const bit = depth % 64;
    this.#walk64(this.#record(node, 0), depth + 1, high, low, list, deeper, top);
    if (bit < 32) this.#walk64(this.#record(node, 1), depth + 1, high + 2 ** (31 - bit), low, list, deeper, top);
    else this.#walk64(this.#record(node, 1), depth + 1, high, low + 2 ** (63 - bit), list, deeper, top);
  }

  #visit(): void {
    if (--this.#visitsLeft < 0) throw new Error("the MaxMind DB search tree is not a tree (a damaged file?)");
  }

  // A record's value the first time it is met (then #pointers has it): "not found" (== nodeCount)
  // is no country; a data record's country is asked at the first address of its first network.
  #resolve(record: number, firstAddress: string): number {
    const code = record === this.#nodeCount ? null : this.countryOf(firstAddress);
    const value = code === null ? 0 : (this.#codeIndex.get(code) ?? this.codes.push(code) - 1);
    if (value >= IPV4) throw new Error("more distinct countries than the table's values hold"); // ISO 3166 has about 250
    if (code !== null) this.#codeIndex.set(code, value);
    this.#pointers.set(record, value);
    return value;
  }
}

function ipv6Text(top: { high: number; low: number } | undefined, high: number, low: number): string {
  const words = top === undefined ? [high, low, 0, 0] : [top.high, top.low, high, low];
  return words.map((w) => `${(w >>> 16).toString(16)}:${(w & 0xffff).toString(16)}`).join(":");
}

// The spec's node layouts for 24, 28 and 32-bit records ("Node Layout").
function recordReader(db: Uint8Array, recordSize: number): (node: number, right: number) => number {
  const three = (at: number) => (db[at]! << 16) | (db[at + 1]! << 8) | db[at + 2]!;
  switch (recordSize) {
    case 24:
      return (node, right) => three(node * 6 + right * 3);
    case 28:
      return (node, right) => {
        const at = node * 7;
        return right === 0 ? ((db[at + 3]! & 0xf0) << 20) | three(at) : ((db[at + 3]! & 0x0f) << 24) | three(at + 4);
      };
    case 32:
      return (node, right) => {
        const at = node * 8 + right * 4;
        return ((db[at]! << 24) | three(at + 1)) >>> 0;
      };
  }
  throw new Error(`unsupported MaxMind DB record size ${recordSize}`);
}
