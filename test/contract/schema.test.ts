// Schema parity: the tables, columns (and whether they may be NULL) and indexes that both engines'
// schemas must have, read from freshly migrated databases of each. What only one engine has is
// listed below with its reason; anything else that differs fails here.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { LINK_DATA_TABLES } from "../../src/db/shared/tables.ts";
import { openEngine, type OpenedEngine } from "../support/engines.ts";

type Shape = { columns: Map<string, { nullable: boolean }>; indexes: Map<string, string> };

/** Only in one engine, and why. Keys: "table", "table.column" or "index name". */
const ONLY_SQLITE: Record<string, string> = {
  sqlite_sequence: "SQLite's own counter behind AUTOINCREMENT",
  links_search: "the FTS5 trigram index of link search (PostgreSQL: links_search_trgm)",
  links_search_config: "FTS5's shadow table",
  links_search_data: "FTS5's shadow table",
  links_search_docsize: "FTS5's shadow table",
  links_search_idx: "FTS5's shadow table",
  links_search_state: "how far the recorder thread has indexed new links (PostgreSQL indexes on insert)",
  "visitors_seen.visitors": "one row per batch holding many keys; the set lives in the recorder's memory (PostgreSQL: a row per key)",
  visitors_seen_by_bucket: "PostgreSQL's primary key (bucket, visitor) serves the same reads",
};
const ONLY_POSTGRES: Record<string, string> = {
  shortener_schema: "the schema version (SQLite keeps it in PRAGMA user_version)",
  link_changes: "changes announced to the other instances (one SQLite file has one instance)",
  link_changes_by_time: "the other instances' poll of link_changes",
  "links.answered_clicks": "clicks of limited links counted across instances (SQLite counts them in its one process)",
  "visitors_seen.visitor": "one row per visitor key, decided by the database for every instance",
  links_search_trgm: "pg_trgm's index of link search (SQLite: links_search)",
  links_title_trgm: "pg_trgm's index of link titles for the same search (SQLite: links_search)",
  live_watches: "which links some instance's live view watches, so that every recorder announces their clicks (one SQLite file has one instance)",
  "live_watches.instance": "see live_watches",
  "live_watches.link_id": "see live_watches",
  "live_watches.until": "see live_watches",
};
/** Tables with a link_seq that a link's delete need not clear, and why. */
const NOT_LINK_DATA: Record<string, string> = {
  link_tags: "cleared by its foreign key (ON DELETE CASCADE)",
  events: "the outbox: a link.deleted event must outlive its link's rows until it is delivered",
  webhooks: "a webhook for one link keeps its filter after the link goes (it still hears link.deleted)",
};
/** The only tables that still name a link by its alias (docs/architecture.md: A link's identity), and why. */
const BY_ALIAS: Record<string, string> = {
  link_changes: "names a changed link for the other instances' caches, which are asked by alias; purged after an hour",
  live_watches: "names the links watched live, asked for by alias; gone with the watcher, not with the link",
};

let sqlite: OpenedEngine;
let postgres: OpenedEngine;
const shapes: Record<string, Shape> = {};

beforeAll(async () => {
  [sqlite, postgres] = await Promise.all([openEngine("sqlite"), openEngine("postgres")]);
  shapes.sqlite = await sqliteShape(sqlite);
  shapes.postgres = await postgresShape(postgres);
});
afterAll(async () => {
  await sqlite?.dispose();
  await postgres?.dispose();
});

async function sqliteShape(db: OpenedEngine): Promise<Shape> {
  const columns = new Map<string, { nullable: boolean }>();
  const tables = await db.stored.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
  for (const { name } of tables) {
    columns.set(name, { nullable: false });
    for (const c of await db.stored.all<{ name: string; notnull: number; pk: number }>(`SELECT name, "notnull", pk FROM pragma_table_info(?)`, name)) {
      // A primary key column is never NULL, whatever SQLite's flag says of a rowid alias.
      columns.set(`${name}.${c.name}`, { nullable: c.notnull === 0 && c.pk === 0 });
    }
  }
  const indexes = new Map<string, string>();
  for (const i of await db.stored.all<{ name: string; tbl_name: string; sql: string }>("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")) {
    const cols = await db.stored.all<{ name: string }>("SELECT name FROM pragma_index_info(?) ORDER BY seqno", i.name);
    indexes.set(i.name, `${i.tbl_name}(${cols.map((c) => c.name).join(", ")})${partial(i.sql)}`);
  }
  return { columns, indexes };
}

