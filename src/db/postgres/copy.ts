// PostgreSQL's side of `shortener copy` (src/db/copy.ts): a database read in one REPEATABLE READ
// snapshot through cursors (a page of rows at a time), or an empty one written in one transaction
// by COPY … FROM STDIN, PostgreSQL's bulk load, a batch per statement.

import type { TransactionSQL } from "bun";
import type { CopyCounting, CopyReader, CopySource, CopyTarget, CopyWriter, Row } from "../copy.ts";
import type { LinkClicks } from "../copy-verify.ts";
import type { TableColumns } from "../shared/copy-plan.ts";
import { num, type Pg } from "./connect.ts";

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

type Shape = { tables: TableColumns; bigints: Map<string, Set<string>> };

async function shape(sql: Pg): Promise<Shape> {
  const rows = await sql`
    SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns AS c
    JOIN information_schema.tables AS t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
    ORDER BY c.table_name, c.ordinal_position`;
  const tables = new Map<string, string[]>();
  const bigints = new Map<string, Set<string>>();
  for (const r of rows as { table_name: string; column_name: string; data_type: string }[]) {
    tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), r.column_name]);
    // int8 arrives as a string (it may exceed 2^53); ours are counts, ms and 52-bit keys.
    if (r.data_type === "bigint") bigints.set(r.table_name, (bigints.get(r.table_name) ?? new Set()).add(r.column_name));
  }
  return { tables, bigints };
}

/** Rows of a query through a cursor of the transaction, `batch` at a time. */
async function* fetched(tx: TransactionSQL, query: string, batch: number): AsyncGenerator<unknown[][]> {
  const cursor = `copy_${Math.random().toString(36).slice(2)}`;
  await tx.unsafe(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${query}`);
  try {
    for (;;) {
      const rows = (await tx.unsafe(`FETCH ${batch} FROM ${cursor}`).values()) as unknown[][];
      if (rows.length === 0) return;
      yield rows;
    }
  } finally {
    // After a failed FETCH the transaction only rolls back: its error is the one to report.
    await tx.unsafe(`CLOSE ${cursor}`).catch(() => {});
  }
}

function counting(tx: TransactionSQL): CopyCounting {
  return {
    count: async (table) => num((await tx.unsafe(`SELECT COUNT(*) AS n FROM ${quoted(table)}`))[0].n),
    async *clicks() {
      // links.id is COLLATE "C": ordered byte-wise, as SQLite's BINARY orders it. Sums by link
      // joined, not a subquery per link: a table just filled may have statistics that make the
      // planner scan visit_batches once per link (155 s instead of 2 for 100,000 links, measured).
      const query = `SELECT l.id, l.domain, l.total_clicks, l.human_clicks, COALESCE(d.total, 0), COALESCE(b.visits, 0)
                     FROM links AS l
                     LEFT JOIN (SELECT link_seq, SUM(total) AS total FROM daily_rollup GROUP BY link_seq) AS d ON d.link_seq = l.seq
                     LEFT JOIN (SELECT link_seq, SUM(json_array_length(visits::json)) AS visits FROM visit_batches GROUP BY link_seq) AS b ON b.link_seq = l.seq
                     ORDER BY l.id, l.domain`;
      for await (const rows of fetched(tx, query, 5_000)) {
        for (const [id, domain, total, humans, daily, visits] of rows) yield { id: id as string, domain: domain as string, total: num(total), humans: num(humans), daily: num(daily), visits: num(visits) } satisfies LinkClicks;
      }
    },
  };
}

/** Every table's counter: the sequence behind an identity or serial column, and that column. */
async function sequences(tx: TransactionSQL): Promise<{ table: string; column: string; sequence: string; last: number | null }[]> {
  const rows = await tx`
    SELECT table_name, column_name, pg_get_serial_sequence(format('%I', table_name), column_name) AS sequence
    FROM information_schema.columns
    WHERE table_schema = current_schema() AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')`;
  const out = [];
  for (const r of rows as { table_name: string; column_name: string; sequence: string }[]) {
    const [{ last }] = await tx`SELECT pg_sequence_last_value(${r.sequence}::regclass) AS last`;
    out.push({ table: r.table_name, column: r.column_name, sequence: r.sequence, last: last === null ? null : num(last) });
  }
  return out;
}

function reader(tx: TransactionSQL, bigints: Map<string, Set<string>>): CopyReader {
  return {
    ...counting(tx),
    async *rows(table, columns, batch, orderBy) {
      const wide = bigints.get(table) ?? new Set<string>();
      const numbers = columns.flatMap((c, i) => (wide.has(c) ? [i] : []));
      const query = `SELECT ${columns.map(quoted).join(", ")} FROM ${quoted(table)}${orderBy ? ` ORDER BY ${quoted(orderBy)}` : ""}`;
      for await (const rows of fetched(tx, query, batch)) {
        for (const row of rows) for (const i of numbers) if (row[i] !== null) row[i] = num(row[i]);
        yield rows as Row[];
      }
    },
    async counters() {
      return new Map((await sequences(tx)).map((s) => [s.table, s.last ?? 0]));
    },
  };
}

export function postgresCopySource(sql: Pg): CopySource {
  let known: Shape | null = null;
  const tables = async () => (known ??= await shape(sql));
  return {
    engine: "postgres",
    tables: async () => (await tables()).tables,
    async snapshot(fn) {
      const { bigints } = await tables();
      // One snapshot for every read, whatever the instances write meanwhile; no statement timeout
      // (the service's 60 s guards requests, not a copy of a large table).
      return (await sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
        await tx`SET LOCAL statement_timeout = 0`;
        // Every cursor is read to its end: plan for all rows, not the first tenth.
        await tx`SET LOCAL cursor_tuple_fraction = 1`;
        return await fn(reader(tx, bigints));
      })) as Awaited<ReturnType<typeof fn>>;
    },
    close: () => sql.close({ timeout: 5 }),
  };
}

