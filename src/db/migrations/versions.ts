// The list of steps (index.ts) in number order, each engine's side of it, and the version an
// engine records after a step: the count of its own steps so far (index.ts says why).

import type { Engine } from "../storage.ts";
import type { MigrationStep, PostgresDialect, SqliteDialect } from "./step.ts";
import * as steps from "./index.ts";

function inNumberOrder(exported: Record<string, MigrationStep>): MigrationStep[] {
  const names = Object.keys(exported);
  const misnamed = names.filter((name) => !/^step\d{3}$/.test(name));
  if (misnamed.length > 0) throw new Error(`src/db/migrations/index.ts: ${misnamed.join(", ")}: a step's line is "export * as stepNNN from ..."`);
  return names.sort().map((name) => exported[name]!);
}

export const MIGRATIONS: readonly MigrationStep[] = inNumberOrder(steps);

/** SQLite's steps in order: user_version n means the first n of them have run. */
export const SQLITE_STEPS: readonly SqliteDialect[] = MIGRATIONS.flatMap((s) => (s.sqlite === null ? [] : [s.sqlite]));
/** PostgreSQL's steps in order: shortener_schema.version n means the first n of them have run. */
export const POSTGRES_STEPS: readonly PostgresDialect[] = MIGRATIONS.flatMap((s) => (s.postgres === null ? [] : [s.postgres]));

/** The version an engine records once the list's steps 1 to `step` have run (for tests that build an older database). */
export function engineVersion(engine: Engine, step: number): number {
  return MIGRATIONS.slice(0, step).filter((s) => s[engine] !== null).length;
}
