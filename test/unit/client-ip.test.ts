import { test, expect, describe } from "bun:test";
import { clientAddress, normalizeAddress, parseTrustedProxies } from "../../src/visits/client-ip.ts";

const h = (init: Record<string, string> = {}) => new Headers(init);

describe("parseTrustedProxies", () => {
  test("empty spec trusts nobody", () => {
    for (const spec of ["", " ", ",,"]) {
      const t = parseTrustedProxies(spec);
      expect(t.empty).toBe(true);
      expect(t.contains("127.0.0.1")).toBe(false);
    }
  });

  test.each([
    ["10.0.0.0/8", "10.0.0.0", true],
    ["10.0.0.0/8", "10.255.255.255", true],
    ["10.0.0.0/8", "9.255.255.255", false],
    ["10.0.0.0/8", "11.0.0.0", false],
    ["192.168.1.7", "192.168.1.7", true],
    ["192.168.1.7", "192.168.1.8", false],
    ["10.1.2.3/8", "10.200.0.1", true], // host bits in the CIDR are ignored
    ["0.0.0.0/0", "203.0.113.9", true],
    ["1.2.3.4/32", "1.2.3.5", false],
    // IPv6 edges: first and last address of the range, and one step outside either side
    ["2001:db8::/32", "2001:db8::", true],
    ["2001:db8::/32", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", true],
    ["2001:db8::/32", "2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", false],
    ["2001:db8::/32", "2001:db9::", false],
    ["fd00::/8", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", true],
    ["fd00::/8", "fe00::", false],
    ["fd00::/8", "fcff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", false],
    ["2001:db8::8/125", "2001:db8::f", true],
    ["2001:db8::8/125", "2001:db8::10", false],
    ["2001:db8::8/125", "2001:db8::7", false],
    ["2001:db8:0:0:8000::/65", "2001:db8::8000:0:0:0", true],
    ["2001:db8:0:0:8000::/65", "2001:db8::7fff:ffff:ffff:ffff", false],
    ["::1", "::1", true],
    ["::1", "0:0:0:0:0:0:0:1", true],
    ["::1", "::2", false],
    ["2001:DB8::1", "2001:db8::1", true],
    // mapped addresses match the IPv4 rules, in both directions
    ["10.0.0.0/8", "::ffff:10.1.2.3", true],
    ["10.0.0.0/8", "::ffff:a01:203", true],
    ["10.0.0.0/8", "::ffff:11.1.2.3", false],
    ["::ffff:10.0.0.0/104", "10.9.9.9", true],
    ["::ffff:10.0.0.0/104", "11.9.9.9", false],
    // IPv4 rules never match unrelated IPv6 and vice versa
    ["0.0.0.0/0", "2001:db8::1", false],
    ["fc00::/7", "10.0.0.1", false],
  ] as const)("%s contains %s -> %p", (spec, addr, expected) => {
    const t = parseTrustedProxies(spec);
    expect(t.empty).toBe(false);
    expect(t.contains(addr)).toBe(expected);
  });

  test.each([
    ["loopback", "127.0.0.1", true],
    ["loopback", "127.255.255.255", true],
    ["loopback", "::1", true],
    ["loopback", "::ffff:127.0.0.1", true],
    ["loopback", "128.0.0.1", false],
    ["loopback", "::2", false],
    ["private", "10.0.0.1", true],
    ["private", "172.16.0.0", true],
    ["private", "172.31.255.255", true],
    ["private", "172.15.255.255", false],
    ["private", "172.32.0.0", false],
    ["private", "192.168.0.1", true],
    ["private", "192.169.0.1", false],
    ["private", "fc00::", true],
    ["private", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", true],
    ["private", "fe00::", false],
    ["private", "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", false],
    ["private", "127.0.0.1", false],
    ["LOOPBACK, private", "10.1.1.1", true],
    [" 127.0.0.1 , 10.0.0.0/8 ,::1, fd00::/8 ", "fd12::1", true],
  ] as const)("named/mixed %p contains %s -> %p", (spec, addr, expected) => {
    expect(parseTrustedProxies(spec).contains(addr)).toBe(expected);
  });

  test("contains() rejects non-addresses instead of throwing", () => {
    const t = parseTrustedProxies("0.0.0.0/0,::/0");
    for (const x of ["", "unknown", "_hidden", "1.2.3", "example.com", "fe80::1%eth0"]) {
      expect(t.contains(x)).toBe(false);
    }
  });

  test.each([
    "1.2.3",
    "256.0.0.1",
    "01.2.3.4",
    "example.com",
    "10.0.0.0/33",
    "10.0.0.0/-1",
    "10.0.0.0/",
    "10.0.0.0/8/8",
    "10.0.0.0/a",
    "::/129",
    "2001:db8::/0x40",
    "1::2::3",
    "fe80::1%eth0",
    "localhost",
    "/8",
  ])("bad entry %p throws naming it", (bad) => {
    expect(() => parseTrustedProxies(`127.0.0.1,${bad},::1`)).toThrow(`--trust-proxy: not an IP or CIDR: ${bad}`);
  });
});

describe("normalizeAddress", () => {
  test.each([
    ["1.2.3.4", "1.2.3.4"],
    ["::ffff:1.2.3.4", "1.2.3.4"],
    ["::FFFF:102:304", "1.2.3.4"],
    ["0:0:0:0:0:ffff:1.2.3.4", "1.2.3.4"],
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"], // first of two equal runs
    ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"], // single zero group stays
    ["0:0:0:0:0:0:0:0", "::"],
    ["::1.2.3.4", "::102:304"], // deprecated IPv4-compatible form is not "mapped"
    ["  10.0.0.1 ", "10.0.0.1"],
  ])("%p -> %p", (raw, want) => {
    expect(normalizeAddress(raw)).toBe(want);
  });

  test.each(["", "unknown", "_x", "1.2.3", "1.2.3.4:80", "[::1]", "fe80::1%eth0", "::ffff:999.1.1.1"])(
    "%p is not an address",
    (raw) => {
      expect(normalizeAddress(raw)).toBeNull();
    },
  );
});

describe("clientAddress", () => {
  const none = parseTrustedProxies("");
  const proxies = parseTrustedProxies("10.0.0.0/8,2001:db8:1::/48");

  const spoofing = {
    "x-forwarded-for": "6.6.6.6",
    "x-real-ip": "6.6.6.7",
    "cf-connecting-ip": "6.6.6.8",
    "true-client-ip": "6.6.6.9",
    forwarded: "for=6.6.6.10",
  };

  test.each([
    ["no trust configured", "203.0.113.5", none],
    ["peer not in trusted list", "203.0.113.5", proxies],
    ["peer just outside a v6 trusted range", "2001:db8:2::1", proxies],
  ] as const)("%s -> peer even with spoofed headers", (_name, peer, trusted) => {
    expect(clientAddress(peer, h(spoofing), trusted)).toBe(peer);
  });

  test("X-Real-IP, CF-Connecting-IP and True-Client-IP are never believed, even from a trusted peer", () => {
    const { "x-forwarded-for": _x, forwarded: _f, ...others } = spoofing;
    expect(clientAddress("10.0.0.1", h(others), proxies)).toBe("10.0.0.1");
  });

  test("peer is returned normalized", () => {
    expect(clientAddress("::ffff:198.51.100.7", h(spoofing), none)).toBe("198.51.100.7");
    expect(clientAddress("2001:DB8:0::5", h(), none)).toBe("2001:db8::5");
  });

  test("a peer that is not an IP (unix socket) is returned as is and not trusted", () => {
    expect(clientAddress("unix:/run/s.sock", h(spoofing), parseTrustedProxies("0.0.0.0/0,::/0"))).toBe(
      "unix:/run/s.sock",
    );
  });

  test.each([
    // [description, x-forwarded-for, expected]
    ["spoofed, real, trusted proxy2 -> real", "6.6.6.6, 198.51.100.1, 10.0.0.2", "198.51.100.1"],
    ["single hop", "198.51.100.1", "198.51.100.1"],
    ["no spaces", "6.6.6.6,198.51.100.1,10.0.0.2", "198.51.100.1"],
    ["all trusted -> leftmost", "10.0.0.9, 10.0.0.8, 10.0.0.7", "10.0.0.9"],
    ["malformed rightmost hop -> peer", "198.51.100.1, garbage", "10.0.0.1"],
    ["malformed after trusted hop -> that hop", "198.51.100.1, nonsense, 10.0.0.5", "10.0.0.5"],
    ["malformed left of the client is irrelevant", "garbage, 198.51.100.1, 10.0.0.5", "198.51.100.1"],
    ["empty entry is malformed", "198.51.100.1, , 10.0.0.5", "10.0.0.5"],
    ["unknown is malformed", "198.51.100.1, unknown", "10.0.0.1"],
    ["empty header -> peer", "", "10.0.0.1"],
    ["mapped hop is returned as IPv4", "::ffff:198.51.100.1, 10.0.0.2", "198.51.100.1"],
    ["mapped trusted hop is skipped", "198.51.100.1, ::ffff:10.0.0.2", "198.51.100.1"],
    ["v6 trusted hop skipped (last of /48)", "2001:db8::9, 2001:db8:1:ffff:ffff:ffff:ffff:ffff", "2001:db8::9"],
    ["v6 hop just outside /48 is the client", "2001:db8::9, 2001:db8:2::", "2001:db8:2::"],
    ["v6 hop is returned canonical", "2001:DB8:0:0::9", "2001:db8::9"],
    ["ipv4:port tolerated", "198.51.100.1:5555, 10.0.0.2", "198.51.100.1"],
    ["ipv4:junk is malformed", "198.51.100.1:x, 10.0.0.2", "10.0.0.2"],
    ["[v6]:port tolerated", "[2001:db8::9]:5555", "2001:db8::9"],
    ["bare v6 with port-like tail is just v6", "2001:db8::9:80", "2001:db8::9:80"],
  ] as const)("XFF: %s", (_name, xff, expected) => {
    expect(clientAddress("10.0.0.1", h({ "x-forwarded-for": xff }), proxies)).toBe(expected);
  });

  test.each([
    ["plain", "for=198.51.100.1", "198.51.100.1"],
    ["chain with trusted right hop", "for=6.6.6.6, for=198.51.100.1;proto=https, for=10.0.0.2", "198.51.100.1"],
    ["quoted v6 with brackets and port", 'for="[2001:db8::1]:4711"', "2001:db8::1"],
    ["quoted v6 with brackets, no port", 'for="[2001:db8::1]"', "2001:db8::1"],
    ["v4 with port", "for=192.0.2.60:8080", "192.0.2.60"],
    ["quoted v4 with port", 'for="192.0.2.60:8080"', "192.0.2.60"],
    ["obfuscated port", 'for="192.0.2.60:_abc"', "192.0.2.60"],
    ["case-insensitive parameter name", "For=198.51.100.1", "198.51.100.1"],
    ["spaces around pairs", "proto=https ; for=198.51.100.1 ; by=10.0.0.1", "198.51.100.1"],
    ["quoted comma does not split elements", 'for=198.51.100.1;by="a,b", for=10.0.0.2', "198.51.100.1"],
    ["escaped quote inside quotes", 'for=198.51.100.1;ext="x\\"y", for=10.0.0.2', "198.51.100.1"],
    ["quoted-pair in the for value is unescaped", 'for="\\198.51.100.1"', "198.51.100.1"],
    ["mapped in brackets", 'for="[::ffff:198.51.100.1]:80"', "198.51.100.1"],
    ["unknown is malformed", "for=198.51.100.1, for=unknown", "10.0.0.1"],
    ["obfuscated identifier is malformed", "for=198.51.100.1, for=_hidden, for=10.0.0.3", "10.0.0.3"],
    ["element without for is malformed", "for=198.51.100.1, proto=http, for=10.0.0.3", "10.0.0.3"],
    ["duplicate for in one element is malformed", "for=198.51.100.1;for=198.51.100.2", "10.0.0.1"],
    ["unterminated quote is malformed", 'for="198.51.100.1', "10.0.0.1"],
    ["unbracketed quoted v6 tolerated", 'for="2001:db8::1"', "2001:db8::1"],
    ["bracketed v4 is malformed", 'for="[198.51.100.1]"', "10.0.0.1"],
    ["bad port is malformed", 'for="[2001:db8::1]:http"', "10.0.0.1"],
    ["bad v4 port is malformed", 'for="192.0.2.60:http"', "10.0.0.1"],
    ["empty v4 port is malformed", 'for="192.0.2.60:"', "10.0.0.1"],
    ["junk after bracket is malformed", 'for="[2001:db8::1]x"', "10.0.0.1"],
    ["all trusted -> leftmost", "for=10.0.0.7, for=10.0.0.8", "10.0.0.7"],
  ] as const)("Forwarded: %s", (_name, fwd, expected) => {
    expect(clientAddress("10.0.0.1", h({ forwarded: fwd }), proxies)).toBe(expected);
  });

  // nginx/Caddy/Traefik append X-Forwarded-For and pass a client's Forwarded through unchanged:
  // if Forwarded won, a client could name any address. So X-Forwarded-For wins.
  test("X-Forwarded-For is preferred over Forwarded (a client-supplied Forwarded passed through a proxy)", () => {
    const headers = h({ forwarded: "for=6.6.6.6", "x-forwarded-for": "198.51.100.2" });
    expect(clientAddress("10.0.0.1", headers, proxies)).toBe("198.51.100.2");
  });

  test("Forwarded is used when there is no X-Forwarded-For", () => {
    expect(clientAddress("10.0.0.1", h({ forwarded: "for=198.51.100.1" }), proxies)).toBe("198.51.100.1");
  });

  test("an unusable X-Forwarded-For (empty, oversized, garbage) never falls back to Forwarded", () => {
    const big = Array.from({ length: 500 }, () => "10.0.0.3").join(",");
    for (const xff of ["", big, "garbage"]) {
      const headers = h({ forwarded: "for=6.6.6.6", "x-forwarded-for": xff });
      expect(clientAddress("10.0.0.1", headers, proxies)).toBe("10.0.0.1");
    }
  });

  test("a Forwarded header with no for= does not hide X-Forwarded-For", () => {
    const headers = h({ forwarded: "proto=https;host=example.com", "x-forwarded-for": "198.51.100.2" });
    expect(clientAddress("10.0.0.1", headers, proxies)).toBe("198.51.100.2");
  });

  test("multiple header lines are read as one chain", () => {
    const headers = new Headers();
    headers.append("x-forwarded-for", "198.51.100.1");
    headers.append("x-forwarded-for", "10.0.0.2");
    expect(clientAddress("10.0.0.1", headers, proxies)).toBe("198.51.100.1");
  });

  test("only the last 20 hops are examined", () => {
    const trustedHops = Array.from({ length: 19 }, (_, i) => `10.0.1.${i}`);
    // client is the 20th hop from the right: found
    expect(clientAddress("10.0.0.1", h({ "x-forwarded-for": ["198.51.100.1", ...trustedHops].join(",") }), proxies)).toBe(
      "198.51.100.1",
    );
    // client is the 21st: out of reach, so the leftmost examined (trusted) hop is returned
    const chain = ["198.51.100.1", "10.0.2.0", ...trustedHops].join(",");
    expect(clientAddress("10.0.0.1", h({ "x-forwarded-for": chain }), proxies)).toBe("10.0.2.0");
    const fwd = ["198.51.100.1", "10.0.2.0", ...trustedHops].map((a) => `for=${a}`).join(", ");
    expect(clientAddress("10.0.0.1", h({ forwarded: fwd }), proxies)).toBe("10.0.2.0");
  });

  test("headers over 4 KB are treated as absent", () => {
    const pad = Array.from({ length: 500 }, () => "10.0.0.3").join(",");
    const big = `${pad},198.51.100.1`;
    expect(big.length).toBeGreaterThan(4096);
    expect(clientAddress("10.0.0.1", h({ "x-forwarded-for": big }), proxies)).toBe("10.0.0.1");
    // an oversized Forwarded changes nothing: X-Forwarded-For is used
    const bigFwd = `for=198.51.100.9;ext="${"x".repeat(4100)}"`;
    const headers = h({ forwarded: bigFwd, "x-forwarded-for": "198.51.100.2" });
    expect(clientAddress("10.0.0.1", headers, proxies)).toBe("198.51.100.2");
    // exactly at the limit still counts
    const body = `${"10.0.0.3,".repeat(453)}198.51.100.1`;
    const exact = body.replace(",", `,${" ".repeat(4096 - body.length)}`); // inner spaces survive Headers' trimming
    expect(exact.length).toBe(4096);
    expect(clientAddress("10.0.0.1", h({ "x-forwarded-for": exact }), proxies)).toBe("198.51.100.1");
    // one byte more does not
    const over = exact.replace(",", ", ");
    expect(over.length).toBe(4097);
    expect(clientAddress("10.0.0.1", h({ "x-forwarded-for": over }), proxies)).toBe("10.0.0.1");
  });

  test("a mapped trusted peer is recognised", () => {
    expect(clientAddress("::ffff:10.0.0.1", h({ "x-forwarded-for": "198.51.100.1" }), proxies)).toBe("198.51.100.1");
  });

  test("a trusted peer with no forwarding headers is the client", () => {
    expect(clientAddress("10.0.0.1", h(), proxies)).toBe("10.0.0.1");
  });
});
