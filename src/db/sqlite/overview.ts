// The dashboard's overview rows from SQLite's daily rollups (the OverviewSource of src/stats/overview.ts).

import type { Database } from "bun:sqlite";
import type { DailyRollupRow, OverviewSource } from "../../stats/overview.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { ownerIds } from "../../links/list.ts";

type Params = [string, number | null, number | null, number, string | null];

export function sqliteOverview(db: Database): Synchronous<OverviewSource> {
  // ?1 the first day, ?2 the user, ?3 the key (ownerIds: both NULL for every owner), ?4 how many
  // top links, ?5 the stored domain (NULL: every domain; links are unique by (domain, id), so
  // `domain = ?5` reads that index).
  const MINE = "((?2 IS NULL AND ?3 IS NULL) OR owner_user_id = ?2 OR owner_key_id = ?3) AND (?5 IS NULL OR domain = ?5)";
  // Every link of every domain: the rollups alone, without asking links.
  const OWNED = `((?2 IS NULL AND ?3 IS NULL AND ?5 IS NULL) OR link_seq IN (SELECT seq FROM links WHERE ${MINE}))`;
  const count = db.query<{ n: number }, Params>(`SELECT COUNT(*) AS n FROM links WHERE ${MINE}`);
  const perDay = db.query<{ day: string; clicks: number }, Params>(`SELECT day, SUM(total) AS clicks FROM daily_rollup WHERE day >= ?1 AND ${OWNED} GROUP BY day`);
  const top = db.query<{ id: string; domain: string; url: string; clicks: number }, Params>(
    `SELECT l.id AS id, l.domain AS domain, l.url AS url, t.clicks AS clicks
     FROM (SELECT link_seq, SUM(total) AS clicks FROM daily_rollup WHERE day >= ?1 AND ${OWNED} GROUP BY link_seq) AS t
     JOIN links AS l ON l.seq = t.link_seq
     ORDER BY t.clicks DESC, l.id, l.domain LIMIT ?4`,
  );
  const daily = db.query<DailyRollupRow, [string, string]>(
    "SELECT link_seq, day, total FROM daily_rollup WHERE link_seq IN (SELECT value FROM json_each(?)) AND day >= ?",
  );
  return {
    read(owner, first, n, domain) {
      const [user, key] = ownerIds(owner);
      const params: Params = [first, user, key, n, domain];
      return db.transaction(() => ({ links: count.get(...params)!.n, perDay: perDay.all(...params), top: top.all(...params) }))();
    },
    daily: (seqs, first) => daily.all(JSON.stringify(seqs), first),
  };
}
