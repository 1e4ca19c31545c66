// Migration 3 rebuilds the rollup tables with their keys in the order the stats queries group by.
// A file written at version 2 must read the same after it, on a real SQLite file.

import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, SCHEMA_VERSION } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createVisitWriter } from "../../src/visits/writer.ts";
import { createStatsReader } from "../../src/stats/queries.ts";
import type { Visit } from "../../src/visits/visit.ts";

const T0 = Date.parse("2026-10-01T12:00:00.000Z");
const NOW = Date.parse("2026-11-22T12:00:00.000Z");
let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("rollups written at version 2 read the same at version 3, keyed (…, value, day)", () => {
  dir = mkdtempSync(join(tmpdir(), "shortener-m3-"));
  const path = join(dir, "s.db");
  const v2 = new Database(path, { create: true, strict: true });
  v2.run("PRAGMA journal_mode = WAL");
  migrate(v2, 2);
  v2.query("INSERT INTO links (id, url, created_at) VALUES ('m3', 'https://example.org/', ?)").run(T0);
  const writer = createVisitWriter(v2, { flushIntervalMs: 60_000, batchSize: 500 });
  const pick = <T>(list: T[], i: number) => list[i % list.length]!;
  for (let i = 0; i < 3000; i++) {
    const visit: Visit = {
      linkId: "m3", ts: T0 + i * 1_500_000, // spread over ~52 days
      browser: pick(["Chrome", "Firefox", "Safari"], i), os: pick(["Windows", "Linux", "iOS", "Android"], i),
      device: pick(["desktop", "mobile"], i), country: pick(["DE", "FR", "US", "JP", "BR"], i), referrer: pick(["Direct", "t.co", "google.com"], i),
      utmSource: i % 3 ? null : pick(["news", "hn"], i), utmMedium: i % 5 ? null : "email", utmCampaign: null, isBot: i % 7 === 0,
    };
    writer.record(visit);
  }
  writer.close();
  const link = { id: "m3", url: "https://example.org/", createdAt: T0 };
  const filters = [
    { from: null, to: null, excludeBots: false },
    { from: null, to: null, excludeBots: true },
    { from: "2026-10-10", to: "2026-10-20", excludeBots: false },
  ];
  const before = filters.map((f) => createStatsReader(v2).read(link, f, NOW));
  v2.close();

  const v3 = openDatabase(path);
  expect((v3.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
  expect(filters.map((f) => createStatsReader(v3).read(link, f, NOW))).toEqual(before);
  expect(before[0]!.totalClicks).toBe(3000);
  const keyOf = (table: string) =>
    (v3.query(`SELECT name, pk FROM pragma_table_info('${table}') WHERE pk > 0 ORDER BY pk`).all() as { name: string }[]).map((c) => c.name);
  expect(keyOf("dimension_rollup")).toEqual(["link_id", "dimension", "name", "day"]);
  expect(keyOf("utm_rollup")).toEqual(["link_id", "source", "medium", "campaign", "day"]);
  // and the writer's upserts still add to the rebuilt tables
  const more = createVisitWriter(v3, { flushIntervalMs: 60_000 });
  more.record({ linkId: "m3", ts: NOW, browser: "Chrome", os: "Linux", device: "desktop", country: "DE", referrer: "Direct", utmSource: "news", utmMedium: null, utmCampaign: null, isBot: false });
  more.close();
  expect(createStatsReader(v3).read(link, filters[0]!, NOW).totalClicks).toBe(3001);
  expect(v3.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  v3.close();
});
