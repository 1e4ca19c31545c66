// `shortener copy` forgets nothing (docs/postgresql.md: Moving to PostgreSQL and back): every table of
// both freshly migrated schemas is copied or left out with a reason (src/db/shared/copy-plan.ts),
// and every column of a copied table is copied unless it is listed as one engine's own. A table or
// column added to the schemas later fails here until the copy knows what to do with it.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { COPIED_TABLES, LEFT_OUT, ONE_ENGINE_COLUMNS, planCopy, type TableColumns } from "../../src/db/shared/copy-plan.ts";
import { openCopySource } from "../../src/db/open-copy.ts";
import type { CopySource } from "../../src/db/copy.ts";
import { openEngine, type OpenedEngine } from "../support/engines.ts";

let engines: OpenedEngine[] = [];
const seen: Record<"sqlite" | "postgres", TableColumns> = { sqlite: new Map(), postgres: new Map() };

beforeAll(async () => {
  engines = await Promise.all([openEngine("sqlite"), openEngine("postgres")]);
  for (const opened of engines) {
    // The tables as the copy itself reads them (SQLite's packed visitor keys seen as rows of one key).
    const source: CopySource = await openCopySource(opened.location, null);
    seen[opened.engine] = await source.tables();
    await source.close();
  }
}, 60_000);
afterAll(async () => {
  for (const opened of engines) await opened.dispose();
});

const copied = new Set(COPIED_TABLES.map((t) => t.table));

test("every table of either schema is copied or left out with its reason", () => {
  for (const engine of ["sqlite", "postgres"] as const) {
    const forgotten = [...seen[engine].keys()].filter((t) => !copied.has(t) && LEFT_OUT[t] === undefined);
    expect({ engine, forgotten }).toEqual({ engine, forgotten: [] });
  }
});

test("no table is both copied and left out, and none listed is gone from the schemas", () => {
  expect([...copied].filter((t) => LEFT_OUT[t] !== undefined)).toEqual([]);
  const stale = [...copied].filter((t) => !seen.sqlite.has(t) || !seen.postgres.has(t));
  expect(stale).toEqual([]);
  expect(Object.keys(LEFT_OUT).filter((t) => !seen.sqlite.has(t) && !seen.postgres.has(t))).toEqual([]);
});

test("both ways, the plan copies every column of every copied table, but the one-engine columns listed", () => {
  for (const [from, to] of [["sqlite", "postgres"], ["postgres", "sqlite"]] as const) {
    const plan = planCopy(seen[from], seen[to]);
    expect({ from, problems: plan.problems, unknown: plan.unknown }).toEqual({ from, problems: [], unknown: [] });
    expect(plan.tables.map((t) => t.table)).toEqual(COPIED_TABLES.map((t) => t.table));
    for (const { table, columns } of plan.tables) {
      const every = new Set([...seen[from].get(table)!, ...seen[to].get(table)!]);
      const expected = [...every].filter((c) => ONE_ENGINE_COLUMNS[`${table}.${c}`] === undefined).sort();
      expect({ table, columns: [...columns].sort() }).toEqual({ table, columns: expected });
    }
  }
  // Each one-engine column exists in exactly one engine (else the entry is stale).
  for (const key of Object.keys(ONE_ENGINE_COLUMNS)) {
    const [table, column] = key.split(".") as [string, string];
    expect({ key, in: [seen.sqlite, seen.postgres].filter((s) => s.get(table)?.includes(column)).length }).toEqual({ key, in: 1 });
  }
});

test("a table the plan does not know is reported, a copied table missing from one side is a problem", () => {
  const withExtra = new Map([...seen.postgres, ["operators_notes", ["id"]]]);
  expect(planCopy(seen.sqlite, withExtra).unknown).toEqual(["operators_notes"]);
  const withoutLinks = new Map([...seen.postgres].filter(([t]) => t !== "links"));
  expect(planCopy(seen.sqlite, withoutLinks).problems).toEqual(["table links is missing in the target"]);
});