/** Carries a rolled-back transaction's answer out of sql.begin(), which rolls back on a throw. */
class RolledBack<T> {
  constructor(readonly value: T) {}
}

export function postgresCopyTarget(sql: Pg): CopyTarget {
  return {
    engine: "postgres",
    tables: async () => (await shape(sql)).tables,
    async transaction(fn) {
      try {
        return (await sql.begin(async (tx) => {
          await tx`SET LOCAL statement_timeout = 0`;
          await tx`SET LOCAL cursor_tuple_fraction = 1`;
          const outcome = await fn(writer(tx));
          if (!outcome.keep) throw new RolledBack(outcome.value);
          return outcome.value;
        })) as Awaited<ReturnType<typeof fn>>["value"];
      } catch (err) {
        if (err instanceof RolledBack) return err.value;
        throw err;
      }
    },
    close: () => sql.close({ timeout: 5 }),
  };
}

function writer(tx: TransactionSQL): CopyWriter {
  return {
    ...counting(tx),
    rowsIn: async (table) => num((await tx.unsafe(`SELECT COUNT(*) AS n FROM ${quoted(table)}`))[0].n),
    clear: async (table) => void (await tx.unsafe(`DELETE FROM ${quoted(table)}`)),
    async insert(table, columns, rows) {
      // COPY writes identity columns as given (as INSERT … OVERRIDING SYSTEM VALUE would).
      const stream = tx.unsafe(`COPY ${quoted(table)} (${columns.map(quoted).join(", ")}) FROM STDIN`).writable().getWriter();
      try {
        await stream.write(rows.map((row) => row.map(copyField).join("\t")).join("\n") + "\n");
      } catch (err) {
        await stream.abort().catch(() => {});
        throw err;
      }
      await stream.close();
    },
    endTable: async () => {},
    async continueCounters(source) {
      for (const s of await sequences(tx)) {
        const [{ high }] = await tx.unsafe(`SELECT COALESCE(MAX(${quoted(s.column)}), 0) AS high FROM ${quoted(s.table)}`);
        const next = Math.max(num(high), source.get(s.table) ?? 0);
        // setval(…, n, true): the next value is n + 1; a counter never used starts at 1.
        await tx`SELECT setval(${s.sequence}::regclass, ${Math.max(next, 1)}, ${next > 0})`;
      }
    },
    // Fresh statistics for the planner: the service's first queries run on a full database.
    finish: async () => void (await tx`ANALYZE`),
  };
}

/**
 * One value in COPY's text format: \N for NULL, bytea as \\x and hex, and text with its
 * backslashes, tabs and line breaks escaped.
 */
export function copyField(value: unknown): string {
  if (value === null || value === undefined) return "\\N";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (value instanceof Uint8Array) return `\\\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}`;
  return String(value).replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}
