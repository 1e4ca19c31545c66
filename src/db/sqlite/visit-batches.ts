// The recorder's SQLite transaction per batch of visits (the BatchStore of
// src/visits/visit-queue.ts): the links' totals, the raw visits (one visit_batches row per link),
// the new unique visitors and the rollups, written together.

import type { Database } from "bun:sqlite";
import type { Visit } from "../../visits/visit.ts";
import { linkTotals, NO_FIRST_VISITS, summarize, withoutFallbacks, type BatchKind, type Rollups } from "../../visits/rollup.ts";
import { CAPPED_DIMENSIONS, foldOther, type StoredValues } from "../../visits/other.ts";
import { createVisitQueue, type BatchStore, type QueueOptions, type VisitWriter } from "../../visits/visit-queue.ts";
import { batchRows } from "../../visits/visit-batch.ts";
import type { Synchronous } from "../../util/maybe.ts";
import type { SeenMarks, SeenVisitors } from "./seen-visitors.ts";
import type { CountRows } from "../../imports/target.ts";
import { batchEvents, type TotalAfter } from "../../events/batch-events.ts";
import { createEventWants, type EventWants } from "../../events/wants.ts";
import { outboxWriter } from "./events.ts";

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
  const writeBatch = batchWriter(db, seen, now, wants).visits;
  return {
    write(batch) {
      // IMMEDIATE: the batch is all writes; taking the lock first avoids a busy upgrade midway.
      const { gone, marks } = writeBatch.immediate(batch, "recorded");
      // Only after the commit: a batch that failed is written again later and must find its visitors unseen.
      return { gone, committed: marks === null ? undefined : () => seen!.commit(marks.added) };
    },
  };
}

/**
 * What an import writes, inside the caller's transaction (with its cursor): visits, marked imported
 * and counting no unique visitors; and the counts a source keeps instead of visits.
 */
export function sqliteImportWriter(db: Database): { visits(visits: Visit[]): void; counts(rows: CountRows): void } {
  // An import announces nothing: its history is not news (docs/webhooks.md: Webhooks).
  const writer = batchWriter(db, null, Date.now, NO_EVENTS);
  return { visits: (visits) => void writer.visits(visits, "imported"), counts: writer.counts };
}

const NO_EVENTS = createEventWants();

