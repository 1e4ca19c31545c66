// The dashboard's overview rows from PostgreSQL's daily rollups (the OverviewSource of src/stats/overview.ts).

import type { OverviewSource } from "../../stats/overview.ts";
import { num, type Pg } from "./connect.ts";
import { ownerIds } from "../../links/list.ts";

export function postgresOverview(sql: Pg): OverviewSource {
  return {
    async read(owner, first, n) {
      // Both NULL: every link; otherwise the user's or the key's (ownerIds).
      const [user, key] = ownerIds(owner);
      const [count, perDay, top] = await Promise.all([
        sql`SELECT COUNT(*) AS n FROM links WHERE (${user}::int8 IS NULL AND ${key}::int8 IS NULL) OR owner_user_id = ${user} OR owner_key_id = ${key}`,
        sql`SELECT day, SUM(total) AS clicks FROM daily_rollup
            WHERE day >= ${first} AND ((${user}::int8 IS NULL AND ${key}::int8 IS NULL)
              OR link_seq IN (SELECT seq FROM links WHERE owner_user_id = ${user} OR owner_key_id = ${key}))
            GROUP BY day`,
        sql`SELECT l.id AS id, l.url AS url, t.clicks AS clicks
            FROM (SELECT link_seq, SUM(total) AS clicks FROM daily_rollup
                  WHERE day >= ${first} AND ((${user}::int8 IS NULL AND ${key}::int8 IS NULL)
                    OR link_seq IN (SELECT seq FROM links WHERE owner_user_id = ${user} OR owner_key_id = ${key}))
                  GROUP BY link_seq) AS t
            JOIN links AS l ON l.seq = t.link_seq
            ORDER BY t.clicks DESC, l.id LIMIT ${n}`,
      ]);
      return {
        links: num(count[0].n),
        perDay: perDay.map((r: Record<string, unknown>) => ({ day: r.day as string, clicks: num(r.clicks) })),
        top: top.map((r: Record<string, unknown>) => ({ id: r.id as string, url: r.url as string, clicks: num(r.clicks) })),
      };
    },
    async daily(seqs, first) {
      const rows = await sql`SELECT link_seq, day, total FROM daily_rollup WHERE link_seq = ANY(${sql.array([...seqs], "INT8")}) AND day >= ${first}`;
      return rows.map((r: Record<string, unknown>) => ({ link_seq: num(r.link_seq), day: r.day as string, total: num(r.total) }));
    },
  };
}
