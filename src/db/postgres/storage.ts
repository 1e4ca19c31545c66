// The PostgreSQL engine: every part over one pool of the click thread, the schema brought up to
// date first, and the link cache kept in step with the other instances (link-changes.ts).

import type { Storage } from "../storage.ts";
import { describeLocation } from "../storage.ts";
import { connectPostgres, num } from "./connect.ts";
import { migratePostgres } from "./schema.ts";
import { watchLinkChanges } from "./link-changes.ts";
import { createPgLinkStore } from "./links.ts";
import { createPgLinkLister } from "./lister.ts";
import { createPgStatsReader } from "./stats.ts";
import { createPgKeyStore } from "./keys.ts";
import { createPgSessionStore } from "./sessions.ts";
import { createPgDailyCounts, createPgOverviewReader } from "./overview.ts";

// The click thread's pool: clicks that miss the cache and limited links' clicks, the API, the UI.
// With the recorder's 2 and the listener's 1, an instance holds at most 11 of the server's
// connections (max_connections is 100 by default: several instances fit).
const CLICK_THREAD_CONNECTIONS = 8;

export type PostgresStorage = Storage & { searchIndex: boolean };

export async function openPostgresStorage(url: string, password: string | null): Promise<PostgresStorage> {
  const sql = connectPostgres(url, { max: CLICK_THREAD_CONNECTIONS, password });
  let stopListening: (() => Promise<void>) | null = null;
  try {
    const { searchIndex } = await migratePostgres(sql);
    const links = createPgLinkStore(sql);
    stopListening = await watchLinkChanges(sql, links.forget);
    return {
      engine: "postgres",
      where: describeLocation(url),
      searchIndex,
      links,
      lister: createPgLinkLister(sql),
      stats: createPgStatsReader(sql),
      keys: createPgKeyStore(sql),
      sessions: createPgSessionStore(sql),
      overview: createPgOverviewReader(sql),
      dailyCounts: createPgDailyCounts(sql),
      async ping() {
        await sql`SELECT 1`;
      },
      async size() {
        const [row] = await sql`SELECT (SELECT COUNT(*) FROM links) AS links, pg_database_size(current_database()) AS bytes`;
        return { links: num(row.links), bytes: num(row.bytes) };
      },
      async idsAmong(words) {
        return (await sql`SELECT id FROM links WHERE lower(id) = ANY(${sql.array([...words], "TEXT")})`).map((r: { id: string }) => r.id);
      },
      async close() {
        await stopListening?.();
        await sql.close({ timeout: 5 });
      },
    };
  } catch (err) {
    await stopListening?.().catch(() => {});
    await sql.close({ timeout: 1 }).catch(() => {});
    throw err;
  }
}
