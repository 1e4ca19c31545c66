// --geoip-db with a user's own MaxMind-format file, and SIGHUP picking up a replaced file.

import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeMmdb } from "../support/mmdb-writer.ts";
import { createLink, startServer } from "../support/server.ts";
import { click, UA, waitForClicks } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";

// Our own clicks come from loopback, so the test database places loopback in a country.
function countryDb(iso: string): Uint8Array {
  return writeMmdb([{ cidr: "127.0.0.0/8", data: { country: { iso_code: iso }, registered_country: { iso_code: iso } } }], {
    ipVersion: 4,
    databaseType: "GeoLite2-Country",
    buildEpoch: 1_700_000_000,
  });
}

async function countriesAfterClick(base: string, id: string, expectedTotal: number) {
  await click(base, id, { "user-agent": UA.firefoxLinux });
  return (await waitForClicks(base, id, expectedTotal)).data.stats.countryStats;
}

test("a MaxMind-format --geoip-db is used, and SIGHUP reloads it after the file is replaced", async () => {
  const dir = mkdtempSync(join(tmpdir(), "shortener-geo-"));
  const path = join(dir, "geo.mmdb");
  writeFileSync(path, countryDb("FR"));
  const live = await startServer({ dir, args: ["--geoip-db", path] });
  try {
    expect(live.output()).toContain(`geoip ${path}, built 2023-11-14`);
    await createLink(live.url, { url: "https://example.com/geo", custom_url: "geo-reload" });
    expect(await countriesAfterClick(live.url, "geo-reload", 1)).toEqual([{ name: "FR", count: 1 }]);

    writeFileSync(path, countryDb("JP"));
    live.proc.kill("SIGHUP");
    expect(await eventually(async () => live.output(), (out) => out.includes("geoip reloaded"))).toContain("geoip reloaded");
    expect(await countriesAfterClick(live.url, "geo-reload", 2)).toEqual([
      { name: "FR", count: 1 },
      { name: "JP", count: 1 },
    ]);
  } finally {
    await live.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
