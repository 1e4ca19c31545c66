import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { openCountryLookup, type CountryLookup } from "../../src/visits/geo.ts";
import { writeMmdb, type MmdbNetwork } from "../support/mmdb-writer.ts";
import { buildEpochFromTail } from "../../src/visits/mmdb-metadata.ts";
import { Reader } from "maxmind";

const NOT_FOUND = ["127.0.0.1", "10.0.0.1", "192.168.1.20", "172.16.5.4", "::1", "fe80::1", "fc00::1", "0.0.0.0", "::"];
const GARBAGE = ["", "   ", "garbage", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "8.8.8.8:443", "[::1]", "::ffff:", "gggg::1", "8.8.8.8, 1.1.1.1"];

describe("embedded GeoLite2 Country (ip-location-db record format)", () => {
  let geo: CountryLookup;
  beforeAll(async () => {
    geo = await openCountryLookup(null);
  });

  test("one that cannot be read when the first public address comes: null for every address, said once, never thrown", async () => {
    const dir = mkdtempSync(join(tmpdir(), "geo-broken-"));
    try {
      const broken = join(dir, "broken.mmdb");
      writeFileSync(broken, "not a MaxMind database\n".repeat(10));
      const said: string[] = [];
      const lookup = await openCountryLookup(null, { embeddedPath: broken, log: { error: (msg) => said.push(msg) } });
      expect(lookup.buildDate).toBe("unknown");
      for (const address of ["8.8.8.8", "193.0.6.139", "2001:4860:4860::8888"]) expect(lookup.country(address)).toBeNull();
      expect(said).toEqual(["the embedded GeoLite2 Country database cannot be read; every country is Unknown until a restart"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("describes itself", () => {
    expect(geo.source).toBe("embedded GeoLite2 Country");
    expect(geo.buildDate).toMatch(/^20\d\d-[01]\d-[0-3]\d$/);
  });

  test("resolves well-known addresses", () => {
    expect(geo.country("8.8.8.8")).toBe("US"); // Google DNS
    expect(geo.country("2001:4860:4860::8888")).toBe("US");
    expect(geo.country("193.0.6.139")).toBe("NL"); // RIPE NCC, Amsterdam
    expect(geo.country("81.2.69.160")).toBe("GB"); // MaxMind's documented GB test address
    expect(geo.country("2a00:1450:4001:81c::200e")).toBe("DE"); // Google Frankfurt
  });

  test("IPv4-mapped IPv6 (dual-stack sockets) resolves like IPv4", () => {
    expect(geo.country("::ffff:8.8.8.8")).toBe("US");
    expect(geo.country("::FFFF:193.0.6.139")).toBe("NL");
    expect(geo.country("::ffff:808:808")).toBe("US");
  });

  test("surrounding whitespace is ignored", () => {
    expect(geo.country(" 8.8.8.8\n")).toBe("US");
  });

  test("private, loopback, link-local and unspecified addresses give null", () => {
    for (const address of NOT_FOUND) expect(geo.country(address)).toBeNull();
  });

  test("anything that is not an IP address gives null, never a guess", () => {
    // "1.2.3" is the trap: the reader itself would walk the tree with it and answer "AU".
    for (const address of GARBAGE) expect(geo.country(address)).toBeNull();
  });
});

describe("MaxMind GeoLite2/GeoIP2 record format", () => {
  const dir = mkdtempSync(join(tmpdir(), "shortener-geo-"));
  const buildEpoch = Date.UTC(2024, 5, 17, 12) / 1000;
  const networks: MmdbNetwork[] = [
    {
      cidr: "8.8.8.0/24",
      data: { continent: { code: "NA" }, country: { iso_code: "US", names: { en: "United States" } }, registered_country: { iso_code: "US" } },
    },
    // Country-level anycast networks carry only the registered country.
    { cidr: "1.1.1.0/24", data: { registered_country: { iso_code: "AU", names: { en: "Australia" } } } },
    { cidr: "2a00:1450::/32", data: { country: { iso_code: "DE" }, registered_country: { iso_code: "US" } } },
    { cidr: "5.0.0.0/8", data: { country: { iso_code: "fr" } } }, // lower case in a hand-made db
    { cidr: "6.0.0.0/8", data: { city: { names: { en: "Nowhere" } } } }, // no country at all
    { cidr: "7.0.0.0/8", data: { country: { iso_code: "Germany" } } }, // not a code
  ];
  let city: CountryLookup;
  let ipv4Only: CountryLookup;
  const cityPath = join(dir, "GeoLite2-City.mmdb");

  beforeAll(async () => {
    writeFileSync(cityPath, writeMmdb(networks, { ipVersion: 6, databaseType: "GeoLite2-City", buildEpoch }));
    const v4Path = join(dir, "v4.mmdb");
    writeFileSync(v4Path, writeMmdb(networks.filter((n) => !n.cidr.includes(":")), { ipVersion: 4, databaseType: "GeoIP2-Country", buildEpoch }));
    city = await openCountryLookup(cityPath);
    ipv4Only = await openCountryLookup(v4Path);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("reports the path and the metadata build date", () => {
    expect(city.source).toBe(cityPath);
    expect(city.buildDate).toBe("2024-06-17");
  });

  test("reads country.iso_code, falling back to registered_country.iso_code", () => {
    expect(city.country("8.8.8.8")).toBe("US");
    expect(city.country("1.1.1.1")).toBe("AU");
    expect(city.country("2a00:1450:4001::1")).toBe("DE"); // country wins over registered_country
    expect(city.country("5.6.7.8")).toBe("FR");
  });

  test("records without a usable code give null", () => {
    expect(city.country("6.1.1.1")).toBeNull();
    expect(city.country("7.1.1.1")).toBeNull();
    expect(city.country("9.9.9.9")).toBeNull(); // not in the db
  });

  test("IPv4-mapped IPv6 works even though the db has no ::ffff:0:0/96 alias", () => {
    expect(city.country("::ffff:8.8.8.8")).toBe("US");
  });

  test("an IPv4-only db answers IPv4 and never misreads IPv6", () => {
    expect(ipv4Only.country("8.8.8.8")).toBe("US");
    expect(ipv4Only.country("::ffff:1.1.1.1")).toBe("AU");
    // 0808:0808:: would walk the IPv4 tree as 8.8.8.8 if passed through.
    expect(ipv4Only.country("808:808::")).toBeNull();
  });

  test("garbage gives null here too", () => {
    for (const address of GARBAGE) expect(city.country(address)).toBeNull();
  });

  describe("bad files throw a clear error", () => {
    test("missing file", async () => {
      await expect(openCountryLookup(join(dir, "nope.mmdb"))).rejects.toThrow(/nope\.mmdb: file not found/);
    });

    test("not an mmdb", async () => {
      const path = join(dir, "notes.txt");
      writeFileSync(path, "just some text, not a database\n".repeat(100));
      await expect(openCountryLookup(path)).rejects.toThrow(/notes\.txt is not a MaxMind DB \(\.mmdb\) file/);
    });

    test("empty file", async () => {
      const path = join(dir, "empty.mmdb");
      writeFileSync(path, "");
      await expect(openCountryLookup(path)).rejects.toThrow(/not a MaxMind DB/);
    });

    test("gzip-compressed download", async () => {
      const path = join(dir, "GeoLite2-Country.mmdb.gz");
      writeFileSync(path, gzipSync(Buffer.from("x")));
      await expect(openCountryLookup(path)).rejects.toThrow(/gzip-compressed; extract the \.mmdb/);
    });

    test("a directory", async () => {
      await expect(openCountryLookup(dir)).rejects.toThrow(/GeoIP database/);
    });
  });
});

describe("the build date from the file's end alone", () => {
  test("matches what a full read of the metadata says, for the embedded database and a written one", async () => {
    const bytes = readFileSync(join(import.meta.dir, "../../node_modules/@ip-location-db/geolite2-country-mmdb/geolite2-country.mmdb"));
    expect(buildEpochFromTail(bytes.subarray(bytes.length - 4096))).toEqual(new Reader(bytes).metadata.buildEpoch);
    const written = writeMmdb([{ cidr: "192.0.2.0/24", data: { country: { iso_code: "NL" } } }], { ipVersion: 4, databaseType: "GeoLite2-Country", buildEpoch: 1_700_000_000 });
    expect(buildEpochFromTail(written)).toEqual(new Date(1_700_000_000_000));
    expect(buildEpochFromTail(new Uint8Array(64))).toBeNull();
  });
});
