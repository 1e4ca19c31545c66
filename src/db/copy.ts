// `shortener copy` (docs/postgresql.md: Moving to PostgreSQL and back): everything in one database
// into an empty one of the other engine. The source is read in one snapshot (the service may keep
// running on it); the target is written in one transaction, verified inside it (rows per table,
// each link's clicks) and committed only when everything matches, so a copy that fails or differs
// leaves the target as empty as it found it. Each engine's side is src/db/<engine>/copy.ts.

import type { Engine } from "./storage.ts";
import { planCopy, SEEDED_BY_MIGRATIONS, type TableColumns } from "./shared/copy-plan.ts";
import { compareClicks, type ClicksCheck, type LinkClicks } from "./copy-verify.ts";

/** One row, its values in the order of the plan's columns. */
export type Row = unknown[];

/** What both sides answer, the source in its snapshot and the target inside its transaction. */
export type CopyCounting = {
  /** Rows of a table (visitors_seen: visitor keys, however an engine packs them). */
  count(table: string): Promise<number>;
  /** Every link's click figures, ordered by id byte-wise (copy-verify.ts). */
  clicks(): AsyncIterable<LinkClicks>;
};

export type CopyReader = CopyCounting & {
  /** The table's rows, `batch` at a time, never the whole table in memory. */
  rows(table: string, columns: readonly string[], batch: number, orderBy?: string): AsyncIterable<Row[]>;
  /** The highest value each table's counter (a sequence, AUTOINCREMENT) has handed out, by table. */
  counters(): Promise<Map<string, number>>;
};

export type CopyWriter = CopyCounting & {
  /** Rows this table already has; 0 for an empty one. */
  rowsIn(table: string): Promise<number>;
  /** Deletes what the target's migrations wrote into a table the copy fills (event_marks). */
  clear(table: string): Promise<void>;
  insert(table: string, columns: readonly string[], rows: Row[]): Promise<void>;
  /** The table's rows are all given (SQLite writes its last packed row of visitor keys). */
  endTable(table: string): Promise<void>;
  /** Counters go on after max(the copied values, the source's counter): ids are never handed out twice. */
  continueCounters(source: Map<string, number>): Promise<void>;
  /** Whatever the engine derives from the copied rows (SQLite's search index, PostgreSQL's statistics). */
  finish(): Promise<void>;
};

export type CopySource = {
  engine: Engine;
  tables(): Promise<TableColumns>;
  /** Runs fn in one read snapshot (SQLite: a read transaction; PostgreSQL: REPEATABLE READ). */
  snapshot<T>(fn: (reader: CopyReader) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

export type CopyTarget = {
  engine: Engine;
  tables(): Promise<TableColumns>;
  /** Runs fn in one transaction, committed when it answers keep: true, else rolled back. */
  transaction<T>(fn: (writer: CopyWriter) => Promise<{ keep: boolean; value: T }>): Promise<T>;
  close(): Promise<void>;
};

/** Reports how far the copy is (src/imports/progress.ts: a bar on a terminal, lines otherwise). */
export type CopyProgress = { phase(name: string, total: number | null): void; add(n: number): void; end(): void; note(text: string): void };

export type TableCount = { table: string; source: number; copied: number };

export type CopyReport =
  | { outcome: "refused"; occupied: { table: string; rows: number }[] }
  | { outcome: "copied" | "mismatch"; tables: TableCount[]; clicks: ClicksCheck; unknown: string[] };

/** The plan of these two databases does not hold (their schemas disagree): a bug, not the operator's. */
export class CopyPlanError extends Error {}

export async function copyDatabase(source: CopySource, target: CopyTarget, progress: CopyProgress): Promise<CopyReport> {
  const plan = planCopy(await source.tables(), await target.tables());
  if (plan.problems.length > 0) throw new CopyPlanError(plan.problems.join("; "));
  return await source.snapshot((reader) =>
    target.transaction(async (writer): Promise<{ keep: boolean; value: CopyReport }> => {
      const occupied: { table: string; rows: number }[] = [];
      for (const { table } of plan.tables) {
        const rows = SEEDED_BY_MIGRATIONS.includes(table) ? 0 : await writer.rowsIn(table);
        if (rows > 0) occupied.push({ table, rows });
      }
      if (occupied.length > 0) return { keep: false, value: { outcome: "refused", occupied } };
      const totals = new Map<string, number>();
      for (const { table } of plan.tables) totals.set(table, await reader.count(table));
      for (const { table, columns, batch, orderBy } of plan.tables) {
        progress.phase(table, totals.get(table)!);
        if (SEEDED_BY_MIGRATIONS.includes(table)) await writer.clear(table);
        for await (const rows of reader.rows(table, columns, batch, orderBy)) {
          await writer.insert(table, columns, rows);
          progress.add(rows.length);
        }
        await writer.endTable(table);
        progress.end();
      }
      await writer.continueCounters(await reader.counters());
      progress.note("verifying: rows of every table, clicks of every link");
      await writer.finish();
      const tables: TableCount[] = [];
      for (const { table } of plan.tables) tables.push({ table, source: totals.get(table)!, copied: await writer.count(table) });
      const clicks = await compareClicks(reader.clicks(), writer.clicks());
      const same = tables.every((t) => t.source === t.copied) && clicks.differing.length === 0;
      return { keep: same, value: { outcome: same ? "copied" : "mismatch", tables, clicks, unknown: plan.unknown } };
    }),
  );
}
