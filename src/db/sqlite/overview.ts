// The dashboard's overview rows from SQLite's daily rollups (the OverviewSource of src/stats/overview.ts).

import type { Database } from "bun:sqlite";
import type { OverviewSource } from "../../stats/overview.ts";
import type { Synchronous } from "../../util/maybe.ts";

export function sqliteOverview(db: Database): Synchronous<OverviewSource> {
  // owner ?2 NULL: every link; otherwise only that key's links.
  const OWNED = "(?2 IS NULL OR link_id IN (SELECT id FROM links WHERE owner_key_id = ?2))";
  const count = db.query<{ n: number }, [null, number | null]>("SELECT COUNT(*) AS n FROM links WHERE ?2 IS NULL OR owner_key_id = ?2");
  const perDay = db.query<{ day: string; clicks: number }, [string, number | null]>(
    `SELECT day, SUM(total) AS clicks FROM daily_rollup WHERE day >= ?1 AND ${OWNED} GROUP BY day`,
  );
  const top = db.query<{ id: string; url: string; clicks: number }, [string, number | null, number]>(
    `SELECT t.link_id AS id, l.url AS url, t.clicks AS clicks
     FROM (SELECT link_id, SUM(total) AS clicks FROM daily_rollup WHERE day >= ?1 AND ${OWNED} GROUP BY link_id) AS t
     JOIN links AS l ON l.id = t.link_id
     ORDER BY t.clicks DESC, t.link_id LIMIT ?3`,
  );
  const daily = db.query<{ link_id: string; day: string; total: number }, [string, string]>(
    "SELECT link_id, day, total FROM daily_rollup WHERE link_id IN (SELECT value FROM json_each(?)) AND day >= ?",
  );
  return {
    read: (ownerKeyId, first, n) =>
      db.transaction(() => ({ links: count.get(null, ownerKeyId)!.n, perDay: perDay.all(first, ownerKeyId), top: top.all(first, ownerKeyId, n) }))(),
    daily: (ids, first) => daily.all(JSON.stringify(ids), first),
  };
}
