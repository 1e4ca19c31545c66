// The outbound address policy (src/outbound/): the classifier of special-purpose addresses, range
// by range with its edges, every form of IPv4 carried in IPv6 with a loopback and a public address
// (strings only: nothing is sent anywhere), and the check of what a name resolves to (a resolver
// given here: no lookup leaves the process).

import { describe, expect, test } from "bun:test";
import { describeSpecial, specialAddress, type AddressKind } from "../../src/outbound/special-addresses.ts";
import { OutboundRefused, OutboundUnresolved, reachableAddress, writtenHostRefusal, type OutboundPolicy } from "../../src/outbound/reach.ts";
import { yourlsClientOptions } from "../../src/imports/sources/yourls-connection.ts";
import { httpSender } from "../../src/events/sender.ts";

type Row = [address: string, kind: AddressKind, rfc: string];

const IPV4_SPECIAL: Row[] = [
  ["0.0.0.0", "unspecified", "RFC 1122"], ["0.0.0.1", "reserved", "RFC 791"], ["0.255.255.255", "reserved", "RFC 791"],
  ["10.0.0.0", "private", "RFC 1918"], ["10.255.255.255", "private", "RFC 1918"],
  ["100.64.0.0", "shared", "RFC 6598"], ["100.127.255.255", "shared", "RFC 6598"],
  ["127.0.0.1", "loopback", "RFC 1122"], ["127.0.0.0", "loopback", "RFC 1122"], ["127.255.255.255", "loopback", "RFC 1122"],
  ["169.254.0.0", "link-local", "RFC 3927"], ["169.254.169.254", "link-local", "RFC 3927"], ["169.254.255.255", "link-local", "RFC 3927"],
  ["172.16.0.0", "private", "RFC 1918"], ["172.31.255.255", "private", "RFC 1918"],
  ["192.0.0.0", "reserved", "RFC 6890"], ["192.0.0.8", "reserved", "RFC 6890"], ["192.0.0.11", "reserved", "RFC 6890"], ["192.0.0.170", "reserved", "RFC 6890"], ["192.0.0.255", "reserved", "RFC 6890"],
  ["192.0.2.0", "documentation", "RFC 5737"], ["192.0.2.255", "documentation", "RFC 5737"],
  ["192.88.99.0", "reserved", "RFC 7526"], ["192.88.99.255", "reserved", "RFC 7526"],
  ["192.168.0.0", "private", "RFC 1918"], ["192.168.255.255", "private", "RFC 1918"],
  ["198.18.0.0", "benchmarking", "RFC 2544"], ["198.19.255.255", "benchmarking", "RFC 2544"],
  ["198.51.100.0", "documentation", "RFC 5737"], ["198.51.100.255", "documentation", "RFC 5737"],
  ["203.0.113.0", "documentation", "RFC 5737"], ["203.0.113.255", "documentation", "RFC 5737"],
  ["224.0.0.0", "multicast", "RFC 5771"], ["239.255.255.255", "multicast", "RFC 5771"],
  ["240.0.0.0", "reserved", "RFC 1112"], ["255.255.255.254", "reserved", "RFC 1112"],
  ["255.255.255.255", "broadcast", "RFC 919"],
];

const IPV4_GLOBAL = [
  "1.1.1.1", "8.8.8.8", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "126.255.255.255", "128.0.0.0", "169.253.255.255", "169.255.0.0",
  "172.15.255.255", "172.32.0.0", "191.255.255.255", "192.0.0.9", "192.0.0.10", "192.0.1.255", "192.0.3.0", "192.31.196.1", "192.52.193.1",
  "192.88.98.255", "192.88.100.0", "192.167.255.255", "192.169.0.0", "192.175.48.1", "198.17.255.255", "198.20.0.0", "198.51.99.255", "198.51.101.0",
  "203.0.112.255", "203.0.114.0", "223.255.255.255",
];

