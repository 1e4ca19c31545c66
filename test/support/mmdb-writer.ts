// Minimal MaxMind DB (.mmdb) writer for tests, so geo lookups can be checked against records we control
// (MaxMind's own GeoLite2/GeoIP2 layout) without shipping or downloading a real database.
// Format: https://maxmind.github.io/MaxMind-DB/ — binary search tree, 16 zero bytes, data section,
// then "\xAB\xCD\xEFMaxMind.com" and a metadata map. 24, 28 or 32-bit records, no pointers, no overlapping
// networks; optionally MaxMind's aliases of the IPv4 tree at ::ffff:0:0/96 and 2002::/16.

import { isIP } from "node:net";

export type MmdbValue = string | number | boolean | MmdbValue[] | { [key: string]: MmdbValue };
export type MmdbNetwork = { cidr: string; data: { [key: string]: MmdbValue } };
export type MmdbOptions = {
  ipVersion: 4 | 6;
  databaseType: string;
  buildEpoch: number;
  recordSize?: 24 | 28 | 32;
  /** an IPv6 tree whose ::ffff:0:0/96 and 2002::/16 lead to the IPv4 tree under ::/96, as MaxMind's own databases */
  aliasIPv4?: boolean;
};

type Child = number | { data: number } | null; // node index | data-section offset | no data
type Node = [Child, Child];

/** Builds a complete .mmdb file holding the given networks. */
export function writeMmdb(networks: readonly MmdbNetwork[], options: MmdbOptions): Uint8Array {
  const nodes: Node[] = [[null, null]];
  const data: number[] = [];
  for (const { cidr, data: record } of networks) {
    const offset = data.length;
    data.push(...encode(record));
    insert(nodes, networkBits(cidr, options.ipVersion), { data: offset });
  }
  if (options.aliasIPv4) {
    const ipv4 = path(nodes, new Array<number>(96).fill(0));
    link(nodes, [...new Array<number>(80).fill(0), ...new Array<number>(16).fill(1)], ipv4);
    link(nodes, [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0], ipv4); // 0x2002
  }
  const nodeCount = nodes.length;
  const recordSize = options.recordSize ?? 24;
  if (nodeCount + 16 + data.length >= 2 ** recordSize) throw new Error(`too big for ${recordSize}-bit records`);
  const tree: number[] = [];
  for (const node of nodes) {
    const [left, right] = node.map((child) => (child === null ? nodeCount : typeof child === "number" ? child : nodeCount + 16 + child.data)) as [number, number];
    tree.push(...nodeBytes(left, right, recordSize));
  }
  const metadata = encode({
    node_count: new Uint(32, nodeCount),
    record_size: new Uint(16, recordSize),
    ip_version: new Uint(16, options.ipVersion),
    database_type: options.databaseType,
    languages: ["en"],
    binary_format_major_version: new Uint(16, 2),
    binary_format_minor_version: new Uint(16, 0),
    build_epoch: new Uint(64, options.buildEpoch),
    description: { en: "test database" },
  });
  const marker = [0xab, 0xcd, 0xef, ...new TextEncoder().encode("MaxMind.com")];
  return Uint8Array.from([...tree, ...new Array<number>(16).fill(0), ...data, ...marker, ...metadata]);
}

// The network's leading bits, as a path from the root of the tree. IPv4 networks in an IPv6 tree live under ::/96.
function networkBits(cidr: string, ipVersion: 4 | 6): number[] {
  const [address = "", lengthText = ""] = cidr.split("/");
  const version = isIP(address);
  const length = Number(lengthText);
  let bytes: number[];
  if (version === 4) bytes = address.split(".").map(Number);
  else if (version === 6 && ipVersion === 6) bytes = ipv6Bytes(address);
  else throw new Error(`bad network ${cidr}`);
  let prefix = length;
  if (version === 4 && ipVersion === 6) {
    bytes = [...new Array<number>(12).fill(0), ...bytes];
    prefix += 96;
  }
  return Array.from({ length: prefix }, (_, i) => (bytes[i >> 3]! >> (7 - (i & 7))) & 1);
}

