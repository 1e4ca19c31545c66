// The range table must answer what maxmind's Reader answers: for the first and the last address of
// every range it holds, on the embedded database and on databases written here in each layout
// MaxMind uses (24/28/32-bit records, IPv4-only, IPv6 with the IPv4 tree aliased).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Reader, type CountryResponse } from "maxmind";
import { buildCountryTable, type CountryTable } from "../../src/visits/country-table.ts";
import { openCountryLookup } from "../../src/visits/geo.ts";
import { formatIPv4 } from "../../src/visits/ipv4.ts";
import { writeMmdb, type MmdbNetwork } from "../support/mmdb-writer.ts";

const EMBEDDED = join(import.meta.dir, "../../node_modules/@ip-location-db/geolite2-country-mmdb/geolite2-country.mmdb");

type Record = { country_code?: string; country?: { iso_code?: string }; registered_country?: { iso_code?: string } } | null;
const codeOf = (found: unknown) => {
  const record = found as Record;
  return record?.country_code ?? (record?.country?.iso_code ?? record?.registered_country?.iso_code)?.toUpperCase() ?? null;
};

const big = (w: readonly number[]) => (BigInt(w[0]!) << 96n) | (BigInt(w[1]!) << 64n) | (BigInt(w[2]!) << 32n) | BigInt(w[3]!);
const words = (n: bigint) => [96n, 64n, 32n, 0n].map((shift) => Number((n >> shift) & 0xffffffffn));
const ipv6Text = (w: readonly number[]) => w.map((x) => `${(x >>> 16).toString(16)}:${(x & 0xffff).toString(16)}`).join(":");

/** Every range's first and last address where the table and the Reader disagree (at most 10). */
function disagreements(table: CountryTable, reader: Reader<CountryResponse>): string[] {
  const out: string[] = [];
  const say = (address: string, mine: string | null, theirs: string | null) => {
    if (mine !== theirs && out.length < 10) out.push(`${address}: table ${mine}, Reader ${theirs}`);
  };
  const { ipv4, ipv6 } = table.starts();
  for (let i = 0; i < ipv4.length; i++) {
    for (const n of [ipv4[i]!, (i + 1 < ipv4.length ? ipv4[i + 1]! : 2 ** 32) - 1]) say(formatIPv4(n), table.ipv4(n), codeOf(reader.get(formatIPv4(n))));
  }
  for (let i = 0; i < ipv6.length; i++) {
    for (const w of [ipv6[i]!, words((i + 1 < ipv6.length ? big(ipv6[i + 1]!) : 1n << 128n) - 1n)]) say(ipv6Text(w), table.ipv6(w), codeOf(reader.get(ipv6Text(w))));
  }
  return out;
}

function tableOf(bytes: Buffer, options?: { maxDeepRanges?: number }) {
  const reader = new Reader<CountryResponse>(bytes);
  return { reader, table: buildCountryTable(bytes, reader.metadata, (address) => codeOf(reader.get(address)), options) };
}

describe("the embedded GeoLite2 Country database as a range table", () => {
  const { reader, table } = tableOf(readFileSync(EMBEDDED));

  test("the country of the first and last address of every IPv4 and IPv6 range is the Reader's", () => {
    expect(table.hasIPv6).toBe(true); // every network is at most a /64 (but the IPv4 tree's own /64)
    expect(table.ranges.ipv4).toBeGreaterThan(100_000);
    expect(table.ranges.ipv6).toBeGreaterThan(100_000);
    expect(disagreements(table, reader)).toEqual([]);
  }, 60_000);

  test("adjacent networks of one country are one range", () => {
    const { ipv4 } = table.starts();
    let same = 0;
    for (let i = 1; i < ipv4.length; i++) if (table.ipv4(ipv4[i]!) === table.ipv4(ipv4[i - 1]!)) same++;
    expect(same).toBe(0);
  });

  test("openCountryLookup answers as the Reader for random public addresses, as text", async () => {
    const geo = await openCountryLookup(null);
    let s = 36;
    const next = () => (s = (s * 1664525 + 1013904223) >>> 0);
    for (let i = 0; i < 20_000; i++) {
      // "::a.b.c.d" is the IPv4 tree read through the IPv6 one (the table's marker under ::/64).
      const address = i % 3 === 0 ? formatIPv4(next()) : i % 3 === 1 ? ipv6Text([0x20000000 + (next() % 0x10000000), next(), next(), next()]) : `::${formatIPv4(next())}`;
      const expected = /^(10|127)\.|^192\.168\.|^172\.(1[6-9]|2\d|3[01])\./.test(address) ? null : codeOf(reader.get(address));
      if (geo.country(address) !== expected) throw new Error(`${address}: ${geo.country(address)}, Reader ${expected}`);
    }
  });
});

