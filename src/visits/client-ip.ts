// Decides which address a request really comes from. Proxy headers are trivially
// forged by clients, so they are believed only when the hop that added them is a
// proxy the operator listed in --trust-proxy.
//
// CIDR matching is by numbers (address-ranges.ts), on the address as parsed once:
// node:net BlockList, which it replaced, parsed the text again on every check.
// test/unit/trusted-ranges.test.ts holds the two equal for every prefix length.
import { ipFamily, isIPv6 } from "./ip-family.ts";
import { parseIPv4 } from "./ipv4.ts";
import { ipv6Groups, validIPv6Groups, formatIPv6 } from "./ipv6.ts";
import { AddressRanges, type AddressRange } from "./address-ranges.ts";

export { ipv6Groups };
export type { AddressRange };

/** The two headers a forwarding chain is read from; a Request's Headers, or the raw values of a recorded click. */
export type ForwardingHeaders = Pick<Headers, "get" | "has">;

export type TrustedProxies = {
  contains(address: string): boolean;
  /** the same for an IPv4 address already parsed (parseIPv4) */
  containsIPv4(address: number): boolean;
  /** the same for the eight groups of an IPv6 address (ipv6Groups) */
  containsIPv6(groups: ArrayLike<number>): boolean;
  readonly empty: boolean;
};

const MAX_HOPS = 20; // bounds the walk so a long forged chain costs nothing
const MAX_HEADER_BYTES = 4096; // oversized headers are more likely abuse than real chains

const NAMED: Record<string, ReadonlyArray<readonly [string, number]>> = {
  loopback: [["127.0.0.0", 8], ["::1", 128]],
  private: [["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["fc00::", 7]],
};

/**
 * Parses --trust-proxy ("a,b/n,loopback,private"; "" = none), or another flag's list of the same form
 * (`flag`: --no-count-from), and throws naming the flag and the first bad entry.
 */
export function parseTrustedProxies(spec: string, flag = "--trust-proxy"): TrustedProxies {
  const ranges = new AddressRanges();
  let count = 0;
  for (const raw of spec.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue; // tolerate "a,,b" and trailing commas
    const named = NAMED[entry.toLowerCase()];
    const listed = named ? named.map(([address, bits]) => ({ address, bits, type: ipFamily(address) === 4 ? "ipv4" : "ipv6" }) as AddressRange) : [parseCidr(entry)];
    for (const range of listed) {
      if (range === null) throw new Error(`${flag}: not an IP or CIDR: ${entry}`);
      ranges.add(range);
    }
    count++;
  }
  const containsIPv4 = (address: number) => ranges.containsIPv4(address);
  // A mapped address (::ffff:a.b.c.d) is its IPv4 address, as BlockList had it (address-ranges.ts).
  const containsIPv6 = (g: ArrayLike<number>) => ranges.containsIPv6(g);
  return {
    empty: count === 0,
    contains(address: string): boolean {
      const direct = parseIPv4(address); // an address clientAddress has normalized already: no second trim
      if (direct >= 0) return ranges.containsIPv4(direct);
      const a = normalizeAddress(address);
      if (a === null) return false;
      const n = parseIPv4(a);
      if (n >= 0) return ranges.containsIPv4(n);
      const g = validIPv6Groups(a);
      return g !== null && containsIPv6(g);
    },
    containsIPv4,
    containsIPv6,
  };
}


/** An address range as written ("10.0.0.0/8"; an address alone is its own /32 or /128), or null when it is not one. */
export function parseCidr(text: string): AddressRange | null {
  const slash = text.indexOf("/");
  const address = slash < 0 ? text : text.slice(0, slash);
  // Zone ids ("fe80::1%eth0") pass ipFamily but mean nothing across hosts.
  const family = address.includes("%") ? 0 : ipFamily(address);
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
    return isIPv6(host) ? normalizeAddress(host) : null;
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
  if (a.includes("%") || !isIPv6(a)) return null;
  const g = validIPv6Groups(a);
  if (g === null) return null;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join(".");
  }
  return formatIPv6(g);
}
