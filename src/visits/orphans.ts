// Visits to no link (docs/statistics.md: Visits to no link): the root, an unknown alias, any other
// page not found, named as Shlink names them. They travel with the clicks (the same hand-over, the
// same bounded queue, the same batch transaction), marked by a seq no link has, and are kept apart:
// raw, for Shlink's list, and summed per day, type, path and bots, with a day's paths past
// MAX_VALUES_PER_DAY folded into Other (other.ts) so that a scan of made-up paths adds one row.

import { MAX_VALUES_PER_DAY, OTHER } from "./other.ts";
import { dayOf } from "../util/day.ts";
import type { Visit } from "./visit.ts";
import type { MaybePromise } from "../util/maybe.ts";
import { step, type Steps } from "../util/steps.ts";

export const ORPHAN_TYPES = ["base_url", "invalid_short_url", "regular_404"] as const;
/** Shlink's names (its docs/swagger/definitions/OrphanVisit.json, `type`). */
export type OrphanType = (typeof ORPHAN_TYPES)[number];

/** The seq an orphan visit travels under: links' seqs start at 1 (migration 12). */
export const ORPHAN_SEQ = -1;
/**
 * The longest path kept: a visitor picks it, and no page of ours needs more; longer ones are cut.
 * The query is never kept (it may carry anything: tokens, addresses).
 */
export const MAX_ORPHAN_PATH = 200;

/** Where an orphan visit went. */
export type OrphanTarget = { readonly type: OrphanType; readonly path: string };

