// Client address -> ISO country code, from the embedded GeoLite2 Country database or a user's own .mmdb.

import { isIP } from "node:net";
import { readFileSync } from "node:fs";
import { Reader, type CountryResponse } from "maxmind";
import { buildEpochFromTail, METADATA_TAIL_BYTES } from "./mmdb-metadata.ts";
import { parseTrustedProxies } from "./client-ip.ts";
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
  if (path !== null) return lookupOver(openReader(await readDatabase(path), path), path);
  const embedded = options.embeddedPath ?? embeddedDbPath;
  const file = Bun.file(embedded);
  const tail = new Uint8Array(await file.slice(Math.max(0, file.size - METADATA_TAIL_BYTES), file.size).arrayBuffer());
  const built = buildEpochFromTail(tail);
  let lookup: CountryLookup | null = null;
  let unreadable = false;
  return {
    country(address) {
      // Private and loopback addresses are in no country: no reason to read the database for them.
      if (NOWHERE.contains(address) || unreadable) return null;
      if (lookup === null) {
        try {
          lookup = lookupOver(openReader(readFileSync(embedded), embedded), "embedded GeoLite2 Country");
        } catch (err) {
          unreadable = true; // once: reading 17 MB again for every click would not help
          options.log?.error("the embedded GeoLite2 Country database cannot be read; every country is Unknown until a restart", { error: err instanceof Error ? err.message : String(err) });
          return null;
        }
      }
      return lookup.country(address);
    },
    source: "embedded GeoLite2 Country",
    buildDate: built === null ? "unknown" : built.toISOString().slice(0, 10),
  };
}

const NOWHERE = parseTrustedProxies("loopback,private");

function lookupOver(reader: Reader<CountryResponse>, source: string): CountryLookup {
  const ipv4Only = reader.metadata.ipVersion === 4;
  return {
    country(address: string): string | null {
      const ip = toLookupAddress(address);
      // An IPv4-only tree would read the first 32 bits of an IPv6 address as some IPv4 network.
      if (ip === null || (ipv4Only && isIP(ip) === 6)) return null;
      try {
        return isoCode(reader.get(ip));
      } catch {
        return null; // a corrupt record must not fail the click
      }
    },
    source,
    buildDate: reader.metadata.buildEpoch.toISOString().slice(0, 10),
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

// Validated, trimmed address; IPv4-mapped IPv6 (how dual-stack sockets report IPv4 clients) becomes plain IPv4,
// because not every database aliases ::ffff:0:0/96 (the embedded one does not). Null if not an IP at all:
// the reader would otherwise walk the tree with NaN bits and return some unrelated country.
function toLookupAddress(address: string): string | null {
  const ip = address.trim();
  const version = isIP(ip);
  if (version === 4) return ip;
  if (version !== 6) return null;
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (mapped === null) return ip;
  if (mapped[1] !== undefined) return mapped[1];
  const high = parseInt(mapped[2]!, 16);
  const low = parseInt(mapped[3]!, 16);
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
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
