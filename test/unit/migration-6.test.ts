// Migration 6 on a file of the previous release: deleting a link used to leave its hourly rollups
// behind; the upgrade deletes those of links that no longer exist and keeps the others.

import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../../src/db/sqlite/schema.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("schema 5 → 6: hourly rollups of deleted links are deleted, those of existing links kept", () => {
  dir = mkdtempSync(join(tmpdir(), "shortener-m6-"));
  const path = join(dir, "s.db");
  const v5 = new Database(path, { create: true, strict: true });
  migrate(v5, 5);
  v5.run("INSERT INTO links (id, url, created_at) VALUES ('alive', 'https://example.com/', 1000)");
  v5.run(`INSERT INTO hourly_rollup (link_id, hour, total, bots, uniques, unique_bots) VALUES
    ('alive', '2026-11-23T10', 3, 0, 2, 0), ('alive', '2026-11-23T11', 1, 1, 1, 1),
    ('deleted', '2026-11-23T10', 5, 0, 4, 0), ('Alive', '2026-11-23T10', 1, 0, 1, 0)`);
  v5.close();

  // Exactly to 6: what later migrations do is their own tests' concern.
  const db = new Database(path, { strict: true });
  migrate(db, 6);
  expect((db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(6);
  // Ids are case-sensitive: 'Alive' is another (deleted) link than 'alive'.
  expect(db.query("SELECT link_id, hour, total FROM hourly_rollup ORDER BY link_id, hour").all()).toEqual([
    { link_id: "alive", hour: "2026-11-23T10", total: 3 },
    { link_id: "alive", hour: "2026-11-23T11", total: 1 },
  ]);
  db.close();
});
