// Imports in PostgreSQL (the ImportTarget of src/imports/target.ts): each write one transaction
// with the import's cursor; links and rollups are locked in key order, as the recorders lock them.

import type { TransactionSQL } from "bun";
import type { Cursor, ImportTarget } from "../../imports/target.ts";
import { num, type Pg } from "./connect.ts";
import { insertLinksIn } from "./links.ts";
import { writeCountsIn, writeImportedVisitsIn } from "./visit-batches.ts";
import { linkKey } from "../../domains/link-key.ts";
import { DEFAULT_SETTINGS } from "../../domains/domain.ts";
import { postgresDomains } from "./domains.ts";

export function postgresImports(sql: Pg): ImportTarget {
  const domains = postgresDomains(sql);
  const moveCursors = (tx: TransactionSQL, source: string, cursors: readonly Cursor[]) =>
    tx`INSERT INTO import_cursors (source, scope, cursor)
       SELECT ${source}, * FROM unnest(${sql.array(cursors.map(([scope]) => scope), "TEXT")}::text[], ${sql.array(cursors.map(([, c]) => c), "TEXT")}::text[])
       ORDER BY 2
       ON CONFLICT (source, scope) DO UPDATE SET cursor = excluded.cursor`;
  return {
    async importedLinks(source) {
      const rows = await sql`SELECT i.code, l.domain, l.id, l.seq FROM import_links AS i JOIN links AS l ON l.seq = i.link_seq WHERE i.source = ${source}`;
      return new Map(rows.map((r: { code: string; domain: string; id: string; seq: string }) => [r.code, { id: linkKey(r.domain, r.id), seq: num(r.seq) }]));
    },
    async takenIds(asked) {
      const domains = sql.array(asked.map((a) => a.domain), "TEXT");
      const ids = sql.array(asked.map((a) => a.id), "TEXT");
      // Each (domain, id) asked, found by links' and retired_ids' (domain, id) keys.
      const rows = await sql`WITH asked AS (SELECT * FROM unnest(${domains}::text[], ${ids}::text[]) AS a(domain, id))
        SELECT l.domain, l.id, 'taken' AS how FROM asked JOIN links AS l ON l.domain = asked.domain AND l.id = asked.id
        UNION ALL SELECT r.domain, r.id, 'retired' FROM asked JOIN retired_ids AS r ON r.domain = asked.domain AND r.id = asked.id`;
      return new Map(rows.map((r: { domain: string; id: string; how: "taken" | "retired" }) => [linkKey(r.domain, r.id), r.how]));
    },
    domains: () => domains.settings(),
    addDomain: async (name, now) => (await domains.add({ ...DEFAULT_SETTINGS, name, isDefault: false, createdAt: now })) !== "taken",
    addLinks: (source, rows) =>
      sql.begin(async (tx) => {
        const outcomes = await insertLinksIn(tx, sql, rows);
        const kept = rows.flatMap((r, i) => (typeof outcomes[i] === "number" ? [{ key: r.key, seq: outcomes[i] }] : []));
        if (kept.length > 0) {
          await tx`INSERT INTO import_links (source, code, link_seq)
                   SELECT ${source}, * FROM unnest(${sql.array(kept.map((r) => r.key), "TEXT")}::text[], ${sql.array(kept.map((r) => r.seq), "INT8")}::int8[])
                   ON CONFLICT (source, code) DO UPDATE SET link_seq = excluded.link_seq`;
        }
        return rows.filter((_, i) => typeof outcomes[i] !== "number").map((r) => r.key);
      }),
    async cursor(source, scope) {
      const rows = await sql`SELECT cursor FROM import_cursors WHERE source = ${source} AND scope = ${scope}`;
      return rows.length === 0 ? null : (rows[0].cursor as string);
    },
    async swapCursor(source, scope, expected, next) {
      if (expected === null) {
        if (next === null) return false;
        return (await sql`INSERT INTO import_cursors (source, scope, cursor) VALUES (${source}, ${scope}, ${next}) ON CONFLICT DO NOTHING RETURNING 1`).length === 1;
      }
      const rows = next === null
        ? await sql`DELETE FROM import_cursors WHERE source = ${source} AND scope = ${scope} AND cursor = ${expected} RETURNING 1`
        : await sql`UPDATE import_cursors SET cursor = ${next} WHERE source = ${source} AND scope = ${scope} AND cursor = ${expected} RETURNING 1`;
      return rows.length === 1;
    },
    async cursors(source, prefix) {
      const rows = await sql`SELECT scope, cursor FROM import_cursors WHERE source = ${source} AND scope >= ${prefix} AND scope < ${prefix + "\uffff"}`;
      return new Map(rows.map((r: { scope: string; cursor: string }) => [r.scope, r.cursor]));
    },
    addVisits: (source, cursors, visits) =>
      sql.begin(async (tx) => {
        if (visits.length > 0) await writeImportedVisitsIn(tx, sql, visits);
        await moveCursors(tx, source, cursors);
      }),
    addCounts: (source, cursors, counts) =>
      sql.begin(async (tx) => {
        if (counts.totals.size > 0) await writeCountsIn(tx, sql, counts);
        await moveCursors(tx, source, cursors);
      }),
  };
}
