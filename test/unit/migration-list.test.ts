// The one list of migrations (src/db/migrations/index.ts): numbered once and without gaps, every
// step file in it once, at its number's place; the versions that databases already record keep
// naming the steps they named when they shipped; a step's side may be code, run inside the step's
// transaction like SQL. (Both engines on real databases: test/contract/migrations.test.ts.)

import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { engineVersion, MIGRATIONS, POSTGRES_STEPS, SQLITE_STEPS } from "../../src/db/migrations/versions.ts";
import type { SqliteDialect } from "../../src/db/migrations/step.ts";
import { migrate, SCHEMA_VERSION } from "../../src/db/sqlite/schema.ts";
import { PG_SCHEMA_VERSION } from "../../src/db/postgres/schema.ts";
import { REPO_ROOT } from "../support/server.ts";

const FOLDER = join(REPO_ROOT, "src/db/migrations");

test("the steps are the files NNN-<what>.ts numbered 1 to N without a gap, each in the list once, at its number", async () => {
  const files = readdirSync(FOLDER).filter((f) => /^\d/.test(f)).sort();
  expect(files.filter((f) => !/^\d{3}-[a-z0-9]+(-[a-z0-9]+)*\.ts$/.test(f))).toEqual([]);
  expect(files.map((f) => Number(f.slice(0, 3)))).toEqual(files.map((_, i) => i + 1));
  expect(MIGRATIONS.length).toBe(files.length);
  for (const [i, file] of files.entries()) {
    const step = await import(join(FOLDER, file));
    expect({ file, exports: Object.keys(step).sort(), atItsNumber: MIGRATIONS[i] === step }).toEqual({ file, exports: ["postgres", "sqlite"], atItsNumber: true });
    expect({ file, concernsAnEngine: step.sqlite !== null || step.postgres !== null }).toEqual({ file, concernsAnEngine: true });
  }
});

test("each engine's version counts its own steps, so the versions shipped releases recorded name the same steps", () => {
  // 31f911e recorded SQLite 10 and PostgreSQL 5 after the same ten steps; the release after it 11
  // and 6. PostgreSQL's first step is step 5 (everything SQLite's steps 1 to 5 hold), and step 6
  // (a repair of SQLite files) is SQLite's only.
  expect([10, 11].map((step) => [engineVersion("sqlite", step), engineVersion("postgres", step)])).toEqual([[10, 5], [11, 6]]);
  expect([4, 5, 6, 7].map((step) => engineVersion("postgres", step))).toEqual([0, 1, 1, 2]);
  expect(SCHEMA_VERSION).toBe(SQLITE_STEPS.length);
  expect(PG_SCHEMA_VERSION).toBe(POSTGRES_STEPS.length);
  expect([SQLITE_STEPS.length, POSTGRES_STEPS.length]).toEqual([engineVersion("sqlite", MIGRATIONS.length), engineVersion("postgres", MIGRATIONS.length)]);
});

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("a step given as code runs in its own transaction: a failure leaves the file at the step before", () => {
  dir = mkdtempSync(join(tmpdir(), "shortener-steps-"));
  const db = new Database(join(dir, "s.db"), { create: true, strict: true });
  const steps: SqliteDialect[] = [
    "CREATE TABLE t (n INTEGER NOT NULL)",
    (d) => void d.run("INSERT INTO t (n) VALUES (1), (2)"),
    (d) => {
      d.run("INSERT INTO t (n) VALUES (3)");
      throw new Error("step 3 failed");
    },
  ];
  migrate(db, 2, steps);
  expect(db.query("SELECT n FROM t ORDER BY n").values()).toEqual([[1], [2]]);
  expect(() => migrate(db, 3, steps)).toThrow("step 3 failed");
  expect((db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(2);
  expect(db.query("SELECT n FROM t ORDER BY n").values()).toEqual([[1], [2]]);
  db.close();
});
