// SQLite's side of visits to no link (src/visits/orphans.ts, src/stats/orphan-visits.ts): the
// writes inside a batch's transaction, the reads (the summary, a page), which run on the reader
// thread, and the delete's slices, on the click thread's connection.

import type { Database } from "bun:sqlite";
import type { OrphanWrites } from "../../visits/orphans.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { orphanPage, orphanSummary, type OrphanDeleteSlices, type OrphanPage, type OrphanPageQuery, type OrphanRange, type OrphanSummary, type OrphanPlaceRow, type OrphanDailyRead } from "../../stats/orphan-visits.ts";
import { ORPHAN_DAILY_SQL, ORPHAN_PLACES_SQL } from "../shared/orphan-visit-sql.ts";

export function sqliteOrphanWrites(db: Database): Synchronous<OrphanWrites> {
  const insertRow = db.query(`INSERT INTO orphan_batches (type, first_ts, last_ts, n, humans, visits) VALUES (?, ?, ?, ?, ?, ?)`);
  const addDaily = db.query(
    `INSERT INTO orphan_daily (day, type, path, is_bot, visits) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (day, type, path, is_bot) DO UPDATE SET visits = visits + excluded.visits`,
  );
  const pathsOf = db.query<{ day: string; path: string }, [string]>(`SELECT DISTINCT day, path FROM orphan_daily WHERE day IN (SELECT value FROM json_each(?))`);
  return {
    orphanPaths(days) {
      const out = new Map<string, Set<string>>();
      for (const r of pathsOf.all(JSON.stringify(days))) (out.get(r.day) ?? out.set(r.day, new Set()).get(r.day)!).add(r.path);
      return out;
    },
    addOrphans(rows, daily) {
      for (const r of rows) insertRow.run(r.type, r.firstTs, r.lastTs, r.n, r.humans, r.visits);
      for (const d of daily) addDaily.run(d.day, d.type, d.path, d.isBot ? 1 : 0, d.visits);
    },
  };
}

/** The reads (on the reader thread's connection, or this one's without it). */
export function sqliteOrphanReads(db: Database) {
  const daily = db.query<OrphanDailyRead, [string, string]>(ORPHAN_DAILY_SQL.replace(/\$(\d)/g, "?$1"));
  const places = db.query<OrphanPlaceRow, [number, number, string]>(ORPHAN_PLACES_SQL.replace(/\$(\d)/g, "?$1"));
  const byId = db.query<{ id: number; visits: string }, [string]>(`SELECT id, visits FROM orphan_batches WHERE id IN (SELECT value FROM json_each(?))`);
  // One snapshot for the places and the batches they name.
  const page = db.transaction((q: OrphanPageQuery): OrphanPage => orphanPage(q, places.all(q.fromTs, q.toTs, q.type ?? ""), (ids) => byId.all(JSON.stringify(ids))));
  return {
    summary: (range: OrphanRange): OrphanSummary => orphanSummary(range, daily.all(range.fromDay, range.toDay)),
    page: (q: OrphanPageQuery): OrphanPage => page(q),
  };
}

/** The delete's slices (removeOrphans), each its own IMMEDIATE transaction on this connection. */
export function sqliteOrphanDeleteSlices(db: Database): Synchronous<OrphanDeleteSlices> {
  const last = db.query<{ id: number }, []>(`SELECT COALESCE(MAX(id), 0) AS id FROM orphan_batches`);
  const rows = db.query<{ n: number }, [number, number]>(`DELETE FROM orphan_batches WHERE id IN (SELECT id FROM orphan_batches WHERE id <= ? ORDER BY id LIMIT ?) RETURNING n`);
  const daily = db.query(`DELETE FROM orphan_daily WHERE (day, type, path, is_bot) IN (SELECT day, type, path, is_bot FROM orphan_daily LIMIT ?)`);
  const deleteRows = db.transaction((upTo: number, limit: number) => {
    const gone = rows.all(upTo, limit);
    return { rows: gone.length, visits: gone.reduce((sum, r) => sum + r.n, 0) };
  });
  const deleteDaily = db.transaction((limit: number) => daily.run(limit).changes);
  return {
    lastRow: () => last.get()!.id,
    deleteRows: (upTo, limit) => deleteRows.immediate(upTo, limit),
    deleteDaily: (limit) => deleteDaily.immediate(limit),
  };
}
