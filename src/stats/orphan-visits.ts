// What is read of visits to no link (docs/statistics.md: Visits to no link): the dashboard's
// summary of a range of days, from the daily counts, and a page of the raw visits, newest first,
// for Shlink's list (docs/shlink-api.md: Visits). Rows are stored in batches of one type
// (src/visits/orphans.ts): a page, of every type or of one, walks the batches' places counting each
// from its stored columns, and parses only the batches the page falls in and those that straddle
// the range. The page's order is total (docs/statistics.md: Visits to no link): the row with the
// newest last visit first, then the newer row (a higher id), and in a row the newer visit first,
// then the later place, so that visits of one millisecond come in a fixed order, the last first.

import { ORPHAN_TYPES, shownPath, type OrphanType, type StoredOrphan } from "../visits/orphans.ts";
import type { MaybePromise } from "../util/maybe.ts";

/** Days, inclusive (YYYY-MM-DD, UTC). */
export type OrphanRange = { fromDay: string; toDay: string; excludeBots: boolean };
export type OrphanCounts = { total: number; humans: number; bots: number };
/** How many top paths the summary lists. */
export const TOP_ORPHAN_PATHS = 10;
export type OrphanSummary = {
  from: string;
  to: string;
  counts: OrphanCounts;
  byType: Record<OrphanType, OrphanCounts>;
  /** the most visited paths, by all visits; "Other" sums the paths past a day's limit */
  topPaths: (OrphanCounts & { type: OrphanType; path: string })[];
  byDay: { date: string; total: number; humans: number }[];
};
export type OrphanDailyRead = { day: string; type: string; path: string; is_bot: unknown; visits: unknown };

const zero = (): OrphanCounts => ({ total: 0, humans: 0, bots: 0 });
const add = (c: OrphanCounts, bot: boolean, n: number) => {
  c.total += n;
  if (bot) c.bots += n;
  else c.humans += n;
};

/** The summary of a range from its daily rows; `excludeBots` (of the range): bots' visits left out of every figure. */
export function orphanSummary(range: OrphanRange, rows: readonly OrphanDailyRead[]): OrphanSummary {
  const counts = zero();
  const byType = Object.fromEntries(ORPHAN_TYPES.map((t) => [t, zero()])) as Record<OrphanType, OrphanCounts>;
  const paths = new Map<string, OrphanCounts & { type: OrphanType; path: string }>();
  const days = new Map<string, { date: string; total: number; humans: number }>();
  for (const r of rows) {
    const bot = Number(r.is_bot) === 1;
    if (bot && range.excludeBots) continue;
    const n = Number(r.visits);
    const type = (ORPHAN_TYPES as readonly string[]).includes(r.type) ? (r.type as OrphanType) : "regular_404";
    add(counts, bot, n);
    add(byType[type], bot, n);
    const key = `${type}\n${r.path}`;
    add(paths.get(key) ?? paths.set(key, { type, path: shownPath(r.path), ...zero() }).get(key)!, bot, n);
    const day = days.get(r.day) ?? days.set(r.day, { date: r.day, total: 0, humans: 0 }).get(r.day)!;
    day.total += n;
    if (!bot) day.humans += n;
  }
  const topPaths = [...paths.values()].sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).slice(0, TOP_ORPHAN_PATHS);
  return { from: range.fromDay, to: range.toDay, counts, byType, topPaths, byDay: [...days.values()].sort((a, b) => (a.date < b.date ? -1 : 1)) };
}

/** A page of raw orphan visits in [fromTs, toTs), newest first. */
export type OrphanPageQuery = { fromTs: number; toTs: number; excludeBots: boolean; type: OrphanType | null; offset: number; limit: number };
export type OrphanPage = { total: number; visits: StoredOrphan[] };
export type OrphanPlaceRow = { id: unknown; first_ts: unknown; last_ts: unknown; n: unknown; humans: unknown; visits: string | null };

const TS = 0;
const TYPE = 1;
const IS_BOT = 8;

/** A row's visits of the query, in page order: newest first, then the later place (a stable sort of the reversed row). */
function matching(json: string, q: Pick<OrphanPageQuery, "fromTs" | "toTs" | "excludeBots" | "type">): StoredOrphan[] {
  const out = (JSON.parse(json) as StoredOrphan[]).filter((v) => v[TS] >= q.fromTs && v[TS] < q.toTs && !(q.excludeBots && v[IS_BOT] === 1) && (q.type === null || v[TYPE] === q.type));
  return out.reverse().sort((a, b) => b[TS] - a[TS]);
}

