// PostgreSQL's primitive writes of a batch of visits (the VisitBatchWrites of
// src/visits/batch-recipe.ts, which decides what a batch becomes) and its transaction: the links'
// totals, the raw visits, the visitors seen for the first time (decided by the database, so that
// every instance counts a visitor once) and the rollups. Rows are locked in one order (by key) in
// every instance, so that instances writing the same links at once wait for each other instead of
// deadlocking.

import type { TransactionSQL } from "bun";
import type { Visit } from "../../visits/visit.ts";
import type { BatchStore } from "../../visits/visit-queue.ts";
import { dayCache, FIRST_IN_DAY, FIRST_IN_HOUR, hourCache, hourOf, type DimensionRow, type LinkTotal, type Rollups } from "../../visits/rollup.ts";
import { CAPPED_DIMENSIONS, type StoredValues } from "../../visits/other.ts";
import type { VisitBatchRow } from "../../visits/visit-batch.ts";
import { countsRecipe, visitBatchRecipe, type CountedRows, type Imported, type VisitBatchWrites } from "../../visits/batch-recipe.ts";
import { runLater } from "../../util/steps.ts";
import { GRACE_MS, oldestKeptDay } from "../../visits/visitor-id.ts";
import { num, type Pg } from "./connect.ts";
import type { TotalAfter } from "../../events/batch-events.ts";
import { createEventWants, type EventWants } from "../../events/wants.ts";
import { writeEventsIn } from "./events.ts";
import { postgresOrphanWrites } from "./orphan-visits.ts";

const NO_EVENTS = createEventWants();

/** `wants`: the events a batch writes with it (clicks, milestones, click limits reached). */
export function postgresBatches(sql: Pg, now: () => number, wants: EventWants = NO_EVENTS): BatchStore {
  return { write: (received) => sql.begin((tx) => runLater(visitBatchRecipe(postgresWrites(tx, sql), received, "recorded", now(), wants))) };
}

/** An import's visits inside the caller's transaction (with its cursor): marked imported, counted as no unique visitors. */
export function writeImportedVisitsIn(tx: TransactionSQL, sql: Pg, visits: Visit[]): Promise<{ gone: number }> {
  return runLater(visitBatchRecipe(postgresWrites(tx, sql), visits, "imported", Date.now(), NO_EVENTS));
}

/** Counts an import brought (no raw visits), inside the caller's transaction: the links' totals and the rollup rows. */
export function writeCountsIn(tx: TransactionSQL, sql: Pg, rows: CountedRows): Promise<void> {
  return runLater(countsRecipe(postgresWrites(tx, sql), rows));
}

/** The primitive writes inside one transaction (tx). */
function postgresWrites(tx: TransactionSQL, sql: Pg): VisitBatchWrites {
  return {
    lockLinks: (seqs) => lockLinks(tx, sql, seqs),
    addApart: (rows) => addApart(tx, sql, rows),
    addTotals: (totals) => addTotalsOfPresent(tx, sql, totals),
    insertRaw: (rows, imported) => insertRaw(tx, sql, rows, imported),
    firstVisits: (batch, at) => firstVisits(tx, sql, batch, at),
    storedValues: (rollups) => stored(tx, sql, rollups),
    addRollups: (rollups, imported) => writeRollups(tx, sql, rollups, imported),
    writeEvents: (events) => writeEventsIn(tx, sql, events),
    ...postgresOrphanWrites(tx, sql),
  };
}

/**
 * Locks the links in seq order and adds to the totals shown in the link list; answers the links
 * still there, by seq, with their new totals and limits (for the batch's events). A link missing was
 * deleted: its visits and counts are not written (its rollups are gone for good, and would
 * otherwise stay behind its retired id).
 */
