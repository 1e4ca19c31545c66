// What a batch of visits becomes, written once for both engines and for imports: the rows of what
// is counted apart (fallbacks' visitors, previews), the links' totals (a link deleted meanwhile
// gets nothing more), the raw visits, the visitors seen for the first time, the summed rollups with the values past a day's limit folded
// into Other (other.ts), and the events the batch announces. The engines only write: each gives
// its primitive writes (VisitBatchWrites, src/db/<engine>/visit-batches.ts) inside one
// transaction of its own (docs/architecture.md: The batch recipe).
//
// The recipe is a generator that yields each write's answer: SQLite's writes answer at once and
// its transaction must stay synchronous (runNow), PostgreSQL's answer through promises (runLater).
// One text, no promise made over SQLite.

import type { Visit } from "./visit.ts";
import { linkTotals, NO_FIRST_VISITS, summarize, withoutApart, type BatchKind, type DailyRow, type DimensionRow, type FirstVisits, type LinkTotal, type Rollups } from "./rollup.ts";
import { foldOther, type StoredValues } from "./other.ts";
import { batchRows, type VisitBatchRow } from "./visit-batch.ts";
import { batchEvents, type TotalAfter } from "../events/batch-events.ts";
import type { OutboxEvent } from "../events/types.ts";
import type { EventWants } from "../events/wants.ts";
import type { MaybePromise } from "../util/maybe.ts";
import { step, type Steps } from "../util/steps.ts";
import { isOrphan, orphansRecipe, type OrphanWrites } from "./orphans.ts";

/** 1 for an import's rows (marked imported, in visit_batches and in daily_rollup's imported count). */
export type Imported = 0 | 1;

/** The primitive writes of one engine, all inside the one transaction its adapter opened. */
export type VisitBatchWrites = {
  /**
   * Locks the links (by seq) against a concurrent delete and another instance's batch until the
   * transaction ends, in seq order: a batch that counts something apart takes it before reading
   * what is stored of them (the limit on names) and before writing any of their rows. Nothing on
   * SQLite, whose transaction already holds the database's one write lock.
   */
  lockLinks(seqs: number[]): MaybePromise<void>;
  /** What is counted apart (rollup.ts withoutApart): each row added only while its link exists (a delete took its rows). */
  addApart(rows: DimensionRow[]): MaybePromise<void>;
  /** Adds to the totals shown in the link list (by seq); answers the links still there, by seq, with their new totals and limits. */
  addTotals(totals: ReadonlyMap<number, LinkTotal>): MaybePromise<Map<number, TotalAfter>>;
  insertRaw(rows: VisitBatchRow[], imported: Imported): MaybePromise<void>;
  /** Which visits are their visitor's first in its day and hour; null: every visit counts as a new visitor. */
  firstVisits(batch: Visit[], at: number): MaybePromise<FirstVisits | null>;
  /** What is stored for the rollups' links and days, for the limit on distinct values (other.ts). */
  storedValues(rollups: Rollups): MaybePromise<StoredValues>;
  /** Adds the rows to the rollups (upserts). */
  addRollups(rollups: Rollups, imported: Imported): MaybePromise<void>;
  writeEvents(events: OutboxEvent[]): MaybePromise<void>;
} & OrphanWrites;

/** Counts a source keeps instead of visits, as rows of our rollups, and what they add to a link's totals. */
export type CountedRows = { daily: DailyRow[]; dimensions: DimensionRow[]; totals: ReadonlyMap<number, LinkTotal> };

/**
 * One batch: the recorder's ("recorded"), or an import's (marked imported, nobody's first visit,
 * announcing nothing: its history is not news, docs/webhooks.md: Webhooks). `gone`: visits of
 * links deleted before they could be written.
 */
export function* visitBatchRecipe(w: VisitBatchWrites, incoming: Visit[], kind: BatchKind, at: number, wants: EventWants): Steps<{ gone: number }> {
  // Visits to no link are kept apart (orphans.ts): they touch no link's totals, rollups or events.
  const orphans = incoming.some(isOrphan) ? incoming.filter(isOrphan) : null;
  if (orphans !== null) yield* orphansRecipe(w, orphans);
  const received = orphans === null ? incoming : incoming.filter((v) => !isOrphan(v));
  const { clicks: all, apart } = withoutApart(received);
  const totals = linkTotals(all);
  if (apart.length > 0) {
    // The click links too, all in one seq order, so that addTotals' own lock finds them held:
    // rows of a link written before its lock let two instances pass the limit on names together,
    // and could deadlock with a delete (which holds the link, then takes its rows).
    yield w.lockLinks([...new Set([...totals.keys(), ...apart.map((r) => r.linkSeq)])].sort((a, b) => a - b));
    yield w.addApart(yield* cappedApart(w, apart));
  }
  const after = yield* step(w.addTotals(totals));
  // A deleted link's visits and rollups are gone for good: clicks still queued for it are not
  // written back (its delete runs in a transaction of its own, seen here whole or not at all).
  const batch = after.size === totals.size ? all : all.filter((v) => after.has(v.linkSeq));
  const imported: Imported = kind === "imported" ? 1 : 0;
  if (batch.length > 0) {
    yield w.insertRaw(batchRows(batch), imported);
    const firsts = imported ? NO_FIRST_VISITS(batch.length) : yield* step(w.firstVisits(batch, at));
    yield* rollupsRecipe(w, summarize(batch, firsts), imported);
  }
  if (!imported && wants.anyOfClicks()) yield w.writeEvents(batchEvents(wants, batch, [...after.values()], at));
  return { gone: all.length - batch.length };
}

/** Counts an import brought (no raw visits): the links' totals and the rollup rows of the links still there. */
export function* countsRecipe(w: VisitBatchWrites, rows: CountedRows): Steps<void> {
  const present = yield* step(w.addTotals(rows.totals));
  const daily = rows.daily.filter((r) => present.has(r.linkSeq));
  const dimensions = rows.dimensions.filter((r) => present.has(r.linkSeq));
  yield* rollupsRecipe(w, { daily, hourly: [], dimensions, utm: [] }, 1);
}

/**
 * The rows counted apart, previews' agent names past a day's limit folded into Other as browser
 * names are (other.ts): a User-Agent names the agent. Only a batch with previews reads anything.
 */
function* cappedApart(w: VisitBatchWrites, apart: DimensionRow[]): Steps<DimensionRow[]> {
  if (!apart.some((r) => r.dimension === "preview")) return apart;
  const days = new Map<string, DailyRow>();
  for (const r of apart) days.set(`${r.linkSeq} ${r.day}`, { linkSeq: r.linkSeq, day: r.day, total: 0, bots: 0, uniques: 0, uniqueBots: 0 });
  const rows: Rollups = { daily: [...days.values()], hourly: [], dimensions: apart, utm: [] };
  const stored = yield* step(w.storedValues(rows));
  return foldOther(rows, stored).dimensions;
}

function* rollupsRecipe(w: VisitBatchWrites, summed: Rollups, imported: Imported): Steps<void> {
  const stored = yield* step(w.storedValues(summed));
  yield w.addRollups(foldOther(summed, stored), imported);
}
