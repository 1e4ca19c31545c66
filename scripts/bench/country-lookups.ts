// Country lookups a second: the range table (src/visits/country-table.ts, through openCountryLookup
// as the recorder uses it) against maxmind's Reader walking the tree, on the embedded database,
// alternating, 3 rounds. Also the table's build time and size.
//   bun scripts/bench/country-lookups.ts
// (docs/clicks.md: How clicks are counted, "The country")

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Reader, type CountryResponse } from "maxmind";
import { openCountryLookup } from "../../src/visits/geo.ts";
import { buildCountryTable } from "../../src/visits/country-table.ts";

const path = join(import.meta.dir, "../../node_modules/@ip-location-db/geolite2-country-mmdb/geolite2-country.mmdb");
const bytes = readFileSync(path);
const reader = new Reader<CountryResponse>(bytes);
const code = (address: string) => (reader.get(address) as { country_code?: string } | null)?.country_code ?? null;

const buildStarted = performance.now();
const table = buildCountryTable(bytes, reader.metadata, code);
console.log(`table: built in ${(performance.now() - buildStarted).toFixed(0)} ms, ${(table.bytes / 2 ** 20).toFixed(1)} MiB, ${table.ranges.ipv4} IPv4 and ${table.ranges.ipv6} IPv6 ranges (the database: ${(bytes.length / 2 ** 20).toFixed(1)} MiB)`);

const geo = await openCountryLookup(null);
geo.country("8.8.8.8"); // its build, outside the timing

// As load.lua numbers its new visitors: every address a new one.
const octets = [2, 5, 8, 24, 31, 41, 46, 62, 77, 81, 89, 101, 103, 110, 118, 133, 151, 175, 177, 185, 190, 196, 200, 213];
const numbered = (n: number) => `${octets[n % octets.length]}.${Math.floor(n / octets.length) % 256}.${Math.floor(n / octets.length / 256) % 256}.${(Math.floor(n / octets.length / 65536) % 254) + 1}`;
const N = 300_000;
const patterns: [string, string[]][] = [
  ["new IPv4 addresses", Array.from({ length: N }, (_, i) => numbered(i))],
  ["2,000 repeating IPv4 addresses", Array.from({ length: N }, (_, i) => numbered((i * 7919) % 2000))],
  ["new IPv6 addresses", Array.from({ length: N }, (_, i) => `2a0${i % 10}:${((i * 31) & 0xffff).toString(16)}:${((i * 7) & 0xffff).toString(16)}::${(i & 0xffff).toString(16)}`)],
];

const perSecond = (lookup: (address: string) => string | null, addresses: string[]) => {
  const started = performance.now();
  let found = 0;
  for (const address of addresses) if (lookup(address) !== null) found++;
  return { rate: addresses.length / ((performance.now() - started) / 1000), found };
};

for (const [name, addresses] of patterns) {
  const rounds: string[] = [];
  for (let round = 0; round < 3; round++) {
    const walked = perSecond(code, addresses);
    const tabled = perSecond(geo.country, addresses);
    if (walked.found !== tabled.found) throw new Error(`${name}: the Reader found ${walked.found} countries, the table ${tabled.found}`);
    rounds.push(`Reader ${(walked.rate / 1e6).toFixed(2)}M/s, table ${(tabled.rate / 1e6).toFixed(2)}M/s (×${(tabled.rate / walked.rate).toFixed(1)})`);
  }
  console.log(`${name}: ${rounds.join(" | ")}`);
}
