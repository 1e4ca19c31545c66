// SQLite's primitive writes of a batch of visits (the VisitBatchWrites of src/visits/batch-recipe.ts,
// which decides what a batch becomes) and its transaction: the recorder's BatchStore
// (src/visits/visit-queue.ts) and what an import writes inside its own transaction.

import type { Database } from "bun:sqlite";
import type { Visit } from "../../visits/visit.ts";
import type { Rollups } from "../../visits/rollup.ts";
import { CAPPED_DIMENSIONS, type StoredValues } from "../../visits/other.ts";
import { countsRecipe, visitBatchRecipe, type CountedRows, type VisitBatchWrites } from "../../visits/batch-recipe.ts";
import { runNow } from "../../util/steps.ts";
import { createVisitQueue, type BatchStore, type QueueOptions, type VisitWriter } from "../../visits/visit-queue.ts";
import type { Synchronous } from "../../util/maybe.ts";
import type { SeenMarks, SeenVisitors } from "./seen-visitors.ts";
import type { TotalAfter } from "../../events/batch-events.ts";
import { createEventWants, type EventWants } from "../../events/wants.ts";
import { outboxWriter } from "./events.ts";
import { sqliteOrphanWrites } from "./orphan-visits.ts";

export type WriterOptions = QueueOptions & {
  /** The visitors seen per day and hour (uniques); without it every visit counts as a new visitor. */
  seen?: SeenVisitors;
  now?: () => number;
};

/** The queue over SQLite's batches, as one process's writer (seeding, tests): flush() answers a number. */
export function createVisitWriter(db: Database, options: WriterOptions = {}): Synchronous<VisitWriter> {
  return createVisitQueue(sqliteBatches(db, options.seen ?? null, options.now ?? Date.now), options) as Synchronous<VisitWriter>;
}

/**
 * `seen`: the visitors seen per day and hour (uniques); without it every visit counts as a new visitor.
 * `wants`: the events a batch writes with it (clicks, milestones, click limits reached).
 */
export function sqliteBatches(db: Database, seen: SeenVisitors | null, now: () => number, wants: EventWants = NO_EVENTS): BatchStore {
  const writes = sqliteWrites(db, seen);
  const writeBatch = db.transaction((batch: Visit[]) => {
    writes.marks = null;
    return runNow(visitBatchRecipe(writes, batch, "recorded", now(), wants));
  });
  return {
    write(batch) {
      writes.marks = null;
      try {
        // IMMEDIATE: the batch is all writes; taking the lock first avoids a busy upgrade midway.
        return { gone: writeBatch.immediate(batch).gone };
      } catch (err) {
        // A batch that failed is written again later and must find its visitors unseen.
        const marks = writes.marks as SeenMarks | null; // set by firstVisits inside the transaction
        if (marks !== null) seen!.undo(marks.added);
        throw err;
      }
    },
  };
}

/**
 * What an import writes, inside the caller's transaction (with its cursor): visits, marked imported
 * and counting no unique visitors; and the counts a source keeps instead of visits.
 */
export function sqliteImportWriter(db: Database): { visits(visits: Visit[]): void; counts(rows: CountedRows): void } {
  const writes = sqliteWrites(db, null);
  return {
    visits: (visits) => void runNow(visitBatchRecipe(writes, visits, "imported", Date.now(), NO_EVENTS)),
    counts: (rows) => runNow(countsRecipe(writes, rows)),
  };
}

const NO_EVENTS = createEventWants();

