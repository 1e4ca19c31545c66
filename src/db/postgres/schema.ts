// Applies PostgreSQL's side of the migrations (src/db/migrations/index.ts): the same tables as
// SQLite's, with PostgreSQL's types, its version recorded in shortener_schema. Several instances
// may start at once: the first takes an advisory lock and migrates, in one transaction, the others
// wait for it and find nothing left to do.

import type { TransactionSQL } from "bun";
import type { Pg } from "./connect.ts";
import { POSTGRES_STEPS } from "../migrations/versions.ts";
import type { PostgresDialect } from "../migrations/step.ts";

export const PG_SCHEMA_VERSION = POSTGRES_STEPS.length;
// Any constant both sides agree on: the advisory lock that serializes migrations across instances.
const MIGRATION_LOCK = 0x73686f72; // "shor"

/**
 * Brings the database's schema up to date (up to `target`, for tests that build an older database);
 * refuses one from a newer release.
 */
export async function migratePostgres(
  sql: Pg,
  target = POSTGRES_STEPS.length,
  steps: readonly PostgresDialect[] = POSTGRES_STEPS,
): Promise<{ searchIndex: boolean }> {
  return await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS shortener_schema (version integer NOT NULL)`;
    const rows = await tx`SELECT version FROM shortener_schema`;
    if (rows.length === 0) await tx`INSERT INTO shortener_schema (version) VALUES (0)`;
    const current: number = rows[0]?.version ?? 0;
    if (current > steps.length) {
      throw new Error(`database schema version ${current} is newer than this release understands (${steps.length}); use a newer shortener`);
    }
    for (let version = current + 1; version <= target; version++) {
      const step = steps[version - 1]!;
      if (typeof step === "string") await tx.unsafe(step);
      else await step(tx);
      await tx`UPDATE shortener_schema SET version = ${version}`;
    }
    return { searchIndex: await trigramIndex(tx) };
  });
}

/**
 * Substring search (the list's q) uses a trigram index when the pg_trgm extension can be had: it
 * ships with PostgreSQL and is trusted, so the database's owner may create it. Without it searches
 * scan the links, which stays fast enough for tens of thousands.
 */
async function trigramIndex(tx: TransactionSQL): Promise<boolean> {
  const made = await madeIndex(tx, "links_search_trgm", "gin (id gin_trgm_ops, url gin_trgm_ops)");
  // Titles on their own (step 14 added them): the planner ORs the two, and the first stays as it was.
  const titled = await tx`SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'links' AND column_name = 'title'`;
  if (made && titled.length > 0) await madeIndex(tx, "links_title_trgm", "gin (title gin_trgm_ops)");
  return made;
}

/** A trigram index on links, made unless there; false when pg_trgm cannot be had. */
async function madeIndex(tx: TransactionSQL, name: string, using: string): Promise<boolean> {
  const present = await tx`SELECT 1 FROM pg_indexes WHERE tablename = 'links' AND indexname = ${name}`;
  if (present.length > 0) return true;
  try {
    // A savepoint: a refused CREATE EXTENSION must not undo the migrations before it.
    await tx.savepoint(async (sp) => {
      await sp`CREATE EXTENSION IF NOT EXISTS pg_trgm`;
      await sp.unsafe(`CREATE INDEX ${name} ON links USING ${using}`);
    });
    return true;
  } catch {
    return false;
  }
}
