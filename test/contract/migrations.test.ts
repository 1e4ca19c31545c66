// The migrations of both engines, from the one list (src/db/migrations/index.ts), on real
// databases: the shipped steps on an empty database give exactly the schema that the two arrays
// they came from gave (test/fixtures/schema/, dumped from the code of 88a0fff, the last with the
// arrays); a database written by the binary of 31f911e (test/fixtures/31f911e/: the SQLite file,
// and pg_dump's SQL; made by make.ts there) upgrades, each missing step once, to the schema of a
// fresh database with every row it held; a database newer than this release is refused and left
// as it was.

import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, SCHEMA_VERSION } from "../../src/db/sqlite/schema.ts";
import { migratePostgres, PG_SCHEMA_VERSION } from "../../src/db/postgres/schema.ts";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import { engineVersion } from "../../src/db/migrations/versions.ts";
import type { Engine } from "../../src/db/storage.ts";
import { ENGINES } from "../support/engines.ts";
import { sharedPostgres } from "../support/postgres.ts";
import { postgresSchema, sqliteSchema } from "../support/schema-dump.ts";

const FIXTURES = join(import.meta.dir, "../fixtures");
/** The last step that the two arrays held: what the schema dumps show. */
const ARRAYS_LAST_STEP = 11;

/** An empty database of one engine, read and migrated the way each test needs. */
type Raw = {
  /** becomes the database the binary of 31f911e wrote (test/fixtures/31f911e/) */
  loadFixture(): Promise<void>;
  /** the engine's runner, as the service opens the database (to `target`, an engine version) */
  migrate(target?: number): Promise<void>;
  schema(): Promise<{ version: number }>;
  setVersion(version: number): Promise<void>;
  /** every table's rows, each table's sorted, as text */
  rows(): Promise<Record<string, string[]>>;
  /** runs statements (to add rows the binary of 31f911e could have written) */
  exec(statements: string): Promise<void>;
  close(): Promise<void>;
};

async function openRaw(engine: Engine): Promise<Raw> {
  return engine === "sqlite" ? openRawSqlite() : await openRawPostgres();
}