const IPV6_SPECIAL: Row[] = [
  ["::", "unspecified", "RFC 4291"], ["0:0:0:0:0:0:0:0", "unspecified", "RFC 4291"], ["::1", "loopback", "RFC 4291"], ["0:0:0:0:0:0:0:1", "loopback", "RFC 4291"], ["[::1]", "loopback", "RFC 4291"],
  // Finding 7 of #33: the local-use NAT64 prefix, whatever it carries
  ["64:ff9b:1::", "reserved", "RFC 8215"], ["64:ff9b:1::7f00:1", "reserved", "RFC 8215"], ["64:ff9b:1::127.0.0.1", "reserved", "RFC 8215"],
  ["64:ff9b:1::8.8.8.8", "reserved", "RFC 8215"], ["64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "reserved", "RFC 8215"],
  ["100::", "reserved", "RFC 6666"], ["100::ffff:ffff:ffff:ffff", "reserved", "RFC 6666"],
  ["100:0:0:1::", "reserved", "RFC 9780"], ["100:0:0:1:ffff:ffff:ffff:ffff", "reserved", "RFC 9780"],
  ["2001:1::4", "reserved", "RFC 2928"], ["2001:4:111::1", "reserved", "RFC 2928"], ["2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", "reserved", "RFC 2928"],
  ["2001:2::", "benchmarking", "RFC 5180"], ["2001:2:0:ffff:ffff:ffff:ffff:ffff", "benchmarking", "RFC 5180"],
  ["2001:10::", "reserved", "RFC 4843"], ["2001:1f:ffff::1", "reserved", "RFC 4843"],
  ["2001:db8::", "documentation", "RFC 3849"], ["2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "documentation", "RFC 3849"],
  ["3fff::", "documentation", "RFC 9637"], ["3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", "documentation", "RFC 9637"],
  ["5f00::", "reserved", "RFC 9602"], ["5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "reserved", "RFC 9602"],
  ["fc00::", "private", "RFC 4193"], ["fd12:3456::1", "private", "RFC 4193"], ["fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "private", "RFC 4193"],
  ["fe80::", "link-local", "RFC 4291"], ["fe80::1%eth0", "link-local", "RFC 4291"], ["febf:ffff::1", "link-local", "RFC 4291"],
  ["fec0::1", "private", "RFC 3879"], ["feff:ffff::1", "private", "RFC 3879"],
  ["ff00::", "multicast", "RFC 4291"], ["ff02::1", "multicast", "RFC 4291"], ["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "multicast", "RFC 4291"],
  // Outside 2000::/3, the only global unicast space
  ["4000::1", "reserved", "RFC 4291"], ["1fff:ffff::1", "reserved", "RFC 4291"], ["::2:0:0", "reserved", "RFC 4291"],
];

const IPV6_GLOBAL = [
  "2000::1", "2606:4700:4700::1111", "2001:4860:4860::8888", "2001:200::", "2001:db7:ffff::1", "2001:db9::", "3ffe::1", "3fff:1000::", "2c0f:ffff::1",
  // the globally reachable assignments inside 2001::/23
  "2001:1::1", "2001:1::2", "2001:1::3", "2001:3::", "2001:3:ffff::1", "2001:4:112::", "2001:4:112:ffff::1", "2001:20::1", "2001:2f:ffff::1", "2001:30::1", "2001:3f:ffff::1",
];

/** Each form that carries an IPv4 address, written with 127.0.0.1 and with 8.8.8.8 (Teredo inverts the client's bits). */
const CARRIED: { form: string; loopback: string[]; outside: string[] }[] = [
  { form: "IPv4-mapped ::ffff:0:0/96", loopback: ["::ffff:127.0.0.1", "::ffff:7f00:1", "::FFFF:7F00:1", "0:0:0:0:0:ffff:7f00:1"], outside: ["::ffff:8.8.8.8", "::ffff:808:808"] },
  { form: "SIIT ::ffff:0:0:0/96", loopback: ["::ffff:0:127.0.0.1", "::ffff:0:7f00:1"], outside: ["::ffff:0:8.8.8.8", "::ffff:0:808:808"] },
  { form: "IPv4-compatible ::/96", loopback: ["::127.0.0.1", "::7f00:1"], outside: ["::8.8.8.8", "::808:808"] },
  { form: "NAT64 64:ff9b::/96", loopback: ["64:ff9b::127.0.0.1", "64:ff9b::7f00:1"], outside: ["64:ff9b::8.8.8.8", "64:ff9b::808:808"] },
  { form: "6to4 2002::/16", loopback: ["2002:7f00:1::", "2002:7f00:1:1::1"], outside: ["2002:808:808::", "2002:808:808:1::1"] },
  { form: "Teredo 2001::/32", loopback: ["2001:0:4136:e378:8000:63bf:80ff:fffe"], outside: [] },
];

describe("specialAddress: every special-purpose range, with its edges", () => {
  test.each([...IPV4_SPECIAL, ...IPV6_SPECIAL])("%s is %s (%s)", (address, kind, rfc) => {
    expect(specialAddress(address)).toMatchObject({ kind, rfc });
    expect(specialAddress(address)?.carried).toBeUndefined();
  });

  test.each([...IPV4_GLOBAL, ...IPV6_GLOBAL])("%s is globally reachable", (address) => {
    expect(specialAddress(address)).toBeNull();
  });

  test("a name is no address: it is judged by what it resolves to", () => {
    for (const name of ["localhost", "example.com", "0x7f.1", "2130706433", "1.2.3.04"]) expect(specialAddress(name)).toBeNull();
  });
});

describe("IPv4 carried in IPv6: judged by the IPv4 address", () => {
  for (const { form, loopback, outside } of CARRIED) {
    test(`${form}: with 127.0.0.1 it is loopback; with 8.8.8.8 it is as public as 8.8.8.8`, () => {
      for (const address of loopback) expect({ address, special: specialAddress(address) }).toEqual({ address, special: { kind: "loopback", range: "127.0.0.0/8", rfc: "RFC 1122", carried: "127.0.0.1" } });
      for (const address of outside) expect({ address, special: specialAddress(address) }).toEqual({ address, special: null });
    });
  }

  test("Teredo stays refused with a public client: 2001::/32 is in 2001::/23", () => {
    expect(specialAddress("2001:0:4136:e378:8000:63bf:f7f7:f7f7")).toEqual({ kind: "reserved", range: "2001::/23", rfc: "RFC 2928" });
  });

  test("other carried ranges, and an exception carried", () => {
    expect(specialAddress("::ffff:10.0.0.1")).toMatchObject({ kind: "private", carried: "10.0.0.1" });
    expect(specialAddress("64:ff9b::a9fe:a9fe")).toMatchObject({ kind: "link-local", carried: "169.254.169.254" });
    expect(specialAddress("2002:c0a8:101::1")).toMatchObject({ kind: "private", carried: "192.168.1.1" });
    expect(specialAddress("::ffff:192.0.2.1")).toMatchObject({ kind: "documentation", carried: "192.0.2.1" });
    expect(specialAddress("::ffff:192.0.0.9")).toBeNull();
  });

  test("the message names what the address carries, its kind and its RFC", () => {
    expect(describeSpecial(specialAddress("64:ff9b::7f00:1")!)).toBe("an address carrying 127.0.0.1, a loopback address (RFC 1122)");
    expect(describeSpecial(specialAddress("169.254.169.254")!)).toBe("a link-local address (RFC 3927)");
    expect(writtenHostRefusal("[64:ff9b::7f00:1]", { allowSpecial: false, flag: "--webhook-allow-private" })).toBe(
      "64:ff9b::7f00:1 is an address carrying 127.0.0.1, a loopback address (RFC 1122); reached only with --webhook-allow-private",
    );
  });
});

describe("reachableAddress: checked after the lookup, every address", () => {
  const strict: OutboundPolicy = { allowSpecial: false, flag: "--import-allow-private" };
  const open: OutboundPolicy = { allowSpecial: true, flag: null };
  const resolver = (table: Record<string, string[]>) => async (name: string) => table[name] ?? [];

  test("a name that resolves to a special-purpose address is refused, naming the address and the flag", async () => {
    const refused = reachableAddress("localhost", strict, resolver({ localhost: ["127.0.0.1"] }));
    await expect(refused).rejects.toBeInstanceOf(OutboundRefused);
    await expect(refused).rejects.toThrow("localhost resolves to 127.0.0.1, a loopback address (RFC 1122); reached only with --import-allow-private");
  });

  test("one special-purpose address among public ones is enough to refuse", async () => {
    await expect(reachableAddress("mixed.example", strict, resolver({ "mixed.example": ["93.184.216.34", "10.0.0.1"] }))).rejects.toBeInstanceOf(OutboundRefused);
    await expect(reachableAddress("nat64.example", strict, resolver({ "nat64.example": ["2606:4700::1", "64:ff9b:1::7f00:1"] }))).rejects.toBeInstanceOf(OutboundRefused);
  });

  test("a public name gives its first address; with leave, a special one too", async () => {
    expect(await reachableAddress("public.example", strict, resolver({ "public.example": ["2606:4700::1", "93.184.216.34"] }))).toBe("2606:4700::1");
    expect(await reachableAddress("localhost", open, resolver({ localhost: ["127.0.0.1"] }))).toBe("127.0.0.1");
  });

  test("a written address is judged as written, without a lookup", async () => {
    const never = async () => {
      throw new Error("looked up");
    };
    await expect(reachableAddress("[::ffff:169.254.169.254]", strict, never)).rejects.toBeInstanceOf(OutboundRefused);
    expect(await reachableAddress("8.8.8.8", strict, never)).toBe("8.8.8.8");
    expect(writtenHostRefusal("127.0.0.1", strict)).toBe("127.0.0.1 is a loopback address (RFC 1122); reached only with --import-allow-private");
    expect(writtenHostRefusal("127.0.0.1", open)).toBeNull();
    expect(writtenHostRefusal("localhost", strict)).toBeNull();
  });

  test("a name that does not resolve is told apart from a refusal", async () => {
    await expect(reachableAddress("nowhere.example", strict, resolver({}))).rejects.toBeInstanceOf(OutboundUnresolved);
  });
});

describe("the YOURLS client connects to the checked address", () => {
  test("the address is the host; the name stays the certificate's when the URL asks for it to be checked", () => {
    const options = yourlsClientOptions(new URL("mysql://reader@db.example:3307/yourls"), "192.0.2.7", "pw");
    expect(options).toMatchObject({ hostname: "192.0.2.7", url: "mysql://reader@db.example:3307/yourls", password: "pw", connectionTimeout: 15 });
    expect(options.tls).toBeUndefined();
    const verified = yourlsClientOptions(new URL("mysql://reader@db.example/yourls?sslmode=verify-full"), "192.0.2.7", null);
    expect(verified.tls).toMatchObject({ serverName: "db.example" });
  });
});

describe("webhooks send under the same policy", () => {
  test("a name resolving to loopback is refused without --webhook-allow-private and nothing is sent; with it, the name is in Host", async () => {
    const hosts: (string | null)[] = [];
    const receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => (hosts.push(request.headers.get("host")), new Response(null, { status: 204 })) });
    try {
      // Two segments: not a short link, so the contract preload leaves the answer alone.
      const url = `http://localhost:${receiver.port}/hooks/in`;
      const refused = await httpSender({ allowPrivate: false, userAgent: "test" })(url, {}, "{}");
      expect(refused).toEqual({ code: null, retryAfter: null, error: "localhost resolves to 127.0.0.1, a loopback address (RFC 1122); reached only with --webhook-allow-private" });
      expect(hosts).toEqual([]);
      const sent = await httpSender({ allowPrivate: true, userAgent: "test" })(url, {}, "{}");
      expect(sent.code).toBe(204);
      expect(hosts).toEqual([`localhost:${receiver.port}`]);
    } finally {
      receiver.stop(true);
    }
  });
});