async function addTotalsOfPresent(tx: TransactionSQL, sql: Pg, linkTotals: ReadonlyMap<number, LinkTotal>): Promise<Map<number, TotalAfter>> {
  const sorted = [...linkTotals].sort(([a], [b]) => a - b);
  const present = new Set<number>(
    (await tx`SELECT seq FROM links WHERE seq = ANY(${sql.array(sorted.map(([seq]) => seq), "INT8")}) ORDER BY seq FOR UPDATE`).map((r: { seq: string }) => num(r.seq)),
  );
  const totals = sorted.filter(([seq]) => present.has(seq));
  const after = new Map<number, TotalAfter>();
  if (totals.length === 0) return after;
  const rows = await tx`
    UPDATE links AS l SET total_clicks = l.total_clicks + v.total, human_clicks = l.human_clicks + v.humans,
      last_click_at = GREATEST(l.last_click_at, v.last_ts)
    FROM unnest(${sql.array(totals.map(([seq]) => seq), "INT8")}::int8[], ${sql.array(totals.map(([, t]) => t.total), "INT8")}::int8[],
                ${sql.array(totals.map(([, t]) => t.humans), "INT8")}::int8[], ${sql.array(totals.map(([, t]) => t.lastTs), "INT8")}::int8[])
      AS v(seq, total, humans, last_ts)
    WHERE l.seq = v.seq
    RETURNING l.seq, l.id, l.total_clicks, l.max_clicks`;
  for (const r of rows as { seq: string; id: string; total_clicks: string; max_clicks: string | null }[]) {
    const seq = num(r.seq);
    after.set(seq, { linkSeq: seq, linkId: r.id, added: linkTotals.get(seq)!.total, total: num(r.total_clicks), maxClicks: r.max_clicks === null ? null : num(r.max_clicks) });
  }
  return after;
}

/** Locks the links' rows (those still there) in seq order, as addTotalsOfPresent does. */
async function lockLinks(tx: TransactionSQL, sql: Pg, seqs: number[]): Promise<void> {
  await tx`SELECT seq FROM links WHERE seq = ANY(${sql.array(seqs, "INT8")}) ORDER BY seq FOR UPDATE`;
}

/** What is counted apart (fallbacks' visitors, previews): only while their link exists (a delete took its rows; the batch holds the links). */
async function addApart(tx: TransactionSQL, sql: Pg, rows: DimensionRow[]): Promise<void> {
  const text = (values: string[]) => sql.array(values, "TEXT");
  const int8 = (values: number[]) => sql.array(values, "INT8");
  await tx`
    INSERT INTO dimension_rollup AS t (link_seq, dimension, day, name, total, bots)
    SELECT v.* FROM unnest(${int8(rows.map((r) => r.linkSeq))}::int8[], ${text(rows.map((r) => r.dimension))}::text[], ${text(rows.map((r) => r.day))}::text[],
                           ${text(rows.map((r) => r.name))}::text[], ${int8(rows.map((r) => r.total))}::int8[], ${int8(rows.map((r) => r.bots))}::int8[])
      AS v(link_seq, dimension, day, name, total, bots)
    WHERE EXISTS (SELECT 1 FROM links WHERE seq = v.link_seq)
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (link_seq, dimension, day, name) DO UPDATE SET total = t.total + excluded.total, bots = t.bots + excluded.bots`;
}

async function insertRaw(tx: TransactionSQL, sql: Pg, raw: VisitBatchRow[], imported: Imported): Promise<void> {
  await tx`
    INSERT INTO visit_batches (link_seq, first_ts, last_ts, humans, visits, imported)
    SELECT *, ${imported}::int2 FROM unnest(${sql.array(raw.map((r) => r.linkSeq), "INT8")}::int8[], ${sql.array(raw.map((r) => r.firstTs), "INT8")}::int8[],
                         ${sql.array(raw.map((r) => r.lastTs), "INT8")}::int8[], ${sql.array(raw.map((r) => r.humans), "INT4")}::int4[],
                         ${sql.array(raw.map((r) => r.visits), "TEXT")}::text[])`;
}