/** The statements; `marks`: the new visitors firstVisits marked (noted in `seen` at once), for an undo when the transaction fails. */
function sqliteWrites(db: Database, seen: SeenVisitors | null): Synchronous<VisitBatchWrites> & { marks: SeenMarks | null } {
  const insertBatch = db.query(`INSERT INTO visit_batches (link_seq, first_ts, last_ts, humans, visits, imported) VALUES (?, ?, ?, ?, ?, ?)`);
  // What is counted apart (fallbacks' visitors, previews): only while their link exists (a delete took its rows).
  const addApartRow = db.query(
    `INSERT INTO dimension_rollup (link_seq, dimension, day, name, total, bots) SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM links WHERE seq = ?1)
     ON CONFLICT (link_seq, dimension, day, name) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots`,
  );
  // The totals shown in the link list; the update also tells whether the link still exists.
  // No row: the link was deleted. The new total and the limit: for the batch's events (milestones, limits reached).
  const addTotals = db.query<{ id: string; total_clicks: number; max_clicks: number | null }, [number, number, number, number]>(
    `UPDATE links SET total_clicks = total_clicks + ?, human_clicks = human_clicks + ?, last_click_at = MAX(last_click_at, ?) WHERE seq = ? RETURNING id, total_clicks, max_clicks`,
  );
  const writeEvents = outboxWriter(db);
  const w: Synchronous<VisitBatchWrites> & { marks: SeenMarks | null } = {
    marks: null,
    // The batch's transaction (IMMEDIATE, or the import's) holds the database's write lock already.
    lockLinks() {},
    addApart(rows) {
      for (const r of rows) addApartRow.run(r.linkSeq, r.dimension, r.day, r.name, r.total, r.bots);
    },
    addTotals(totals) {
      const after = new Map<number, TotalAfter>();
      for (const [linkSeq, t] of totals) {
        const row = addTotals.get(t.total, t.humans, t.lastTs, linkSeq);
        if (row !== null) after.set(linkSeq, { linkSeq, linkId: row.id, added: t.total, total: row.total_clicks, maxClicks: row.max_clicks });
      }
      return after;
    },
    insertRaw(rows, imported) {
      for (const r of rows) insertBatch.run(r.linkSeq, r.firstTs, r.lastTs, r.humans, r.visits, imported);
    },
    firstVisits(batch, at) {
      if (seen === null) return null;
      const marks = (w.marks = seen.mark(batch, at));
      seen.persist(marks.added);
      return marks.flags;
    },
    storedValues: storedValuesReader(db),
    addRollups: rollupWriter(db),
    writeEvents,
    ...sqliteOrphanWrites(db),
  };
  return w;
}

/** What is stored for a link and day, for the limit on distinct values (other.ts). */
function storedValuesReader(db: Database): (rollups: Rollups) => StoredValues {
  const storedNames = db.query<{ dimension: string; name: string; bot_only: number }, [number, string]>(
    `SELECT dimension, name, bots = total AS bot_only FROM dimension_rollup WHERE link_seq = ?1 AND dimension IN (${CAPPED_DIMENSIONS.map((d) => `'${d}'`).join(", ")}) AND day = ?2`,
  );
  const storedUtm = db.query<{ source: string; medium: string; campaign: string }, [number, string]>("SELECT source, medium, campaign FROM utm_rollup WHERE link_seq = ? AND day = ?");
  return (rollups) => {
    const out = { dimensions: [] as StoredValues["dimensions"][number][], utm: [] as StoredValues["utm"][number][] };
    for (const { linkSeq, day } of rollups.daily) {
      for (const r of storedNames.all(linkSeq, day)) out.dimensions.push({ link_seq: linkSeq, day, dimension: r.dimension, name: r.name, bot_only: r.bot_only });
      for (const r of storedUtm.all(linkSeq, day)) out.utm.push({ link_seq: linkSeq, day, ...r });
    }
    return out;
  };
}

function rollupWriter(db: Database): (rollups: Rollups, imported: 0 | 1) => void {
  const addDaily = db.query(
    `INSERT INTO daily_rollup (link_seq, day, total, bots, uniques, unique_bots, imported) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_seq, day) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots,
       uniques = uniques + excluded.uniques, unique_bots = unique_bots + excluded.unique_bots, imported = imported + excluded.imported`,
  );
  const addHourly = db.query(
    `INSERT INTO hourly_rollup (link_seq, hour, total, bots, uniques, unique_bots) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_seq, hour) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots,
       uniques = uniques + excluded.uniques, unique_bots = unique_bots + excluded.unique_bots`,
  );
  const addDimension = db.query(
    `INSERT INTO dimension_rollup (link_seq, dimension, day, name, total, bots) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_seq, dimension, day, name) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots`,
  );
  const addUtm = db.query(
    `INSERT INTO utm_rollup (link_seq, day, source, medium, campaign, total, bots) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_seq, day, source, medium, campaign) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots`,
  );
  return ({ daily, hourly, dimensions, utm }, imported) => {
    for (const r of daily) addDaily.run(r.linkSeq, r.day, r.total, r.bots, r.uniques, r.uniqueBots, imported * r.total);
    for (const r of hourly) addHourly.run(r.linkSeq, r.hour, r.total, r.bots, r.uniques, r.uniqueBots);
    for (const r of dimensions) addDimension.run(r.linkSeq, r.dimension, r.day, r.name, r.total, r.bots);
    for (const r of utm) addUtm.run(r.linkSeq, r.day, r.source, r.medium, r.campaign, r.total, r.bots);
  };
}