describe("user databases in each layout", () => {
  const dir = mkdtempSync(join(tmpdir(), "country-table-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const networks: MmdbNetwork[] = [
    { cidr: "1.0.0.0/24", data: { country: { iso_code: "AU" } } },
    { cidr: "1.0.1.0/24", data: { country: { iso_code: "AU" } } }, // merges with the one before
    { cidr: "8.8.8.0/24", data: { country: { iso_code: "US" } } },
    { cidr: "81.2.69.160/27", data: { country: { iso_code: "GB" } } },
    { cidr: "255.255.255.255/32", data: { country: { iso_code: "ZZ" } } },
    { cidr: "0.0.0.0/8", data: { country: { iso_code: "AQ" } } },
    { cidr: "2a00:1450::/32", data: { country: { iso_code: "DE" } } },
    { cidr: "2001:db8:1:2::/64", data: { country: { iso_code: "NL" } } },
    // Deeper than a /64: a table of their own under their /64.
    { cidr: "2001:db8:5:6:7:8:9:a/128", data: { country: { iso_code: "FR" } } },
    { cidr: "2001:db8:5:6:8000::/65", data: { country: { iso_code: "BE" } } },
    { cidr: "2c0f::/16", data: { registered_country: { iso_code: "ZA" } } },
    { cidr: "ffff:ffff:ffff:ffff::/64", data: { country: { iso_code: "ZZ" } } },
  ];
  const layouts = [
    { name: "IPv6, 24-bit records", options: { ipVersion: 6 as const, recordSize: 24 as const } },
    { name: "IPv6, 28-bit records, IPv4 aliased at ::ffff:0:0/96 and 2002::/16", options: { ipVersion: 6 as const, recordSize: 28 as const, aliasIPv4: true } },
    { name: "IPv6, 32-bit records, IPv4 aliased", options: { ipVersion: 6 as const, recordSize: 32 as const, aliasIPv4: true } },
    { name: "IPv4 only", options: { ipVersion: 4 as const, recordSize: 24 as const } },
  ];
  for (const layout of layouts) {
    test(`${layout.name}: every range's first and last address as the Reader, and the lookup by text`, async () => {
      const path = join(dir, `${layout.name.replace(/\W+/g, "-")}.mmdb`);
      const own = layout.options.ipVersion === 4 ? networks.filter((n) => !n.cidr.includes(":")) : networks;
      writeFileSync(path, writeMmdb(own, { ...layout.options, databaseType: "GeoIP2-Country", buildEpoch: 1_700_000_000 }));
      const { reader, table } = tableOf(readFileSync(path));
      expect(disagreements(table, reader)).toEqual([]);
      const geo = await openCountryLookup(path);
      const expectations: [string, string | null][] = [
        ["1.0.0.1", "AU"], ["1.0.1.255", "AU"], ["1.0.2.0", null], ["8.8.8.8", "US"], ["81.2.69.191", "GB"], ["81.2.69.192", null], ["255.255.255.255", "ZZ"], ["0.1.2.3", "AQ"],
        ["::ffff:8.8.8.8", "US"],
      ];
      if (layout.options.ipVersion === 6) {
        expectations.push(["2a00:1450:4001::1", "DE"], ["2001:db8:1:2:ffff::1", "NL"], ["2001:db8:1:3::", null], ["2001:db8:5:6:7:8:9:a", "FR"], ["2001:db8:5:6:7:8:9:b", null]);
        expectations.push(["2001:db8:5:6:8000::1", "BE"], ["2c0f:1::1", "ZA"], ["ffff:ffff:ffff:ffff:1::", "ZZ"], ["::8.8.8.8", "US"]);
        expectations.push(["2002:808:808::1", layout.options.aliasIPv4 ? "US" : null]);
      } else {
        expectations.push(["2a00:1450:4001::1", null]);
      }
      expect(expectations.map(([address]) => [address, geo.country(address)])).toEqual(expectations);
    });
  }

  test("a damaged tree whose record points back at the root: no table (no endless walk), the Reader answers", async () => {
    const bytes = writeMmdb(networks, { ipVersion: 6, databaseType: "GeoIP2-Country", buildEpoch: 1_700_000_000 });
    bytes.set([0, 0, 0], 3); // the root's right record (8000::/1) -> node 0
    const path = join(dir, "looped.mmdb");
    writeFileSync(path, bytes);
    const reader = new Reader<CountryResponse>(Buffer.from(bytes));
    expect(() => buildCountryTable(bytes, reader.metadata, () => null)).toThrow(/not a tree/);
    const geo = await openCountryLookup(path);
    for (const address of ["8.8.8.8", "1.0.0.1", "2a00:1450:4001::1", "8000::1", "2001:db8:5:6:7:8:9:a", "::ffff:8.8.8.8"]) {
      expect([address, geo.country(address)]).toEqual([address, codeOf(reader.get(address.replace("::ffff:", "")))]);
    }
  });

  test("a database with more deep networks than the table takes keeps the Reader for IPv6", () => {
    const path = join(dir, "deep.mmdb");
    writeFileSync(path, writeMmdb(networks, { ipVersion: 6, databaseType: "GeoIP2-Country", buildEpoch: 1_700_000_000 }));
    const { reader, table } = tableOf(readFileSync(path), { maxDeepRanges: 4 });
    expect(table.hasIPv6).toBe(false);
    expect(table.ipv4(0x08080808)).toBe("US");
    expect(disagreements(table, reader)).toEqual([]); // its IPv4 ranges still hold
  });
});