/** The rollups' rows, upserted in key order (as every instance locks them). */
async function writeRollups(tx: TransactionSQL, sql: Pg, rollups: Rollups, imported: Imported): Promise<void> {
  const { daily, hourly, dimensions, utm } = rollups;
  const col = <T,>(rows: T[], pick: (r: T) => string | number) => rows.map(pick);
  const text = (values: (string | number)[]) => sql.array(values, "TEXT");
  const int8 = (values: (string | number)[]) => sql.array(values, "INT8");
  if (daily.length > 0) {
    await tx`
      INSERT INTO daily_rollup AS t (link_seq, day, total, bots, uniques, unique_bots, imported)
      SELECT *, total * ${imported}::int8 FROM unnest(${int8(col(daily, (r) => r.linkSeq))}::int8[], ${text(col(daily, (r) => r.day))}::text[], ${int8(col(daily, (r) => r.total))}::int8[],
                           ${int8(col(daily, (r) => r.bots))}::int8[], ${int8(col(daily, (r) => r.uniques))}::int8[], ${int8(col(daily, (r) => r.uniqueBots))}::int8[])
        AS v(link_seq, day, total, bots, uniques, unique_bots)
      ORDER BY 1, 2
      ON CONFLICT (link_seq, day) DO UPDATE SET total = t.total + excluded.total, bots = t.bots + excluded.bots,
        uniques = t.uniques + excluded.uniques, unique_bots = t.unique_bots + excluded.unique_bots, imported = t.imported + excluded.imported`;
  }
  if (hourly.length > 0) {
    await tx`
      INSERT INTO hourly_rollup AS t (link_seq, hour, total, bots, uniques, unique_bots)
      SELECT * FROM unnest(${int8(col(hourly, (r) => r.linkSeq))}::int8[], ${text(col(hourly, (r) => r.hour))}::text[], ${int8(col(hourly, (r) => r.total))}::int8[],
                           ${int8(col(hourly, (r) => r.bots))}::int8[], ${int8(col(hourly, (r) => r.uniques))}::int8[], ${int8(col(hourly, (r) => r.uniqueBots))}::int8[])
      ORDER BY 1, 2
      ON CONFLICT (link_seq, hour) DO UPDATE SET total = t.total + excluded.total, bots = t.bots + excluded.bots,
        uniques = t.uniques + excluded.uniques, unique_bots = t.unique_bots + excluded.unique_bots`;
  }
  if (dimensions.length > 0) {
    await tx`
      INSERT INTO dimension_rollup AS t (link_seq, dimension, day, name, total, bots)
      SELECT * FROM unnest(${int8(col(dimensions, (r) => r.linkSeq))}::int8[], ${text(col(dimensions, (r) => r.dimension))}::text[],
                           ${text(col(dimensions, (r) => r.day))}::text[], ${text(col(dimensions, (r) => r.name))}::text[],
                           ${int8(col(dimensions, (r) => r.total))}::int8[], ${int8(col(dimensions, (r) => r.bots))}::int8[])
      ORDER BY 1, 2, 3, 4
      ON CONFLICT (link_seq, dimension, day, name) DO UPDATE SET total = t.total + excluded.total, bots = t.bots + excluded.bots`;
  }
  if (utm.length > 0) {
    await tx`
      INSERT INTO utm_rollup AS t (link_seq, day, source, medium, campaign, total, bots)
      SELECT * FROM unnest(${int8(col(utm, (r) => r.linkSeq))}::int8[], ${text(col(utm, (r) => r.day))}::text[], ${text(col(utm, (r) => r.source))}::text[],
                           ${text(col(utm, (r) => r.medium))}::text[], ${text(col(utm, (r) => r.campaign))}::text[],
                           ${int8(col(utm, (r) => r.total))}::int8[], ${int8(col(utm, (r) => r.bots))}::int8[])
      ORDER BY 1, 2, 3, 4, 5
      ON CONFLICT (link_seq, day, source, medium, campaign) DO UPDATE SET total = t.total + excluded.total, bots = t.bots + excluded.bots`;
  }
}

/**
 * What is stored for the batch's links and days, for the limit on distinct values (other.ts); the
 * links' rows are locked (addTotalsOfPresent, or lockLinks before what is counted apart).
 */