function batchWriter(db: Database, seen: SeenVisitors | null, now: () => number, wants: EventWants) {
  const writeEvents = outboxWriter(db);
  const insertBatch = db.query(`INSERT INTO visit_batches (link_id, first_ts, last_ts, humans, visits, imported) VALUES (?, ?, ?, ?, ?, ?)`);
  const addDaily = db.query(
    `INSERT INTO daily_rollup (link_id, day, total, bots, uniques, unique_bots, imported) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_id, day) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots,
       uniques = uniques + excluded.uniques, unique_bots = unique_bots + excluded.unique_bots, imported = imported + excluded.imported`,
  );
  const addHourly = db.query(
    `INSERT INTO hourly_rollup (link_id, hour, total, bots, uniques, unique_bots) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_id, hour) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots,
       uniques = uniques + excluded.uniques, unique_bots = unique_bots + excluded.unique_bots`,
  );
  const addDimension = db.query(
    `INSERT INTO dimension_rollup (link_id, dimension, day, name, total, bots) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_id, dimension, day, name) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots`,
  );
  const addUtm = db.query(
    `INSERT INTO utm_rollup (link_id, day, source, medium, campaign, total, bots) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_id, day, source, medium, campaign) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots`,
  );
  // What is stored for a link and day, for the limit on distinct values (other.ts).
  const storedNames = db.query<{ dimension: string; name: string; bot_only: number }, [string, string]>(
    `SELECT dimension, name, bots = total AS bot_only FROM dimension_rollup WHERE link_id = ?1 AND dimension IN (${CAPPED_DIMENSIONS.map((d) => `'${d}'`).join(", ")}) AND day = ?2`,
  );
  const storedUtm = db.query<{ source: string; medium: string; campaign: string }, [string, string]>("SELECT source, medium, campaign FROM utm_rollup WHERE link_id = ? AND day = ?");
  const stored = (rollups: Rollups): StoredValues => {
    const out = { dimensions: [] as StoredValues["dimensions"][number][], utm: [] as StoredValues["utm"][number][] };
    for (const { linkId, day } of rollups.daily) {
      for (const r of storedNames.all(linkId, day)) out.dimensions.push({ link_id: linkId, day, dimension: r.dimension, name: r.name, bot_only: r.bot_only });
      for (const r of storedUtm.all(linkId, day)) out.utm.push({ link_id: linkId, day, ...r });
    }
    return out;
  };
  // Visitors a fallback URL took: counted only while their link exists (a delete took its rows).
  const addFallback = db.query(
    `INSERT INTO dimension_rollup (link_id, dimension, day, name, total, bots) SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM links WHERE id = ?1)
     ON CONFLICT (link_id, dimension, day, name) DO UPDATE SET total = total + excluded.total, bots = bots + excluded.bots`,
  );
  // The totals shown in the link list; the update also tells whether the link still exists.
  // No row: the link was deleted. The new total and the limit: for the batch's events (milestones, limits reached).
  const addTotals = db.query<{ total_clicks: number; max_clicks: number | null }, [number, number, number, string]>(
    `UPDATE links SET total_clicks = total_clicks + ?, human_clicks = human_clicks + ?, last_click_at = MAX(last_click_at, ?) WHERE id = ? RETURNING total_clicks, max_clicks`,
  );

  /** Writes a batch; returns how many of its visits belonged to links deleted meanwhile, and its new visitors. */
  const visits = db.transaction((received: Visit[], kind: BatchKind): { gone: number; marks: SeenMarks | null } => {
    const imported = kind === "imported" ? 1 : 0;
    const { clicks: all, fallbacks } = withoutFallbacks(received);
    for (const r of fallbacks) addFallback.run(r.linkId, r.dimension, r.day, r.name, r.total, r.bots);
    let deleted: Set<string> | null = null;
    const announcing = !imported && wants.anyOfClicks();
    const after: TotalAfter[] = [];
    for (const [linkId, t] of linkTotals(all)) {
      const row = addTotals.get(t.total, t.humans, t.lastTs, linkId);
      if (row === null) (deleted ??= new Set()).add(linkId);
      else if (announcing) after.push({ linkId, added: t.total, total: row.total_clicks, maxClicks: row.max_clicks });
    }
    // A deleted link's visits and rollups are gone for good: clicks still queued for it are not
    // written back (DELETE runs in its own transaction, so this check sees it or not at all).
    const batch = deleted === null ? all : all.filter((v) => !deleted.has(v.linkId));
    for (const r of batchRows(batch)) insertBatch.run(r.linkId, r.firstTs, r.lastTs, r.humans, r.visits, imported);
    const marks = seen === null || imported ? null : seen.mark(batch, now());
    if (marks !== null) seen!.persist(marks.added);
    const summed = summarize(batch, imported ? NO_FIRST_VISITS(batch.length) : (marks?.flags ?? null));
    const { daily, hourly, dimensions, utm } = foldOther(summed, stored(summed));
    for (const r of daily) addDaily.run(r.linkId, r.day, r.total, r.bots, r.uniques, r.uniqueBots, imported * r.total);
    for (const r of hourly) addHourly.run(r.linkId, r.hour, r.total, r.bots, r.uniques, r.uniqueBots);
    for (const r of dimensions) addDimension.run(r.linkId, r.dimension, r.day, r.name, r.total, r.bots);
    for (const r of utm) addUtm.run(r.linkId, r.day, r.source, r.medium, r.campaign, r.total, r.bots);
    if (announcing) writeEvents(batchEvents(wants, batch, after, now()));
    return { gone: all.length - batch.length, marks };
  });

  /** Counts an import brought (no raw visits): the daily and per-dimension rows, and the links' totals. */
  const counts = (rows: CountRows) => {
    // A link deleted meanwhile gets no rows (they would stay behind its retired id for good).
    const present = new Set<string>();
    for (const [linkId, t] of rows.totals) if (addTotals.get(t.total, t.humans, t.lastTs, linkId) !== null) present.add(linkId);
    const summed: Rollups = { daily: rows.daily.filter((r) => present.has(r.linkId)), hourly: [], dimensions: rows.dimensions.filter((r) => present.has(r.linkId)), utm: [] };
    const { daily, dimensions } = foldOther(summed, stored(summed));
    for (const r of daily) addDaily.run(r.linkId, r.day, r.total, r.bots, r.uniques, r.uniqueBots, r.total);
    for (const r of dimensions) addDimension.run(r.linkId, r.dimension, r.day, r.name, r.total, r.bots);
  };
  return { visits, counts };
}