async function postgresShape(db: OpenedEngine): Promise<Shape> {
  const columns = new Map<string, { nullable: boolean }>();
  const rows = await db.stored.all<{ table_name: string; column_name: string; is_nullable: string }>(
    `SELECT c.table_name, c.column_name, c.is_nullable FROM information_schema.columns AS c
     JOIN information_schema.tables AS t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`,
  );
  for (const r of rows) {
    columns.set(r.table_name, { nullable: false });
    columns.set(`${r.table_name}.${r.column_name}`, { nullable: r.is_nullable === "YES" });
  }
  const indexes = new Map<string, string>();
  // Indexes made by CREATE INDEX (not those behind a primary key or a UNIQUE column).
  const made = await db.stored.all<{ indexname: string; tablename: string; indexdef: string }>(
    `SELECT i.indexname, i.tablename, i.indexdef FROM pg_indexes AS i
     WHERE i.schemaname = current_schema() AND NOT EXISTS (SELECT 1 FROM pg_constraint AS c WHERE c.conname = i.indexname)`,
  );
  for (const i of made) {
    const cols = / USING \w+ \(([^)]*)\)/.exec(i.indexdef)?.[1] ?? "";
    indexes.set(i.indexname, `${i.tablename}(${cols.replace(/ gin_trgm_ops/g, "")})${partial(i.indexdef)}`);
  }
  return { columns, indexes };
}

/** The condition of a partial index, in one spelling for both engines ("" for none). */
function partial(definition: string): string {
  const where = / WHERE (.*)$/is.exec(definition)?.[1];
  // PostgreSQL writes a literal's type ('pending'::text); SQLite keeps the condition as written.
  return where === undefined ? "" : ` where ${where.replace(/::\w+/g, "").replace(/[()\s]+/g, " ").trim().toLowerCase()}`;
}

test("every table and column of one engine is in the other, or listed as the engine's own with a reason", () => {
  const missing = (from: Shape, to: Shape, own: Record<string, string>) =>
    [...from.columns.keys()].filter((k) => !to.columns.has(k) && own[k] === undefined && own[k.split(".")[0]!] === undefined).sort();
  expect(missing(shapes.sqlite!, shapes.postgres!, ONLY_SQLITE)).toEqual([]);
  expect(missing(shapes.postgres!, shapes.sqlite!, ONLY_POSTGRES)).toEqual([]);
  // An exception that no longer applies is stale.
  for (const key of Object.keys(ONLY_SQLITE)) expect({ key, in: shapes.sqlite!.columns.has(key) || shapes.sqlite!.indexes.has(key) }).toEqual({ key, in: true });
  for (const key of Object.keys(ONLY_POSTGRES)) expect({ key, in: shapes.postgres!.columns.has(key) || shapes.postgres!.indexes.has(key) }).toEqual({ key, in: true });
});

test("a column shared by both engines may be NULL in both or in neither", () => {
  const differ = [...shapes.sqlite!.columns].filter(([k, c]) => k.includes(".") && shapes.postgres!.columns.has(k) && shapes.postgres!.columns.get(k)!.nullable !== c.nullable).map(([k]) => k);
  expect(differ).toEqual([]);
});

test("the same indexes, over the same columns", () => {
  const shared = (from: Shape, own: Record<string, string>) => Object.fromEntries([...from.indexes].filter(([name]) => own[name] === undefined).sort());
  expect(shared(shapes.postgres!, ONLY_POSTGRES)).toEqual(shared(shapes.sqlite!, ONLY_SQLITE));
});

test("every table with a link_seq column is cleared by a link's delete (LINK_DATA_TABLES), in both engines", () => {
  for (const engine of ["sqlite", "postgres"] as const) {
    const withLinkSeq = [...shapes[engine]!.columns.keys()].filter((k) => k.endsWith(".link_seq")).map((k) => k.split(".")[0]!);
    expect({ engine, tables: withLinkSeq.filter((t) => NOT_LINK_DATA[t] === undefined).sort() }).toEqual({ engine, tables: [...LINK_DATA_TABLES].sort() });
  }
});

test("no table keys a link's data by its alias: link_id is left only where a link is asked for by alias, in both engines", () => {
  for (const engine of ["sqlite", "postgres"] as const) {
    const withLinkId = [...shapes[engine]!.columns.keys()].filter((k) => k.endsWith(".link_id")).map((k) => k.split(".")[0]!);
    expect({ engine, tables: withLinkId.sort() }).toEqual({ engine, tables: engine === "postgres" ? Object.keys(BY_ALIAS).sort() : [] });
  }
});
