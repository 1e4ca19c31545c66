// SQLite's side of `shortener copy` (src/db/copy.ts): a file read in one read transaction, or a
// new file written in one write transaction. Visitor keys are stored packed (many to a row, see
// seen-visitors.ts); the copy sees them as (bucket, visitor) rows like PostgreSQL's.

import type { Database } from "bun:sqlite";
import type { CopyCounting, CopyReader, CopySource, CopyTarget, CopyWriter, Row } from "../copy.ts";
import type { LinkClicks } from "../copy-verify.ts";
import type { TableColumns } from "../shared/copy-plan.ts";

/** Visitor keys written to one packed row at most (8 bytes each). */
const KEYS_PER_ROW = 1_000;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

function tables(db: Database): TableColumns {
  const out = new Map<string, string[]>();
  for (const { name } of db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()) {
    const columns = db.query<{ name: string }, [string]>("SELECT name FROM pragma_table_info(?) ORDER BY cid").all(name).map((c) => c.name);
    // Packed visitor keys are unpacked into rows of one key each (and packed again as a target).
    out.set(name, name === "visitors_seen" ? columns.map((c) => (c === "visitors" ? "visitor" : c)) : columns);
  }
  return out;
}

function counting(db: Database): CopyCounting {
  return {
    async count(table) {
      const sql = table === "visitors_seen" ? "SELECT COALESCE(SUM(length(visitors)), 0) / 8 AS n FROM visitors_seen" : `SELECT COUNT(*) AS n FROM ${quoted(table)}`;
      return db.query<{ n: number }, []>(sql).get()!.n;
    },
    async *clicks() {
      const query = db.query<{ id: string; domain: string; total: number; humans: number; daily: number; visits: number }, []>(
        `SELECT l.id, l.domain, l.total_clicks AS total, l.human_clicks AS humans,
                COALESCE((SELECT SUM(d.total) FROM daily_rollup AS d WHERE d.link_seq = l.seq), 0) AS daily,
                COALESCE((SELECT SUM(json_array_length(b.visits)) FROM visit_batches AS b WHERE b.link_seq = l.seq), 0) AS visits
         FROM links AS l ORDER BY l.id, l.domain`,
      );
      for (const row of query.iterate()) yield row as LinkClicks;
    },
  };
}

function reader(db: Database): CopyReader {
  return {
    ...counting(db),
    async *rows(table, columns, batch, orderBy) {
      let out: Row[] = [];
      if (table === "visitors_seen") {
        for (const row of db.query<{ bucket: string; visitors: Uint8Array }, []>("SELECT bucket, visitors FROM visitors_seen ORDER BY bucket").iterate()) {
          // A copy of the bytes: a blob need not be 8-byte aligned for a Float64Array.
          for (const key of new Float64Array(Uint8Array.from(row.visitors).buffer)) out.push(columns.map((c) => (c === "bucket" ? row.bucket : key)));
          if (out.length >= batch) {
            yield out;
            out = [];
          }
        }
      } else {
        const query = db.query<Record<string, unknown>, []>(`SELECT ${columns.map(quoted).join(", ")} FROM ${quoted(table)}${orderBy ? ` ORDER BY ${quoted(orderBy)}` : ""}`);
        for (const row of query.iterate()) {
          out.push(columns.map((c) => row[c]));
          if (out.length >= batch) {
            yield out;
            out = [];
          }
        }
      }
      if (out.length > 0) yield out;
    },
    async counters() {
      const rows = db.query<{ name: string; seq: number }, []>("SELECT name, seq FROM sqlite_sequence").all();
      return new Map(rows.map((r) => [r.name, r.seq]));
    },
  };
}

/** A file to copy from; the reads of snapshot() see one state of it, whatever the service writes meanwhile. */
export function sqliteCopySource(db: Database): CopySource {
  return {
    engine: "sqlite",
    tables: async () => tables(db),
    async snapshot(fn) {
      db.run("BEGIN");
      try {
        // A deferred transaction takes its snapshot at its first read.
        db.query("SELECT COUNT(*) FROM sqlite_master").get();
        return await fn(reader(db));
      } finally {
        db.run("ROLLBACK");
      }
    },
    close: async () => db.close(),
  };
}

/** A file to copy into (opened and migrated by the caller). */
export function sqliteCopyTarget(db: Database): CopyTarget {
  return {
    engine: "sqlite",
    tables: async () => tables(db),
    async transaction(fn) {
      db.run("BEGIN IMMEDIATE");
      let outcome;
      try {
        outcome = await fn(writer(db));
      } catch (err) {
        db.run("ROLLBACK");
        throw err;
      }
      db.run(outcome.keep ? "COMMIT" : "ROLLBACK");
      return outcome.value;
    },
    close: async () => db.close(),
  };
}

function writer(db: Database): CopyWriter {
  const inserts = new Map<string, ReturnType<Database["query"]>>();
  const insert = (table: string, columns: readonly string[]) => {
    let query = inserts.get(table);
    if (query === undefined) {
      query = db.query(`INSERT INTO ${quoted(table)} (${columns.map(quoted).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
      inserts.set(table, query);
    }
    return query;
  };
  const packed = packVisitors(db);
  return {
    ...counting(db),
    rowsIn: async (table) => db.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM ${quoted(table)}`).get()!.n,
    clear: async (table) => void db.run(`DELETE FROM ${quoted(table)}`),
    async insert(table, columns, rows) {
      if (table === "visitors_seen") {
        const bucket = columns.indexOf("bucket");
        const visitor = columns.indexOf("visitor");
        for (const row of rows) packed.add(row[bucket] as string, Number(row[visitor]));
        return;
      }
      const query = insert(table, columns);
      for (const row of rows) query.run(...(row as never[]));
    },
    endTable: async (table) => {
      if (table === "visitors_seen") packed.flush();
    },
    async continueCounters(source) {
      // Only AUTOINCREMENT keeps a counter in SQLite; other integer keys go on after their highest row.
      const counted = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%'").all();
      for (const { name } of counted) {
        const value = source.get(name) ?? 0;
        const current = db.query<{ seq: number }, [string]>("SELECT seq FROM sqlite_sequence WHERE name = ?").get(name);
        if (current === null && value > 0) db.query("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").run(name, value);
        else if (current !== null && value > current.seq) db.query("UPDATE sqlite_sequence SET seq = ? WHERE name = ?").run(value, name);
      }
    },
    async finish() {
      // As migration 3 does for an upgraded file: the copied links are indexed at once.
      db.run("INSERT INTO links_search (links_search) VALUES ('rebuild')");
      db.run("UPDATE links_search_state SET indexed_upto = (SELECT COALESCE(MAX(seq), 0) FROM links)");
    },
  };
}

/** Gathers one bucket's visitor keys into rows of KEYS_PER_ROW, as the recorder packs them. */
function packVisitors(db: Database): { add(bucket: string, key: number): void; flush(): void } {
  const write = db.query<void, [string, Uint8Array]>("INSERT INTO visitors_seen (bucket, visitors) VALUES (?, ?)");
  let bucket = "";
  let keys: number[] = [];
  const flush = () => {
    if (keys.length > 0) write.run(bucket, new Uint8Array(Float64Array.from(keys).buffer));
    keys = [];
  };
  return {
    add(b, key) {
      if (b !== bucket || keys.length >= KEYS_PER_ROW) flush();
      bucket = b;
      keys.push(key);
    },
    flush,
  };
}