/** A request's path as kept: no query, no fragment, at most MAX_ORPHAN_PATH characters. */
export function orphanPath(path: string): string {
  const cut = path.search(/[?#]/);
  const bare = cut === -1 ? path : path.slice(0, cut);
  return bare.length > MAX_ORPHAN_PATH ? bare.slice(0, MAX_ORPHAN_PATH) : bare;
}

/** How a target crosses from the click thread to the recorder: one dictionary string (click.ts route). */
export function orphanText(type: OrphanType, path: string): string {
  return `${type}\n${orphanPath(path)}`;
}

export function parseOrphanText(text: string): OrphanTarget {
  const cut = text.indexOf("\n");
  const type = text.slice(0, cut) as OrphanType;
  return { type: ORPHAN_TYPES.includes(type) ? type : "regular_404", path: text.slice(cut + 1) };
}

export function isOrphan(v: Visit): boolean {
  return v.linkSeq === ORPHAN_SEQ;
}

/** One stored orphan visit: [ts, type, path, browser, os, device, country, referrer, is_bot]. */
export type StoredOrphan = [number, OrphanType, string, string, string, string, string, string, 0 | 1];
/** A raw row: at most MAX_ORPHANS_PER_ROW visits of one type, oldest first. */
export type OrphanBatchRow = { type: OrphanType; firstTs: number; lastTs: number; n: number; humans: number; visits: string };
export const MAX_ORPHANS_PER_ROW = 200;
/** A day's count of one (type, path, bots or not). */
export type OrphanDailyRow = { day: string; type: OrphanType; path: string; isBot: boolean; visits: number };

export function storedOrphan(v: Visit): StoredOrphan {
  const target = v.orphan!;
  return [v.ts, target.type, target.path, v.browser, v.os, v.device, v.country, v.referrer, v.isBot ? 1 : 0];
}

/**
 * A batch's orphan visits as raw rows, each of one type (so that a page or an export of one type
 * reads only its rows, counted from their columns). The types in the order of their last visit:
 * rows are numbered in the order they are given, and a page orders rows by last visit, then number
 * (src/stats/orphan-visits.ts), so visits of one millisecond keep the order they came in.
 */
export function orphanBatchRows(visits: readonly Visit[]): OrphanBatchRow[] {
  const byType = new Map<OrphanType, Visit[]>();
  for (const v of visits) {
    const type = v.orphan!.type;
    const of = byType.get(type);
    // Moved to the end on each visit: the Map's order becomes the order of each type's last visit.
    byType.delete(type);
    byType.set(type, of === undefined ? [v] : (of.push(v), of));
  }
  const rows: OrphanBatchRow[] = [];
  for (const [type, ofType] of byType) {
    for (let i = 0; i < ofType.length; i += MAX_ORPHANS_PER_ROW) {
      const part = ofType.slice(i, i + MAX_ORPHANS_PER_ROW);
      let firstTs = Infinity;
      let lastTs = -Infinity;
      for (const v of part) {
        firstTs = Math.min(firstTs, v.ts);
        lastTs = Math.max(lastTs, v.ts);
      }
      rows.push({ type, firstTs, lastTs, n: part.length, humans: part.filter((v) => !v.isBot).length, visits: JSON.stringify(part.map(storedOrphan)) });
    }
  }
  return rows;
}

/** The days a batch's orphan visits fall on (what is stored of them is read for the limit). */
export function orphanDays(visits: readonly Visit[]): string[] {
  return [...new Set(visits.map((v) => dayOf(v.ts)))];
}

/**
 * A batch's daily rows with every path past a day's limit folded into that day's OTHER path:
 * `stored` holds the paths each day has already. Paths that are stored keep their rows; new ones
 * take the room left, the most visited first (ties by path), the rest go to Other.
 */
export function orphanDailyRows(visits: readonly Visit[], stored: ReadonlyMap<string, ReadonlySet<string>>): OrphanDailyRow[] {
  const sums = new Map<string, OrphanDailyRow>();
  for (const v of visits) {
    const t = v.orphan!;
    const day = dayOf(v.ts);
    const key = `${day}\n${t.type}\n${v.isBot ? 1 : 0}\n${t.path}`;
    const row = sums.get(key);
    if (row === undefined) sums.set(key, { day, type: t.type, path: t.path, isBot: v.isBot, visits: 1 });
    else row.visits++;
  }
  const out: OrphanDailyRow[] = [];
  const fresh = new Map<string, Map<string, number>>(); // day → new path → visits
  for (const r of sums.values()) {
    if (stored.get(r.day)?.has(r.path)) continue;
    const paths = fresh.get(r.day) ?? fresh.set(r.day, new Map()).get(r.day)!;
    paths.set(r.path, (paths.get(r.path) ?? 0) + r.visits);
  }
  const folded = new Set<string>(); // "day\npath" of the paths that go to Other
  for (const [day, paths] of fresh) {
    const known = stored.get(day);
    const taken = known === undefined ? 0 : known.size - (known.has(OTHER) ? 1 : 0);
    const room = Math.max(0, MAX_VALUES_PER_DAY - taken);
    const ranked = [...paths].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [path] of ranked.slice(room)) folded.add(`${day}\n${path}`);
  }
  const others = new Map<string, OrphanDailyRow>();
  for (const r of sums.values()) {
    if (!folded.has(`${r.day}\n${r.path}`)) {
      out.push(r);
      continue;
    }
    const key = `${r.day}\n${r.type}\n${r.isBot ? 1 : 0}`;
    const other = others.get(key);
    if (other === undefined) others.set(key, { ...r, path: OTHER });
    else other.visits += r.visits;
  }
  return out.concat([...others.values()]);
}

/** A stored row's path as people see it: Other's name is the rollups' (other.ts). */
export function shownPath(path: string): string {
  return path === OTHER ? "Other" : path;
}

/** The primitive writes of a batch's orphan visits, inside its transaction (VisitBatchWrites). */
export type OrphanWrites = {
  /** The paths each of these days has stored already (for the limit). */
  orphanPaths(days: string[]): MaybePromise<Map<string, Set<string>>>;
  addOrphans(rows: OrphanBatchRow[], daily: OrphanDailyRow[]): MaybePromise<void>;
};

/** A batch's orphan visits written: raw rows and the day's counts, paths past the limit as Other. */
export function* orphansRecipe(w: OrphanWrites, orphans: readonly Visit[]): Steps<void> {
  const stored = yield* step(w.orphanPaths(orphanDays(orphans)));
  yield w.addOrphans(orphanBatchRows(orphans), orphanDailyRows(orphans, stored));
}
