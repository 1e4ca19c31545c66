// Client address -> ISO country code, from the embedded GeoLite2 Country database or a user's own .mmdb.

import { isIPv6 } from "./ip-family.ts";
import { readFileSync } from "node:fs";
// mmdb-lib, not maxmind: maxmind's index (the same Reader, with a file cache around it) loads
// node:net for isIP, half a MiB of heap in each thread that loads this (docs/performance.md: At rest).
import { Reader, type CountryResponse } from "mmdb-lib";
import { buildEpochFromTail, METADATA_TAIL_BYTES } from "./mmdb-metadata.ts";
import { parseTrustedProxies } from "./client-ip.ts";
import { validIPv6Groups } from "./ipv6.ts";
import { buildCountryTable, type CountryTable } from "./country-table.ts";
import { formatIPv4, parseIPv4 } from "./ipv4.ts";
import type { Logger } from "../log.ts";
// A file import, so `bun build --compile` embeds the database and this path points inside the binary.
import embeddedDbPath from "@ip-location-db/geolite2-country-mmdb/geolite2-country.mmdb" with { type: "file" };

export type CountryLookup = {
  /** ISO 3166-1 alpha-2 code (upper case) for an IPv4/IPv6 address string, or null (private, unknown, unparsable). Never throws. */
  country(address: string): string | null;
  /** e.g. "embedded GeoLite2 Country" or the file path */
  source: string;
  /** database build date, ISO date "YYYY-MM-DD" from the mmdb metadata buildEpoch */
  buildDate: string;
};

// Every .mmdb ends with this marker followed by its metadata map.
const METADATA_MARKER = Buffer.from("\xab\xcd\xefMaxMind.com", "latin1");

export type EmbeddedOptions = {
  /** where the embedded database is (tests give a broken one) */
  embeddedPath?: string;
  /** told once when the embedded database cannot be read */
  log?: Pick<Logger, "error">;
};

/**
 * Opens a user's .mmdb (read and checked now: a bad file is a start-up error) or, for path null,
 * the embedded GeoLite2 Country database, which is read only when the first public address needs
 * a country: 17 MB of memory an idle service does not spend (measured: 77 → 60 MB RSS at rest).
 * That late read happens while a click is recorded, where nothing may throw: if it fails, it is
 * logged once and every country is unknown (null) until a restart.
 */
export async function openCountryLookup(path: string | null, options: EmbeddedOptions = {}): Promise<CountryLookup> {
  if (path !== null) {
    const bytes = await readDatabase(path);
    const reader = openReader(bytes, path);
    const countries = countriesOf(reader, bytes);
    return {
      country: (address) => {
        const ip = toLookupAddress(address);
        return ip === null ? null : countries(ip);
      },
      source: path,
      buildDate: reader.metadata.buildEpoch.toISOString().slice(0, 10),
    };
  }
  const embedded = options.embeddedPath ?? embeddedDbPath;
  const file = Bun.file(embedded);
  const tail = new Uint8Array(await file.slice(Math.max(0, file.size - METADATA_TAIL_BYTES), file.size).arrayBuffer());
  const built = buildEpochFromTail(tail);
  let lookup: ((ip: LookupAddress) => string | null) | null = null;
  let unreadable = false;
  return {
    country(address) {
      const ip = toLookupAddress(address);
      // Private and loopback addresses are in no country: no reason to read the database for them.
      if (ip === null || unreadable || (typeof ip === "number" ? NOWHERE.containsIPv4(ip) : nowhereIPv6(ip))) return null;
      if (lookup === null) {
        try {
          const bytes = readFileSync(embedded);
          lookup = countriesOf(openReader(bytes, embedded), bytes);
        } catch (err) {
          unreadable = true; // once: reading the database again for every click would not help
          options.log?.error("the embedded GeoLite2 Country database cannot be read; every country is Unknown until a restart", { error: err instanceof Error ? err.message : String(err) });
          return null;
        }
      }
      return lookup(ip);
    },
    source: "embedded GeoLite2 Country",
    buildDate: built === null ? "unknown" : built.toISOString().slice(0, 10),
  };
}

const NOWHERE = parseTrustedProxies("loopback,private");
// As NOWHERE.contains(text) had it: an address with a zone id is in no list.
const nowhereIPv6 = (ip: IPv6Address) => !ip.text.includes("%") && NOWHERE.containsIPv6(ip.groups);

/**
 * Countries from a range table (country-table.ts), built from the database when the first address
 * asks. Once built, the database itself is let go (8.6 MiB for the embedded one, the table 5.5 MiB)
 * unless its IPv6 did not fit a table; then the Reader still answers IPv6.
 */
