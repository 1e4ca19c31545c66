// The dashboard's overview rows from PostgreSQL's daily rollups (the OverviewSource of src/stats/overview.ts).

import type { OverviewSource } from "../../stats/overview.ts";
import { num, type Pg } from "./connect.ts";
import { ownerIds } from "../../links/list.ts";

export function postgresOverview(sql: Pg): OverviewSource {
  return {
    async read(owner, first, n, domain) {
      // user and key both NULL: every owner, otherwise the user's or the key's (ownerIds); domain
      // NULL: every domain, else that stored domain's links (links are unique by (domain, id)).
      // Every owner on every domain reads the rollups alone, without asking links.
      const [user, key] = ownerIds(owner);
      // Written out in each query: Bun's SQL has no fragments to share them.
      const [count, perDay, top] = await Promise.all([
        sql`SELECT COUNT(*) AS n FROM links
            WHERE ((${user}::int8 IS NULL AND ${key}::int8 IS NULL) OR owner_user_id = ${user} OR owner_key_id = ${key})
              AND (${domain}::text IS NULL OR domain = ${domain})`,
        sql`SELECT day, SUM(total) AS clicks FROM daily_rollup
            WHERE day >= ${first} AND ((${user}::int8 IS NULL AND ${key}::int8 IS NULL AND ${domain}::text IS NULL)
              OR link_seq IN (SELECT seq FROM links WHERE ((${user}::int8 IS NULL AND ${key}::int8 IS NULL) OR owner_user_id = ${user} OR owner_key_id = ${key})
                AND (${domain}::text IS NULL OR domain = ${domain})))
            GROUP BY day`,
        sql`SELECT l.id AS id, l.domain AS domain, l.url AS url, t.clicks AS clicks
            FROM (SELECT link_seq, SUM(total) AS clicks FROM daily_rollup
                  WHERE day >= ${first} AND ((${user}::int8 IS NULL AND ${key}::int8 IS NULL AND ${domain}::text IS NULL)
                    OR link_seq IN (SELECT seq FROM links WHERE ((${user}::int8 IS NULL AND ${key}::int8 IS NULL) OR owner_user_id = ${user} OR owner_key_id = ${key})
                      AND (${domain}::text IS NULL OR domain = ${domain})))
                  GROUP BY link_seq) AS t
            JOIN links AS l ON l.seq = t.link_seq
            ORDER BY t.clicks DESC, l.id, l.domain LIMIT ${n}`,
      ]);
      return {
        links: num(count[0].n),
        perDay: perDay.map((r: Record<string, unknown>) => ({ day: r.day as string, clicks: num(r.clicks) })),
        top: top.map((r: Record<string, unknown>) => ({ id: r.id as string, domain: r.domain as string, url: r.url as string, clicks: num(r.clicks) })),
      };
    },
    async daily(seqs, first) {
      const rows = await sql`SELECT link_seq, day, total FROM daily_rollup WHERE link_seq = ANY(${sql.array([...seqs], "INT8")}) AND day >= ${first}`;
      return rows.map((r: Record<string, unknown>) => ({ link_seq: num(r.link_seq), day: r.day as string, total: num(r.total) }));
    },
  };
}