/** The page from the places (in page order) and, for the batches it falls in, their visits by id. */
export function orphanPage(q: OrphanPageQuery, places: readonly OrphanPlaceRow[], visitsOf: (ids: number[]) => readonly { id: unknown; visits: string }[]): OrphanPage;
export function orphanPage(q: OrphanPageQuery, places: readonly OrphanPlaceRow[], visitsOf: (ids: number[]) => Promise<readonly { id: unknown; visits: string }[]>): Promise<OrphanPage>;
export function orphanPage(q: OrphanPageQuery, places: readonly OrphanPlaceRow[], visitsOf: (ids: number[]) => MaybePromise<readonly { id: unknown; visits: string }[]>): MaybePromise<OrphanPage> {
  let position = 0;
  const end = q.offset + q.limit;
  const cuts: { id: number; skip: number; take: number }[] = [];
  const held = new Map<number, string>();
  for (const r of places) {
    const id = Number(r.id);
    const count = r.visits === null ? Number(q.excludeBots ? r.humans : r.n) : matching(r.visits, q).length;
    const from = position;
    position += count;
    if (count > 0 && position > q.offset && from < end) {
      const skip = Math.max(0, q.offset - from);
      cuts.push({ id, skip, take: Math.min(position, end) - from - skip });
      if (r.visits !== null) held.set(id, r.visits);
    }
  }
  const finish = (rows: readonly { id: unknown; visits: string }[]): OrphanPage => {
    for (const r of rows) held.set(Number(r.id), r.visits);
    const visits: StoredOrphan[] = [];
    for (const c of cuts) {
      const json = held.get(c.id);
      if (json !== undefined) visits.push(...matching(json, q).slice(c.skip, c.skip + c.take));
    }
    return { total: position, visits };
  };
  const wanted = cuts.filter((c) => !held.has(c.id)).map((c) => c.id);
  if (wanted.length === 0) return finish([]);
  const read = visitsOf(wanted);
  return read instanceof Promise ? read.then(finish) : finish(read);
}

/** The port both engines fill: SQLite reads on its reader thread, PostgreSQL on its pool; the delete on the writer's connection. */
export type OrphanVisitSource = {
  summary(range: OrphanRange): Promise<OrphanSummary>;
  page(q: OrphanPageQuery): Promise<OrphanPage>;
  /** Deletes every orphan visit, raw and counted, in slices (removeOrphans); answers how many raw visits went. */
  remove(sizes?: OrphanDeleteSizes): Promise<number>;
};

/**
 * Rows a slice of the delete takes in one transaction: up to 1,000 raw rows (200,000 visits) or
 * 5,000 daily rows, a few milliseconds of SQLite's write lock, which the recorder and a click's
 * write (a limited link) share with it.
 */
export type OrphanDeleteSizes = { rows: number; daily: number };
export const ORPHAN_DELETE_SIZES: OrphanDeleteSizes = { rows: 1_000, daily: 5_000 };

/** One transaction each: what an engine does for a slice of the delete. */
export type OrphanDeleteSlices = {
  /** The newest raw row now: rows written once the delete has begun stay. */
  lastRow(): MaybePromise<number>;
  /** Deletes the oldest `limit` raw rows of id ≤ upTo; answers how many rows and visits they held. */
  deleteRows(upTo: number, limit: number): MaybePromise<{ rows: number; visits: number }>;
  /** Deletes `limit` daily rows; answers how many it found. */
  deleteDaily(limit: number): MaybePromise<number>;
};

const nextTurn = () => new Promise<void>((go) => setTimeout(go, 0));

/**
 * Deletes every orphan visit in bounded slices, letting the event loop run between them (clicks,
 * the recorder's hand-over), so that no transaction holds the write lock for a table's size
 * (docs/shlink-api.md: Visits). The raw rows there when it began, then the daily counts until
 * none is left. Answers how many raw visits went.
 */
export async function removeOrphans(slices: OrphanDeleteSlices, sizes: OrphanDeleteSizes = ORPHAN_DELETE_SIZES): Promise<number> {
  const upTo = await slices.lastRow();
  let visits = 0;
  for (;;) {
    const gone = await slices.deleteRows(upTo, sizes.rows);
    visits += gone.visits;
    if (gone.rows < sizes.rows) break;
    await nextTurn();
  }
  for (;;) {
    await nextTurn();
    if ((await slices.deleteDaily(sizes.daily)) < sizes.daily) break;
  }
  return visits;
}
