// The special-purpose addresses an outbound request (a webhook, the dashboard's import, any later
// feature that reaches out) may not reach without the operator's leave (docs/security.md: Security,
// "Outbound requests"): every range IANA's IPv4 and IPv6 Special-Purpose Address Registries mark
// as not globally reachable (RFC 6890 and its updates), multicast, the deprecated site-local and
// 6to4 relay ranges, and all IPv6 outside 2000::/3, the only part allocated for global unicast.
// An IPv6 address that carries an IPv4 one (mapped, SIIT, compatible, NAT64, 6to4, Teredo) is
// judged by the IPv4 address it carries: a NAT64 or a dual-stack socket would take it there.

import { ipFamily } from "../visits/ip-family.ts";

/** What a special-purpose address is, as refusals name it. */
export type AddressKind =
  | "unspecified" | "loopback" | "private" | "shared" | "link-local" | "documentation" | "benchmarking" | "reserved" | "multicast" | "broadcast";

/** Why an address is special: its kind, the registry's range, the RFC; `carried` the IPv4 address an IPv6 one carries, when that decided. */
export type SpecialAddress = { kind: AddressKind; range: string; rfc: string; carried?: string };

type Range = { base: bigint; bits: number; kind: AddressKind; range: string; rfc: string };

const KIND_TEXT: Record<AddressKind, string> = {
  unspecified: "an unspecified address", loopback: "a loopback address", private: "a private address", shared: "a shared (carrier-grade NAT) address",
  "link-local": "a link-local address", documentation: "a documentation address", benchmarking: "a benchmarking address",
  reserved: "a reserved address", multicast: "a multicast address", broadcast: "the broadcast address",
};

// IANA IPv4 Special-Purpose Address Registry, the "not globally reachable" entries, and multicast.
const IPV4 = ranges(4, [
  ["0.0.0.0/32", "unspecified", "RFC 1122"], // "this host on this network"
  ["0.0.0.0/8", "reserved", "RFC 791"], // "this network"
  ["10.0.0.0/8", "private", "RFC 1918"],
  ["100.64.0.0/10", "shared", "RFC 6598"],
  ["127.0.0.0/8", "loopback", "RFC 1122"],
  ["169.254.0.0/16", "link-local", "RFC 3927"], // cloud metadata services answer on 169.254.169.254
  ["172.16.0.0/12", "private", "RFC 1918"],
  ["192.0.0.0/24", "reserved", "RFC 6890"], // IETF protocol assignments (DS-Lite, NAT64 discovery, ...); 192.0.0.9 and .10 are global, below
  ["192.0.2.0/24", "documentation", "RFC 5737"], // TEST-NET-1
  ["192.88.99.0/24", "reserved", "RFC 7526"], // the deprecated 6to4 relay anycast
  ["192.168.0.0/16", "private", "RFC 1918"],
  ["198.18.0.0/15", "benchmarking", "RFC 2544"],
  ["198.51.100.0/24", "documentation", "RFC 5737"], // TEST-NET-2
  ["203.0.113.0/24", "documentation", "RFC 5737"], // TEST-NET-3
  ["224.0.0.0/4", "multicast", "RFC 5771"],
  ["255.255.255.255/32", "broadcast", "RFC 919"], // limited broadcast (RFC 8190), before 240/4 for its own name
  ["240.0.0.0/4", "reserved", "RFC 1112"],
]);

// The globally reachable assignments inside the ranges above (the registry's "True"): not refused.
const IPV4_GLOBAL = ranges(4, [
  ["192.0.0.9/32", "reserved", "RFC 7723"], // Port Control Protocol anycast
  ["192.0.0.10/32", "reserved", "RFC 8155"], // TURN anycast
]);

// IANA IPv6 Special-Purpose Address Registry, the "not globally reachable" entries, with site-local
// and multicast. The forms that carry an IPv4 address are judged before these (see carriedIpv4).
const IPV6 = ranges(6, [
  ["::/128", "unspecified", "RFC 4291"],
  ["::1/128", "loopback", "RFC 4291"],
  ["64:ff9b:1::/48", "reserved", "RFC 8215"], // local-use IPv4/IPv6 translation: the whole /48, whatever it carries
  ["100::/64", "reserved", "RFC 6666"], // discard-only
  ["100:0:0:1::/64", "reserved", "RFC 9780"], // dummy IPv6 prefix
  ["2001:2::/48", "benchmarking", "RFC 5180"],
  ["2001:10::/28", "reserved", "RFC 4843"], // deprecated ORCHID
  ["2001::/23", "reserved", "RFC 2928"], // IETF protocol assignments (Teredo's 2001::/32 among them); the global ones are below
  ["2001:db8::/32", "documentation", "RFC 3849"],
  ["3fff::/20", "documentation", "RFC 9637"],
  ["5f00::/16", "reserved", "RFC 9602"], // SRv6 segment identifiers
  ["fc00::/7", "private", "RFC 4193"], // unique local
  ["fe80::/10", "link-local", "RFC 4291"],
  ["fec0::/10", "private", "RFC 3879"], // site-local, deprecated, still routed inside some networks
  ["ff00::/8", "multicast", "RFC 4291"],
]);

