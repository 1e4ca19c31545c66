// The PostgreSQL engine: every adapter over one pool of the click thread, the schema brought up to
// date first, and the link cache kept in step with the other instances (link-changes.ts).

import { postgresSalts } from "./visitor-salts.ts";
import { postgresImports } from "./imports.ts";
import type { EngineStorage } from "../storage.ts";
import { describeLocation } from "../storage.ts";
import { connectPostgres, num } from "./connect.ts";
import { migratePostgres } from "./schema.ts";
import { watchLinkChanges } from "./link-changes.ts";
import { postgresClickBudget, postgresLinks } from "./links.ts";
import { postgresLister } from "./lister.ts";
import { postgresStats } from "./stats.ts";
import { postgresKeys } from "./keys.ts";
import { postgresShares } from "./shares.ts";
import { postgresSessions } from "./sessions.ts";
import { postgresUsers } from "./users.ts";
import { postgresOverview } from "./overview.ts";
import { postgresOrphanVisits } from "./orphan-visits.ts";
import { postgresVisitPages } from "./visit-pages.ts";
import { postgresVisitExport } from "./visit-export.ts";
import { postgresEvents } from "./events.ts";
import { postgresInstances } from "./instances.ts";
import { postgresDomains } from "./domains.ts";
import { startLiveRelay } from "./live-relay.ts";

// The click thread's pool: clicks that miss the cache and limited links' clicks, the API, the UI.
// With the recorder's 2 and the listener's 1, an instance holds at most 11 of the server's
// connections (max_connections is 100 by default: several instances fit).
const CLICK_THREAD_CONNECTIONS = 8;

export type PostgresStorage = EngineStorage & { searchIndex: boolean };

export async function openPostgresStorage(url: string, password: string | null): Promise<PostgresStorage> {
  const sql = connectPostgres(url, { max: CLICK_THREAD_CONNECTIONS, password });
  let stopFollowing: (() => Promise<void>) | null = null;
  try {
    const { searchIndex } = await migratePostgres(sql);
    return {
      engine: "postgres",
      where: describeLocation(url),
      searchIndex,
      links: postgresLinks(sql),
      budget: postgresClickBudget(sql),
      lister: postgresLister(sql),
      stats: postgresStats(sql),
      overview: postgresOverview(sql),
      visitPages: postgresVisitPages(sql),
      visitExport: postgresVisitExport(sql),
      orphans: postgresOrphanVisits(sql),
      keys: postgresKeys(sql),
      sessions: postgresSessions(sql),
      shares: postgresShares(sql),
      users: postgresUsers(sql),
      salts: postgresSalts(sql),
      imports: postgresImports(sql),
      events: postgresEvents(sql),
      instances: postgresInstances(sql),
      domains: postgresDomains(sql),
      relayLive: (publish, recorderWatch) => startLiveRelay(sql, publish, recorderWatch),
      async follow(links) {
        stopFollowing = await watchLinkChanges(sql, links.forget);
      },
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
        await stopFollowing?.();
        await sql.close({ timeout: 5 });
      },
    };
  } catch (err) {
    await sql.close({ timeout: 1 }).catch(() => {});
    throw err;
  }
}