async function stored(tx: TransactionSQL, sql: Pg, rollups: Rollups): Promise<StoredValues> {
  const links = sql.array(rollups.daily.map((r) => r.linkSeq), "INT8");
  const days = sql.array(rollups.daily.map((r) => r.day), "TEXT");
  const [dimensions, utm] = await Promise.all([
    tx`SELECT d.link_seq, d.dimension, d.day, d.name, d.bots = d.total AS bot_only FROM dimension_rollup AS d
       JOIN unnest(${links}::int8[], ${days}::text[]) AS k(link_seq, day) ON d.link_seq = k.link_seq AND d.day = k.day
       WHERE d.dimension = ANY(${sql.array([...CAPPED_DIMENSIONS], "TEXT")}::text[])`,
    tx`SELECT u.link_seq, u.day, u.source, u.medium, u.campaign FROM utm_rollup AS u
       JOIN unnest(${links}::int8[], ${days}::text[]) AS k(link_seq, day) ON u.link_seq = k.link_seq AND u.day = k.day`,
  ]);
  // int8 comes back as text: the seq as the number the batch's rows carry.
  const seqOf = <R extends { link_seq: string }>(r: R) => ({ ...r, link_seq: num(r.link_seq) });
  return { dimensions: dimensions.map(seqOf), utm: utm.map(seqOf) };
}

/**
 * Which visits of the batch are their visitor's first in its day and in its hour, by whichever
 * instance: the batch's (bucket, visitor) pairs are inserted into visitors_seen, and the insert
 * returns those that were not there. Buckets already forgotten (older than the grace hour) count
 * as new without being remembered, as in SQLite.
 */
async function firstVisits(tx: TransactionSQL, sql: Pg, batch: Visit[], at: number): Promise<Uint8Array> {
  const flags = new Uint8Array(batch.length);
  const oldestDay = oldestKeptDay(at);
  const oldestHour = hourOf(at - GRACE_MS);
  const dayOf = dayCache();
  const hourOfVisit = hourCache();
  const pairs = new Set<string>();
  const buckets: string[] = [];
  const visitors: number[] = [];
  const keys: [string, string][] = []; // per visit: its day and hour pair keys ("" = counted as new)
  for (const v of batch) {
    if (v.visitor === null) {
      keys.push(["", ""]);
      continue;
    }
    const day = dayOf(v.ts);
    const hour = hourOfVisit(v.ts);
    const dayKey = day >= oldestDay ? `${day} ${v.visitor}` : "";
    const hourKey = hour >= oldestHour ? `${hour} ${v.visitor}` : "";
    for (const [key, bucket] of [[dayKey, day], [hourKey, hour]] as const) {
      if (key === "" || pairs.has(key)) continue;
      pairs.add(key);
      buckets.push(bucket);
      visitors.push(v.visitor);
    }
    keys.push([dayKey, hourKey]);
  }
  const fresh = new Set<string>();
  if (buckets.length > 0) {
    const rows = await tx`
      INSERT INTO visitors_seen (bucket, visitor)
      SELECT * FROM unnest(${sql.array(buckets, "TEXT")}::text[], ${sql.array(visitors, "INT8")}::int8[]) ORDER BY 1, 2
      ON CONFLICT DO NOTHING
      RETURNING bucket, visitor`;
    for (const r of rows as { bucket: string; visitor: string }[]) fresh.add(`${r.bucket} ${num(r.visitor)}`);
  }
  for (let i = 0; i < batch.length; i++) {
    const [dayKey, hourKey] = keys[i]!;
    // The first visit of the batch with a new pair takes it; later ones of the same visitor do not.
    const firstInDay = dayKey === "" || fresh.delete(dayKey);
    const firstInHour = hourKey === "" || fresh.delete(hourKey);
    flags[i] = (firstInDay ? FIRST_IN_DAY : 0) | (firstInHour ? FIRST_IN_HOUR : 0);
  }
  return flags;
}