const IPV6_GLOBAL = ranges(6, [
  ["2001:1::1/128", "reserved", "RFC 7723"], // Port Control Protocol anycast
  ["2001:1::2/128", "reserved", "RFC 8155"], // TURN anycast
  ["2001:1::3/128", "reserved", "RFC 9665"], // DNS-SD service registration protocol anycast
  ["2001:3::/32", "reserved", "RFC 7450"], // AMT
  ["2001:4:112::/48", "reserved", "RFC 7535"], // AS112-v6
  ["2001:20::/28", "reserved", "RFC 7343"], // ORCHIDv2
  ["2001:30::/28", "reserved", "RFC 9374"], // drone remote ID
]);

/** Global unicast (RFC 4291 §2.4, IANA's IPv6 address space): everything else is unassigned or special. */
const GLOBAL_UNICAST = ranges(6, [["2000::/3", "reserved", "RFC 4291"]])[0]!;

/** The special-purpose range an IP address is in, or null for a globally reachable one and for anything not an IP address (a name). */
export function specialAddress(address: string): SpecialAddress | null {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = ipFamily(bare);
  if (family === 4) return classify(ipv4Value(bare), 4);
  if (family === 6) return classify(ipv6Value(bare), 6);
  return null;
}

/** "a loopback address (RFC 1122)"; for an IPv6 address carrying an IPv4 one, "an address carrying 127.0.0.1, a loopback address (RFC 1122)". */
export function describeSpecial(special: SpecialAddress): string {
  const what = `${KIND_TEXT[special.kind]} (${special.rfc})`;
  return special.carried === undefined ? what : `an address carrying ${special.carried}, ${what}`;
}

function classify(value: bigint, family: 4 | 6): SpecialAddress | null {
  if (family === 4) return IPV4_GLOBAL.some((r) => within(value, r, 32)) ? null : found(IPV4.find((r) => within(value, r, 32)));
  if (!within(value, IPV6[0]!, 128) && !within(value, IPV6[1]!, 128)) {
    const carried = carriedIpv4(value);
    if (carried !== null) {
      const special = classify(carried.ipv4, 4);
      if (special !== null) return { ...special, carried: ipv4Text(carried.ipv4) };
      // Teredo's 2001::/32 stays refused as part of 2001::/23, whatever client it names.
      if (!carried.teredo) return null;
    }
  }
  if (IPV6_GLOBAL.some((r) => within(value, r, 128))) return null;
  const special = found(IPV6.find((r) => within(value, r, 128)));
  if (special !== null) return special;
  return within(value, GLOBAL_UNICAST, 128) ? null : { kind: "reserved", range: "outside 2000::/3", rfc: "RFC 4291" };
}

/** The IPv4 address an IPv6 one carries, in every form that has one. */
function carriedIpv4(v: bigint): { ipv4: bigint; teredo: boolean } | null {
  const low32 = v & 0xffffffffn;
  const top96 = v >> 32n;
  if (top96 === 0xffffn) return { ipv4: low32, teredo: false }; // IPv4-mapped ::ffff:0:0/96 (RFC 4291)
  if (top96 === 0xffff0000n) return { ipv4: low32, teredo: false }; // SIIT ::ffff:0:0:0/96 (RFC 2765)
  if (top96 === 0n) return { ipv4: low32, teredo: false }; // IPv4-compatible ::/96, deprecated (RFC 4291 §2.5.5.1)
  if (top96 === 0x0064ff9b0000000000000000n) return { ipv4: low32, teredo: false }; // NAT64 64:ff9b::/96 (RFC 6052)
  if (v >> 112n === 0x2002n) return { ipv4: (v >> 80n) & 0xffffffffn, teredo: false }; // 6to4 2002::/16 (RFC 3056)
  if (v >> 96n === 0x20010000n) return { ipv4: low32 ^ 0xffffffffn, teredo: true }; // Teredo 2001::/32: the client, inverted (RFC 4380 §4)
  return null;
}

function found(r: Range | undefined): SpecialAddress | null {
  return r === undefined ? null : { kind: r.kind, range: r.range, rfc: r.rfc };
}

function within(value: bigint, r: Range, width: 32 | 128): boolean {
  const shift = BigInt(width - r.bits);
  return value >> shift === r.base >> shift;
}

function ranges(family: 4 | 6, list: [string, AddressKind, string][]): Range[] {
  return list.map(([range, kind, rfc]) => {
    const [address, bits] = range.split("/") as [string, string];
    return { base: family === 4 ? ipv4Value(address) : ipv6Value(address), bits: Number(bits), kind, range, rfc };
  });
}

function ipv4Value(address: string): bigint {
  return address.split(".").reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function ipv4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join(".");
}

/** The 128-bit value of an address ipFamily() calls IPv6 (a trailing a.b.c.d is its last 32 bits). */
function ipv6Value(address: string): bigint {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Value(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const groups = (s: string | undefined) => (s ? s.split(":").map((g) => BigInt(parseInt(g, 16))) : []);
  const [head, tail] = text.split("::");
  const h = groups(head);
  const t = groups(tail);
  const all = tail === undefined ? h : [...h, ...new Array<bigint>(8 - h.length - t.length).fill(0n), ...t];
  return all.reduce((n, g) => (n << 16n) | g, 0n);
}
