// A database's schema as plain data, to compare two databases or one against a committed dump:
// SQLite's sqlite_master rows (the SQL as each object was created) and user_version; PostgreSQL's
// columns, constraints, indexes, views and sequences from information_schema and the catalogs, and
// its recorded version. Nothing that varies between two databases made alike (root pages, OIDs).

import type { Database } from "bun:sqlite";
import type { SQL } from "bun";

export type SqliteSchema = { version: number; objects: { type: string; name: string; tbl_name: string; sql: string | null }[] };

export function sqliteSchema(db: Database): SqliteSchema {
  const { user_version } = db.query("PRAGMA user_version").get() as { user_version: number };
  const objects = db.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all() as SqliteSchema["objects"];
  return { version: user_version, objects };
}

export type PostgresSchema = { version: number; [part: string]: unknown };

const POSTGRES_PARTS: Record<string, string> = {
  columns: `SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default, collation_name, is_identity, identity_generation
            FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  constraints: `SELECT conrelid::regclass::text AS table_name, conname, contype::text, pg_get_constraintdef(oid) AS definition
                FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2`,
  indexes: "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1, 2",
  views: "SELECT viewname, definition FROM pg_views WHERE schemaname = current_schema() ORDER BY 1",
  sequences: "SELECT sequence_name, data_type FROM information_schema.sequences WHERE sequence_schema = current_schema() ORDER BY 1",
};

export async function postgresSchema(sql: SQL): Promise<PostgresSchema> {
  const [row] = await sql.unsafe("SELECT version FROM shortener_schema");
  const schema: PostgresSchema = { version: Number(row.version) };
  for (const [part, query] of Object.entries(POSTGRES_PARTS)) {
    // Plain objects of plain values (Bun's rows carry extra properties), numbers as numbers.
    const rows = (await sql.unsafe(query)) as Record<string, unknown>[];
    schema[part] = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])));
  }
  return schema;
}