function ipv6Bytes(address: string): number[] {
  const [head = "", tail] = address.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

// The spec's "Node Layout": 28-bit records share their middle byte's two nibbles.
function nodeBytes(left: number, right: number, recordSize: 24 | 28 | 32): number[] {
  const be = (n: number, bytes: number) => Array.from({ length: bytes }, (_, i) => Math.floor(n / 256 ** (bytes - 1 - i)) % 256);
  if (recordSize === 24) return [...be(left, 3), ...be(right, 3)];
  if (recordSize === 32) return [...be(left, 4), ...be(right, 4)];
  return [...be(left % 2 ** 24, 3), (Math.floor(left / 2 ** 24) << 4) | Math.floor(right / 2 ** 24), ...be(right % 2 ** 24, 3)];
}

// The node at the end of `bits`, made as needed.
function path(nodes: Node[], bits: readonly number[]): number {
  let index = 0;
  for (const bit of bits) {
    const child = nodes[index]![bit as 0 | 1];
    if (typeof child === "number") index = child;
    else if (child === null) {
      nodes.push([null, null]);
      nodes[index]![bit as 0 | 1] = nodes.length - 1;
      index = nodes.length - 1;
    } else throw new Error("an alias over a network");
  }
  return index;
}

// The record at the end of `bits` points at an existing node: the tree is a graph there.
function link(nodes: Node[], bits: readonly number[], target: number): void {
  const parent = path(nodes, bits.slice(0, -1));
  nodes[parent]![bits[bits.length - 1] as 0 | 1] = target;
}

function insert(nodes: Node[], bits: readonly number[], leaf: { data: number }): void {
  let index = 0;
  bits.forEach((bit, depth) => {
    const node = nodes[index]!;
    const child = node[bit as 0 | 1];
    if (depth === bits.length - 1) {
      if (child !== null) throw new Error("overlapping networks are not supported");
      node[bit as 0 | 1] = leaf;
      return;
    }
    if (typeof child === "number") index = child;
    else if (child === null) {
      nodes.push([null, null]);
      index = nodes.length - 1;
      node[bit as 0 | 1] = index;
    } else throw new Error("overlapping networks are not supported");
  });
}

// Data section encoding. Plain JS numbers are written as uint32; metadata needs exact widths, hence Uint.
class Uint {
  constructor(
    readonly bits: 16 | 32 | 64,
    readonly value: number,
  ) {}
}
type Encodable = MmdbValue | Uint | { [key: string]: Encodable };

function encode(value: Encodable): number[] {
  if (typeof value === "string") {
    const bytes = [...new TextEncoder().encode(value)];
    return [...control(2, bytes.length), ...bytes];
  }
  if (typeof value === "boolean") return control(14, value ? 1 : 0);
  if (typeof value === "number") return unsigned(6, value);
  if (value instanceof Uint) return unsigned({ 16: 5, 32: 6, 64: 9 }[value.bits], value.value);
  if (Array.isArray(value)) return [...control(11, value.length), ...value.flatMap(encode)];
  const entries = Object.entries(value);
  return [...control(7, entries.length), ...entries.flatMap(([k, v]) => [...encode(k), ...encode(v)])];
}

function unsigned(type: number, n: number): number[] {
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return [...control(type, bytes.length), ...bytes];
}

// Control byte: type in the top 3 bits (types above 7 are "extended": 0 there, then type - 7 in the next byte),
// size in the low 5 bits, with 29/30 meaning one/two more size bytes follow.
function control(type: number, size: number): number[] {
  const typeBits = type <= 7 ? type << 5 : 0;
  const extended = type <= 7 ? [] : [type - 7];
  if (size < 29) return [typeBits | size, ...extended];
  if (size < 285) return [typeBits | 29, ...extended, size - 29];
  if (size < 65_821) return [typeBits | 30, ...extended, (size - 285) >> 8, (size - 285) & 0xff];
  throw new Error("value too large for this writer");
}
