// The dashboard's overview rows from SQLite's daily rollups (the OverviewSource of src/stats/overview.ts).

import type { Database } from "bun:sqlite";
import type { DailyRollupRow, OverviewSource } from "../../stats/overview.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { ownerIds } from "../../links/list.ts";

export function sqliteOverview(db: Database): Synchronous<OverviewSource> {
  // ?2 the user, ?3 the key (ownerIds): both NULL for every link.
  const MINE = "(owner_user_id = ?2 OR owner_key_id = ?3)";
  const OWNED = `((?2 IS NULL AND ?3 IS NULL) OR link_seq IN (SELECT seq FROM links WHERE ${MINE}))`;
  const count = db.query<{ n: number }, [null, number | null, number | null]>(`SELECT COUNT(*) AS n FROM links WHERE (?2 IS NULL AND ?3 IS NULL) OR ${MINE}`);
  const perDay = db.query<{ day: string; clicks: number }, [string, number | null, number | null]>(
    `SELECT day, SUM(total) AS clicks FROM daily_rollup WHERE day >= ?1 AND ${OWNED} GROUP BY day`,
  );
  const top = db.query<{ id: string; url: string; clicks: number }, [string, number | null, number | null, number]>(
    `SELECT l.id AS id, l.url AS url, t.clicks AS clicks
     FROM (SELECT link_seq, SUM(total) AS clicks FROM daily_rollup WHERE day >= ?1 AND ${OWNED} GROUP BY link_seq) AS t
     JOIN links AS l ON l.seq = t.link_seq
     ORDER BY t.clicks DESC, l.id LIMIT ?4`,
  );
  const daily = db.query<DailyRollupRow, [string, string]>(
    "SELECT link_seq, day, total FROM daily_rollup WHERE link_seq IN (SELECT value FROM json_each(?)) AND day >= ?",
  );
  return {
    read(owner, first, n) {
      const [user, key] = ownerIds(owner);
      return db.transaction(() => ({ links: count.get(null, user, key)!.n, perDay: perDay.all(first, user, key), top: top.all(first, user, key, n) }))();
    },
    daily: (seqs, first) => daily.all(JSON.stringify(seqs), first),
  };
}
