// Decides which address a request really comes from. Proxy headers are trivially
// forged by clients, so they are believed only when the hop that added them is a
// proxy the operator listed in --trust-proxy.
//
// CIDR matching of IPv6 uses node:net BlockList: Bun 1.4.5's implementation was
// checked against a BigInt reference (first/last/just-outside addresses for every
// prefix length, v4 and v6) and agreed. IPv4, what nearly every click comes from,
// is matched as start/mask numbers (parseIPv4): BlockList parses the address text
// again on every check; test/unit/trusted-ranges.test.ts holds the two equal.
import { BlockList, isIP } from "node:net";
import { parseIPv4 } from "./ipv4.ts";

/** The two headers a forwarding chain is read from; a Request's Headers, or the raw values of a recorded click. */
export type ForwardingHeaders = Pick<Headers, "get" | "has">;

export type TrustedProxies = {
  contains(address: string): boolean;
  /** the same for an IPv4 address already parsed (parseIPv4) */
  containsIPv4(address: number): boolean;
  readonly empty: boolean;
};

const MAX_HOPS = 20; // bounds the walk so a long forged chain costs nothing
const MAX_HEADER_BYTES = 4096; // oversized headers are more likely abuse than real chains

const NAMED: Record<string, ReadonlyArray<readonly [string, number]>> = {
  loopback: [["127.0.0.0", 8], ["::1", 128]],
  private: [["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["fc00::", 7]],
};

/** Parses --trust-proxy ("a,b/n,loopback,private"; "" = none) and throws naming the first bad entry. */
export function parseTrustedProxies(spec: string): TrustedProxies {
  const list = new BlockList();
  const v4 = new IPv4Ranges();
  let count = 0;
  for (const raw of spec.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue; // tolerate "a,,b" and trailing commas
    const named = NAMED[entry.toLowerCase()];
    const ranges = named ? named.map(([address, bits]) => ({ address, bits, type: isIP(address) === 4 ? "ipv4" : "ipv6" }) as AddressRange) : [parseCidr(entry)];
    for (const range of ranges) {
      if (range === null) throw new Error(`--trust-proxy: not an IP or CIDR: ${entry}`);
      list.addSubnet(range.address, range.bits, range.type);
      v4.add(range);
    }
    count++;
  }
  const containsIPv4 = (address: number) => v4.contains(address);
  return {
    empty: count === 0,
    contains(address: string): boolean {
      const direct = parseIPv4(address); // an address clientAddress has normalized already: no second trim
      if (direct >= 0) return v4.contains(direct);
      const a = normalizeAddress(address);
      if (a === null) return false;
      const n = parseIPv4(a);
      return n >= 0 ? v4.contains(n) : list.check(a, "ipv6");
    },
    containsIPv4,
  };
}

/** The IPv4 addresses a list of ranges holds, as start/mask pairs. */
class IPv4Ranges {
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

// BlockList checks an IPv4 address as its mapped IPv6 form (::ffff:a.b.c.d) against IPv6 ranges
// too: "::/0" or "::ffff:10.0.0.0/104" hold IPv4 addresses. The IPv4 part of such a range, or null.
function mappedIPv4(range: AddressRange): { start: number; bits: number } | null {
  const g = ipv6Groups(range.address);
  if (g === null) return null;
  const mapped = [0, 0, 0, 0, 0, 0xffff];
  // The range's first min(bits, 96) bits must equal ::ffff:0:0/96's.
  for (let bit = 0; bit < Math.min(range.bits, 96); bit += 16) {
    const width = Math.min(16, range.bits - bit);
    const mask = (0xffff << (16 - width)) & 0xffff;
    if ((g[bit / 16]! & mask) !== (mapped[bit / 16]! & mask)) return null;
  }
  if (range.bits <= 96) return { start: 0, bits: 0 };
  return { start: ((g[6]! << 16) | g[7]!) >>> 0, bits: range.bits - 96 };
}

export type AddressRange = { address: string; bits: number; type: "ipv4" | "ipv6" };

/** An address range as written ("10.0.0.0/8"; an address alone is its own /32 or /128), or null when it is not one. */
export function parseCidr(text: string): AddressRange | null {
  const slash = text.indexOf("/");
  const address = slash < 0 ? text : text.slice(0, slash);
  // Zone ids ("fe80::1%eth0") pass isIP but mean nothing across hosts.
  const family = address.includes("%") ? 0 : isIP(address);
  if (family === 0) return null;
  const max = family === 4 ? 32 : 128;
  const bits = slash < 0 ? String(max) : text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return null;
  return { address, bits: Number(bits), type: family === 4 ? "ipv4" : "ipv6" };
}

/** The client's address: the peer, or — behind trusted proxies — the rightmost untrusted forwarded hop. */
export function clientAddress(peer: string, headers: ForwardingHeaders, trusted: TrustedProxies): string {
  const self = normalizeAddress(peer);
  if (self === null) return peer; // e.g. a unix socket: nothing to match, nothing to believe
  if (trusted.empty || !trusted.contains(self)) return self;

  const hops = forwardingChain(headers);
  if (hops === null) return self;
  let last = self;
  for (const raw of hops.slice(-MAX_HOPS).reverse()) {
    const hop = parseHop(raw);
    if (hop === null) return last; // anything left of garbage cannot be trusted
    if (!trusted.contains(hop)) return hop;
    last = hop;
  }
  return last;
}

function boundedHeader(headers: ForwardingHeaders, name: string): string | null {
  const v = headers.get(name);
  return v === null || v.length > MAX_HEADER_BYTES ? null : v;
}

// X-Forwarded-For wins whenever it is present: it is what nginx, Caddy, Traefik and HAProxy
// append, and they pass a client's own Forwarded header through untouched, so preferring
// Forwarded would let any client behind such a proxy pick its address. Forwarded is read only
// when there is no X-Forwarded-For at all (a proxy that speaks only RFC 7239). An oversized
// X-Forwarded-For still counts as present (it yields no hops), so padding it cannot make us
// fall back to a forged Forwarded.
function forwardingChain(headers: ForwardingHeaders): string[] | null {
  if (headers.has("x-forwarded-for")) return xffHops(headers);
  return forwardedHops(headers);
}

// A Forwarded header without any for= (e.g. only proto=) says nothing about the client,
// so it counts as absent.
function forwardedHops(headers: ForwardingHeaders): string[] | null {
  const v = boundedHeader(headers, "forwarded");
  if (v === null || !/(^|[;,\s])for\s*=/i.test(v)) return null;
  return splitOutsideQuotes(v, ",").map(forValue);
}

function xffHops(headers: ForwardingHeaders): string[] | null {
  const v = boundedHeader(headers, "x-forwarded-for");
  return v === null ? null : v.split(",");
}

function splitOutsideQuotes(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted && c === "\\") {
      cur += c + (s[i + 1] ?? "");
      i++;
    } else if (c === '"') {
      quoted = !quoted;
      cur += c;
    } else if (c === sep && !quoted) {
      out.push(cur);
      cur = "";
    } else {
      cur += c;
    }
  }
  out.push(cur);
  return out;
}

// The unquoted for= value of one Forwarded element, or "" (malformed) when it is
// missing, duplicated (ambiguous, so possibly forged) or badly quoted.
function forValue(element: string): string {
  const values = splitOutsideQuotes(element, ";")
    .map((pair) => pair.split("="))
    .filter(([name]) => name?.trim().toLowerCase() === "for")
    .map((parts) => parts.slice(1).join("=").trim());
  const v = values.length === 1 ? values[0]! : "";
  if (!v.startsWith('"')) return v;
  if (v.length < 2 || !v.endsWith('"')) return "";
  return v.slice(1, -1).replace(/\\(.)/g, "$1");
}

const PORT = /^(\d{1,5}|_[A-Za-z0-9._-]+)$/; // RFC 7239 allows obfuscated ports too

// One hop as a normalized address, or null for "unknown", "_obfuscated", garbage.
function parseHop(raw: string): string | null {
  const v = raw.trim();
  if (v.startsWith("[")) {
    const end = v.indexOf("]");
    const rest = v.slice(end + 1);
    if (end < 0 || (rest !== "" && !(rest[0] === ":" && PORT.test(rest.slice(1))))) return null;
    const host = v.slice(1, end);
    return isIP(host) === 6 ? normalizeAddress(host) : null;
  }
  if (parseIPv4(v) >= 0) return v; // the common case first: a bare IPv4 address
  const parts = v.split(":");
  if (parts.length === 2) {
    const [host, port] = parts as [string, string];
    return parseIPv4(host) >= 0 && PORT.test(port) ? host : null;
  }
  return normalizeAddress(v);
}

/** Canonical form of an IP (mapped v6 -> dotted v4, v6 compressed lowercase), or null if not an IP. */
export function normalizeAddress(raw: string): string | null {
  if (parseIPv4(raw) >= 0) return raw; // most addresses: nothing to trim
  const a = raw.trim();
  if (parseIPv4(a) >= 0) return a;
  if (a.includes("%") || isIP(a) !== 6) return null;
  const g = ipv6Groups(a);
  if (g === null) return null;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join(".");
  }
  return formatIPv6(g);
}

/** The eight 16-bit groups of a valid IPv6 address (embedded dotted quad allowed), or null. */
export function ipv6Groups(a: string): number[] | null {
  if (isIP(a) !== 6 || a.includes("%")) return null;
  let s = a.toLowerCase();
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const o = tail.split(".").map(Number) as [number, number, number, number];
    s = `${s.slice(0, lastColon + 1)}${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const words = (h: string | undefined) => (h ? h.split(":").map((x) => parseInt(x, 16)) : []);
  const head = words(halves[0]);
  const rest = words(halves[1]);
  const zeros = halves.length === 2 ? 8 - head.length - rest.length : 0;
  const groups = [...head, ...new Array<number>(Math.max(zeros, 0)).fill(0), ...rest];
  return groups.length === 8 && groups.every((x) => x >= 0 && x <= 0xffff) ? groups : null;
}

// RFC 5952: compress the longest (first on tie) run of two or more zero groups.
function formatIPv6(g: number[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = (xs: number[]) => xs.map((x) => x.toString(16)).join(":");
  return best < 0 ? hex(g) : `${hex(g.slice(0, best))}::${hex(g.slice(best + bestLen))}`;
}
