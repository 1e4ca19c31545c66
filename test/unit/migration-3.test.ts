// Migration 3 on a file of the previous release: links keep their ids, URLs and creation times,
// gain totals from the rollups, and become searchable.

import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, SCHEMA_VERSION } from "../../src/db/sqlite/schema.ts";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import { sqliteLinks } from "../../src/db/sqlite/links.ts";
import { createSearchIndexer } from "../../src/db/sqlite/search-index.ts";
import { sqliteLister } from "../../src/db/sqlite/lister.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("schema 2 → 3: ids, URLs, times kept; totals and last click from what was recorded", () => {
  dir = mkdtempSync(join(tmpdir(), "shortener-m3-"));
  const path = join(dir, "s.db");
  const v2 = new Database(path, { create: true, strict: true });
  migrate(v2, 2);
  v2.run("INSERT INTO links (id, url, created_at) VALUES ('old-one', 'https://example.com/One', 1000), ('CaseTwo', 'https://example.org/two', 2000)");
  v2.run("INSERT INTO daily_rollup (link_id, day, total, bots) VALUES ('old-one', '2026-01-01', 5, 2), ('old-one', '2026-01-02', 3, 0)");
  v2.run(`INSERT INTO visit_batches (link_id, first_ts, last_ts, humans, visits) VALUES ('old-one', 10, 99, 1, '[]'), ('old-one', 100, 250, 1, '[]')`);
  v2.close();

  const db = openDatabase(path); // migration 3, and every later one the reads below need
  expect((db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
  const store = sqliteLinks(db);
  expect(store.read("old-one")).toMatchObject({ url: "https://example.com/One", createdAt: 1000, totalClicks: 8, humanClicks: 6, lastClickAt: 250, disabled: false, tags: [] });
  expect(store.read("CaseTwo")).toMatchObject({ totalClicks: 0, lastClickAt: null });
  expect(store.read("casetwo")).toBeNull();
  const lister = sqliteLister(db);
  const found = lister.page({ owner: null, ownerName: null, q: "example.org", tag: null, status: null, sort: "createdAt", order: "desc", limit: 10, cursor: null, now: 0 });
  expect(found.links.map((l) => l.id)).toEqual(["CaseTwo"]);
  expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  // Step 14 makes the index anew and leaves it to the recorder's indexer (its batches, as here).
  createSearchIndexer(db).indexNew();
  db.run("INSERT INTO links_search (links_search, rank) VALUES ('integrity-check', 1)"); // throws when the index disagrees with the links
  db.close();
});