function countriesOf(opened: Reader<CountryResponse>, bytes: Buffer): (ip: LookupAddress) => string | null {
  const ipv4Only = opened.metadata.ipVersion === 4;
  let database: { reader: Reader<CountryResponse>; bytes: Buffer } | null = { reader: opened, bytes };
  // undefined: not built yet; null: the tree could not be walked (a damaged file), the Reader answers.
  let table: CountryTable | null | undefined = undefined;
  const countryOf = (reader: Reader<CountryResponse>, ip: string): string | null => {
    try {
      return isoCode(reader.get(ip));
    } catch {
      return null; // a corrupt record must not fail the click
    }
  };
  const tableNow = (): CountryTable | null => {
    if (table !== undefined) return table;
    const { reader, bytes } = database!;
    try {
      table = buildCountryTable(bytes, reader.metadata, (ip) => countryOf(reader, ip));
    } catch {
      table = null;
    }
    if (table !== null && (ipv4Only || table.hasIPv6)) database = null;
    return table;
  };
  return (ip) => {
    // An IPv4-only tree would read the first 32 bits of an IPv6 address as some IPv4 network.
    if (ipv4Only && typeof ip !== "number") return null;
    const countries = tableNow();
    if (typeof ip === "number") return countries !== null ? countries.ipv4(ip) : countryOf(database!.reader, formatIPv4(ip));
    return countries?.hasIPv6 ? countries.ipv6(ip.words) : countryOf(database!.reader, ip.text);
  };
}

async function readDatabase(file: string): Promise<Buffer> {
  try {
    return Buffer.from(await Bun.file(file).arrayBuffer());
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : String(error);
    throw new Error(`GeoIP database ${file}: ${reason}`);
  }
}

function openReader(bytes: Buffer, file: string): Reader<CountryResponse> {
  // MaxMind downloads come as .tar.gz; say so rather than "cannot parse".
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) throw new Error(`GeoIP database ${file} is gzip-compressed; extract the .mmdb file first`);
  if (bytes.lastIndexOf(METADATA_MARKER) === -1) throw new Error(`GeoIP database ${file} is not a MaxMind DB (.mmdb) file`);
  try {
    return new Reader<CountryResponse>(bytes);
  } catch (error) {
    throw new Error(`GeoIP database ${file} is not a readable MaxMind DB (.mmdb) file: ${String(error)}`);
  }
}

type IPv6Address = { text: string; groups: number[]; words: number[] };
type LookupAddress = number | IPv6Address;

// Validated, trimmed address: IPv4 as a number, IPv6 as text and four 32-bit words. IPv4-mapped IPv6 (how
// dual-stack sockets report IPv4 clients) becomes plain IPv4, because not every database aliases
// ::ffff:0:0/96 (the embedded one does not). Null if not an IP at all: the reader would otherwise walk the
// tree with NaN bits and return some unrelated country.
function toLookupAddress(address: string): LookupAddress | null {
  const direct = parseIPv4(address); // most addresses: nothing to trim
  if (direct >= 0) return direct;
  const ip = address.trim();
  const v4 = parseIPv4(ip);
  if (v4 >= 0) return v4;
  if (!isIPv6(ip)) return null;
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (mapped !== null) return mapped[1] !== undefined ? parseIPv4(mapped[1]) : parseInt(mapped[2]!, 16) * 65536 + parseInt(mapped[3]!, 16);
  // A zone id ("fe80::1%eth0") is an IPv6 address by isIP's rules (ip-family.ts); the reader ignored it, and so does this.
  const zone = ip.indexOf("%");
  const g = validIPv6Groups(zone < 0 ? ip : ip.slice(0, zone));
  if (g === null) return null;
  return { text: ip, groups: g, words: [g[0]! * 65536 + g[1]!, g[2]! * 65536 + g[3]!, g[4]! * 65536 + g[5]!, g[6]! * 65536 + g[7]!] };
}

// ip-location-db records are { country_code }; MaxMind Country/City records are { country: { iso_code } },
// where country is absent for some networks (anycast, satellite) and registered_country is the best we have.
function isoCode(record: unknown): string | null {
  if (typeof record !== "object" || record === null) return null;
  const r = record as { country_code?: unknown; country?: { iso_code?: unknown }; registered_country?: { iso_code?: unknown } };
  const code = r.country_code ?? r.country?.iso_code ?? r.registered_country?.iso_code;
  if (typeof code !== "string" || !/^[A-Za-z]{2}$/.test(code)) return null;
  return code.toUpperCase();
}