function openRawSqlite(): Raw {
  const dir = mkdtempSync(join(tmpdir(), "shortener-migrations-"));
  const path = join(dir, "s.db");
  let db = new Database(path, { create: true, strict: true });
  return {
    loadFixture: async () => {
      db.close();
      copyFileSync(join(FIXTURES, "31f911e/sqlite.db"), path);
      db = new Database(path, { strict: true });
    },
    migrate: async (target) => {
      if (target !== undefined) return migrate(db, target);
      db.close();
      try {
        db = openDatabase(path); // the service's own open: its pragmas, then every missing step
      } catch (error) {
        db = new Database(path, { strict: true }); // to read what the refusal left
        throw error;
      }
    },
    schema: async () => sqliteSchema(db),
    setVersion: async (version) => void db.run(`PRAGMA user_version = ${version}`),
    rows: async () => {
      const tables = db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
      return Object.fromEntries(tables.map(({ name }) => [name, (db.query(`SELECT * FROM "${name}"`).all() as object[]).map(text).sort()]));
    },
    exec: async (statements) => void db.run(statements),
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openRawPostgres(): Promise<Raw> {
  const pg = await sharedPostgres();
  const url = await pg.createDatabase();
  let sql = new SQL(url, { max: 1 });
  return {
    loadFixture: async () => {
      await sql.unsafe(readFileSync(join(FIXTURES, "31f911e/postgres.sql"), "utf8"));
      // A dump sets the session's search_path to nothing: the runner gets a connection of its own.
      await sql.close();
      sql = new SQL(url, { max: 1 });
    },
    migrate: async (target) => void (await migratePostgres(sql, target)),
    schema: async () => await postgresSchema(sql),
    setVersion: async (version) => void (await sql.unsafe(`UPDATE shortener_schema SET version = ${version}`)),
    rows: async () => {
      const tables = (await sql.unsafe("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1")) as { table_name: string }[];
      const out: Record<string, string[]> = {};
      for (const { table_name } of tables) out[table_name] = ((await sql.unsafe(`SELECT * FROM "${table_name}"`)) as object[]).map(text).sort();
      return out;
    },
    exec: async (statements) => void (await sql.unsafe(statements)),
    close: async () => {
      await sql.close();
      await pg.dropDatabase(url);
    },
  };
}

/** A row as comparable text (bytes as hex). */
function text(row: object): string {
  return JSON.stringify(row, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString("hex") : typeof v === "bigint" ? String(v) : v));
}

/** A row as text with its columns in name order (an engine may add a column at the end). */
function sortedKeys(row: Record<string, unknown>): string {
  const columns = Object.keys(row).sort();
  // PostgreSQL's int8 arrives as text: compared as numbers, as SQLite gives them.
  return JSON.stringify(Object.fromEntries(columns.map((k) => [k, typeof row[k] === "string" && /^\d+$/.test(row[k]) ? Number(row[k]) : row[k]])));
}

/** Each link's and retired id's seq after step 12 (a retired id's is new: read, then checked apart). */
function seqsAfter(after: Record<string, string[]>): (id: string) => number | undefined {
  const seqs = new Map<string, number>();
  for (const table of ["links", "retired_ids"]) for (const row of after[table]!) seqs.set(JSON.parse(row).id, Number(JSON.parse(row).seq));
  return (id) => seqs.get(id);
}

/** A row of the 31f911e database as step 12 leaves it (src/db/migrations/012-links-by-seq.ts). */
/** The links columns steps after 13 added, as an upgraded row holds them: step 14 no title (the search index has one too), step 15 no card. */
const LATER_SEARCH_COLUMNS = { title: null };
const LATER_LINK_COLUMNS = { ...LATER_SEARCH_COLUMNS, card_title: null, card_description: null, card_image: null };

function asOfStep12(table: string, row: Record<string, unknown>, seqOf: (id: string) => number | undefined, retiredSeqs: number[]): Record<string, unknown> {
  const out = { ...row };
  if (table === "links") Object.assign(out, { domain: "" }, LATER_LINK_COLUMNS);
  if (table === "links_search") Object.assign(out, LATER_SEARCH_COLUMNS);
  // The links' counter moves past the seqs retired ids were given.
  if (table === "sqlite_sequence" && row.name === "links") out.seq = Math.max(Number(row.seq), ...retiredSeqs);
  if (table === "retired_ids") Object.assign(out, { domain: "", seq: seqOf(row.id as string) });
  if ("link_id" in row && table !== "link_changes" && table !== "live_watches") {
    delete out.link_id;
    out.link_seq = row.link_id === null ? null : seqOf(row.link_id as string);
  }
  return out;
}

const opened: Raw[] = [];
async function raw(engine: Engine): Promise<Raw> {
  const db = await openRaw(engine);
  opened.push(db);
  return db;
}
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

const LATEST: Record<Engine, number> = { sqlite: SCHEMA_VERSION, postgres: PG_SCHEMA_VERSION };
/** The tables the 31f911e fixture must hold rows in, for the upgrade to show that it keeps them. */
const FILLED = ["links", "link_tags", "retired_ids", "visit_batches", "daily_rollup", "hourly_rollup", "dimension_rollup", "utm_rollup",
  "api_keys", "users", "sessions", "webhooks", "events", "webhook_deliveries"];
/** Tables the runner itself writes: the recorded version, checked on its own. */
const VERSION_TABLES = new Set(["shortener_schema"]);
/**
 * SQLite's search index's own tables: step 14 makes the index anew, empty, and the recorder fills it
 * in the background (test/unit/sqlite-search.test.ts shows searches right meanwhile).
 */
const SEARCH_INDEX_TABLES = new Set(["links_search_data", "links_search_idx", "links_search_docsize", "links_search_state"]);

for (const engine of ENGINES) {
  describe(`migrations (${engine})`, () => {
    test(`steps 1 to ${ARRAYS_LAST_STEP} on an empty database give exactly the schema the engine's array of migrations gave`, async () => {
      const db = await raw(engine);
      await db.migrate(engineVersion(engine, ARRAYS_LAST_STEP));
      const expected = JSON.parse(readFileSync(join(FIXTURES, `schema/step-0${ARRAYS_LAST_STEP}.${engine}.json`), "utf8"));
      expect(await db.schema()).toEqual(expected);
    }, 60_000);

    test("a database written by the binary of 31f911e upgrades to a fresh database's schema, every row kept", async () => {
      const old = await raw(engine);
      await old.loadFixture();
      const before = await old.rows();
      expect({ engine, empty: FILLED.filter((t) => !(before[t]?.length)) }).toEqual({ engine, empty: [] });
      expect((await old.schema()).version).toBe(engineVersion(engine, 10)); // 31f911e had steps 1 to 10
      await old.migrate();
      const fresh = await raw(engine);
      await fresh.migrate();
      expect(await old.schema()).toEqual(await fresh.schema());
      const after = await old.rows();
      const seqOf = seqsAfter(after);
      const retiredSeqs = after.retired_ids!.map((r) => Number(JSON.parse(r).seq));
      for (const [table, rows] of Object.entries(before)) {
        if (VERSION_TABLES.has(table) || SEARCH_INDEX_TABLES.has(table)) continue;
        const expected = rows.map((row) => sortedKeys(asOfStep12(table, JSON.parse(row), seqOf, retiredSeqs))).sort();
        expect({ table, rows: after[table]!.map((row) => sortedKeys(JSON.parse(row))).sort() }).toEqual({ table, rows: expected });
      }
    }, 60_000);

    test("step 12 keys a link's data by its seq: a retired id keeps one of its own, a webhook of no link is disabled, an orphan row goes", async () => {
      const old = await raw(engine);
      await old.loadFixture();
      const fixtureDays = (await old.rows()).daily_rollup!.length;
      // Rows the binary of 31f911e could write: a webhook of a link that never existed, the outbox's
      // event of the deleted link "bye", a day counted for "bye" as it was deleted, and the live
      // link "hello" retired too.
      await old.exec(`INSERT INTO webhooks (url, events, link_id, secret, created_at) VALUES ('http://127.0.0.1:9/h', 'link.deleted', 'never', 'whsec_x', 1);
        INSERT INTO events (type, link_id, at, data) VALUES ('link.deleted', 'bye', 2, '{}');
        INSERT INTO daily_rollup (link_id, day, total, bots) VALUES ('bye', '2026-11-28', 1, 0), ('nobody', '2026-11-28', 1, 0);
        INSERT INTO retired_ids (id, retired_at) VALUES ('hello', 4)`); // PostgreSQL's insert racing a delete could leave a live id retired
      await old.migrate();
      const after = await old.rows();
      const retired = after.retired_ids!.map((r) => JSON.parse(r) as { id: string; seq: number; domain: string });
      const links = after.links!.map((r) => JSON.parse(r) as { id: string; seq: number });
      const bye = Number(retired.find((r) => r.id === "bye")!.seq);
      // The live link wins over its retired twin: one seq for the id, its data under it.
      const hello = Number(links.find((l) => l.id === "hello")!.seq);
      expect({ retired: retired.map((r) => r.id).sort(), helloDays: after.daily_rollup!.map((r) => JSON.parse(r)).filter((r) => Number(r.link_seq) === hello).length }).toEqual({ retired: ["bye"], helloDays: 1 });
      expect({ domain: retired[0]!.domain, newerThanEveryLink: links.every((l) => Number(l.seq) < bye) }).toEqual({ domain: "", newerThanEveryLink: true });
      const webhook = after.webhooks!.map((r) => JSON.parse(r)).find((w) => w.url === "http://127.0.0.1:9/h");
      expect({ seq: Number(webhook.link_seq), enabled: Number(webhook.enabled), why: webhook.disabled_reason }).toEqual({ seq: 0, enabled: 0, why: "its link does not exist: never" });
      expect(after.events!.map((r) => JSON.parse(r)).filter((e) => e.type === "link.deleted").map((e) => Number(e.link_seq))).toEqual([bye]);
      expect(after.daily_rollup!.map((r) => JSON.parse(r)).filter((r) => Number(r.link_seq) === bye).length).toBe(1);
      expect(after.daily_rollup!.length).toBe(fixtureDays + 1); // "nobody" went
      // A link made now takes a seq past the retired one: no seq names two links.
      await old.exec("INSERT INTO links (id, url, created_at) VALUES ('fresh', 'https://example.com/', 3)");
      const fresh = (await old.rows()).links!.map((r) => JSON.parse(r)).find((l) => l.id === "fresh");
      expect(Number(fresh.seq)).toBeGreaterThan(bye);
    }, 60_000);

    test("step 13 (several domains): every row of a database from before it is kept, every link on the default domain, and no seq is given twice", async () => {
      const old = await raw(engine);
      await old.loadFixture();
      await old.exec("INSERT INTO retired_ids (id, retired_at) VALUES ('gone-late', 5)");
      await old.migrate(engineVersion(engine, 12));
      const before = await old.rows();
      await old.migrate();
      const after = await old.rows();
      expect(after.domains).toEqual([]);
      for (const [table, rows] of Object.entries(before)) {
        if (VERSION_TABLES.has(table) || SEARCH_INDEX_TABLES.has(table)) continue;
        const expected = rows.map((row) => sortedKeys(table === "links" ? { ...JSON.parse(row), ...LATER_LINK_COLUMNS } : table === "links_search" ? { ...JSON.parse(row), ...LATER_SEARCH_COLUMNS } : JSON.parse(row))).sort();
        expect({ table, rows: after[table]!.map((row) => sortedKeys(JSON.parse(row))).sort() }).toEqual({ table, rows: expected });
      }
      expect(after.links!.map((r) => JSON.parse(r).domain).every((d) => d === "")).toBe(true);
      const highest = Math.max(...after.retired_ids!.map((r) => Number(JSON.parse(r).seq)));
      await old.exec("INSERT INTO links (id, url, created_at) VALUES ('fresh13', 'https://example.com/', 3)");
      const fresh = (await old.rows()).links!.map((r) => JSON.parse(r)).find((l) => l.id === "fresh13");
      expect(Number(fresh.seq)).toBeGreaterThan(highest);
      // The same alias may now be on two domains, and only once on each.
      await old.exec("INSERT INTO links (domain, id, url, created_at) VALUES ('b.example', 'fresh13', 'https://example.com/b', 3)");
      await expect(old.exec("INSERT INTO links (domain, id, url, created_at) VALUES ('b.example', 'fresh13', 'https://example.com/c', 3)")).rejects.toThrow();
    }, 60_000);

    test("a database newer than this release is refused, and left as it was", async () => {
      const db = await raw(engine);
      await db.migrate();
      await db.setVersion(LATEST[engine] + 1);
      const schema = await db.schema();
      await expect(db.migrate()).rejects.toThrow(`database schema version ${LATEST[engine] + 1} is newer than this release understands (${LATEST[engine]})`);
      expect(await db.schema()).toEqual(schema);
    }, 60_000);
  });
}
