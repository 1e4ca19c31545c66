// The benchmark's database on PostgreSQL: the same links and visits as the SQLite seed (seed.ts),
// written through the service's own PostgreSQL link store and visit writer; the 100,000 links of
// the owner's list in one bulk insert (one create at a time would take minutes over a socket).
// The database must be empty (it is migrated here, before the binary starts on it).

import { connectPostgres, type Pg } from "../../src/db/postgres/connect.ts";
import { migratePostgres } from "../../src/db/postgres/schema.ts";
import { postgresClickBudget, postgresLinks } from "../../src/db/postgres/links.ts";
import { postgresBatches } from "../../src/db/postgres/visit-batches.ts";
import { createLinkStore } from "../../src/links/store.ts";
import { createVisitQueue } from "../../src/visits/visit-queue.ts";
import { LIST_LINKS, listLink, recordVisits, type SeedResult } from "./seed.ts";

export async function seedPostgres(url: string, visitsPerLink: Record<string, number>, days = 30): Promise<SeedResult> {
  const started = performance.now();
  const sql = connectPostgres(url, { max: 4, password: null });
  try {
    const existing = await sql`SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'links'`;
    if (existing.length > 0) throw new Error(`${new URL(url).pathname.slice(1)} already holds links: the benchmark needs an empty database (dropdb and createdb it)`);
    await migratePostgres(sql);
    const writer = createVisitQueue(postgresBatches(sql, Date.now), { flushIntervalMs: 60_000, maxQueued: 1_000_000 });
    const now = Date.now();
    const ids = await recordVisits(createLinkStore(postgresLinks(sql), postgresClickBudget(sql)), writer.record, visitsPerLink, now, days, () => Promise.resolve(writer.flush()));
    await writer.close();
    const visits = Object.values(visitsPerLink).reduce((a, b) => a + b, 0);
    const { written, dropped, lastError } = writer.stats();
    if (written !== visits || dropped !== 0) throw new Error(`seeding wrote ${written} of ${visits} visits (${dropped} dropped; ${lastError})`);
    await insertListLinks(sql, now);
    await sql`ANALYZE`;
    return { ids, seconds: (performance.now() - started) / 1000, visits, links: LIST_LINKS };
  } finally {
    await sql.close();
  }
}

async function insertListLinks(sql: Pg, now: number): Promise<void> {
  const links = Array.from({ length: LIST_LINKS }, (_, i) => listLink(i, now));
  await sql.begin(async (tx) => {
    await tx`
      INSERT INTO links (id, url, created_at)
      SELECT * FROM unnest(${sql.array(links.map((l) => l.id), "TEXT")}::text[], ${sql.array(links.map((l) => l.url), "TEXT")}::text[],
                           ${sql.array(links.map((l) => l.createdAt), "INT8")}::int8[])`;
    const tagged = links.filter((l) => l.tags.length > 0);
    await tx`
      INSERT INTO link_tags (link_seq, tag)
      SELECT l.seq, 'tenth' FROM links AS l WHERE l.id = ANY(${sql.array(tagged.map((l) => l.id), "TEXT")}::text[])`;
  });
}
