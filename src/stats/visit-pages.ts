// Raw visits a page at a time, newest first (docs/shlink-api.md: Visits): the rows Shlink's clients
// download to draw their own charts. Visits are stored in batches of at most 200 (src/visits/visit-batch.ts);
// an engine reads the batches' places first (newest last_ts first, no visit parsed), counts each
// from its stored columns, and parses only the batches the asked page falls in and those that
// straddle the time range. So a page costs a scan of the batches' small columns and the parse of a
// few batches, never the load of all of a scope's visits, whichever page is asked.

import type { OwnerFilter } from "../links/list.ts";
import { Lru } from "../util/lru.ts";
import { parseBatch, STORED_IS_BOT as IS_BOT, STORED_TS as TS, type StoredVisit } from "../visits/visit-batch.ts";

/** The most visits one page holds (Shlink's web client asks 5,000 a page). */
export const MAX_VISITS_PAGE = 5_000;

/**
 * Whose visits: one link's (by seq), or those of the links an owner sees (null: every link),
 * optionally of one domain (stored key: "" for the default) and one tag.
 */
export type VisitScope = { linkSeq: number } | { owner: OwnerFilter; domain: string | null; tag: string | null };

/** A page of a scope's visits in [fromTs, toTs), newest first; `offset` visits skipped, at most `limit` (≤ MAX_VISITS_PAGE). */
export type VisitPageQuery = { scope: VisitScope; fromTs: number; toTs: number; excludeBots: boolean; offset: number; limit: number };

/** One visit with its link (the link's seq: the surface names it). */
export type PagedVisit = { linkSeq: number; visit: StoredVisit };

/** A link the page's visits name: its seq, alias and stored domain ("" for the default). */
export type PagedLink = { seq: number; alias: string; domain: string };

/**
 * A page written as text where it is read (docs/performance.md: Downloading a link's visits): a
 * surface's format, named by the surface, with what it needs. `shlink`: Shlink's visits `data`, each
 * link's short URL the base of its stored domain key and its alias.
 */
export type VisitPageWriting = { shlink: { bases: Readonly<Record<string, string>> } };

/**
 * The page, the links its visits are of, and how many visits the whole scope and range hold. When
 * the source wrote it as asked, `written` holds the text (UTF-8) and its visits' count, and `visits` and
 * `links` are empty (the rows are not sent twice); a source that writes nothing leaves it out.
 */
export type VisitPage = { total: number; visits: PagedVisit[]; links: PagedLink[]; written?: { bytes: Uint8Array<ArrayBuffer>; count: number } };

/** Every click of an owner's links (null: every link), bots included, and those of people (the links' stored totals). */
export type VisitTotals = { total: number; humans: number };

/** The port both engines' adapters fill (SQLite on its reader thread, PostgreSQL on its pool). */
export type VisitPageSource = { page(query: VisitPageQuery, writing?: VisitPageWriting): Promise<VisitPage>; totals(owner: OwnerFilter): Promise<VisitTotals> };

/** A stored batch as the scan reads it: its place and its counts (n: its visits, humans: those not bots). */
export type BatchPlace = { id: number; linkSeq: number; firstTs: number; lastTs: number; humans: number; n: number };

/** The batches of the page: each one's visits after `skip` matching ones, `take` of them. */
export type PageCut = { id: number; linkSeq: number; skip: number; take: number };

/** Whether a batch lies wholly in the range, so its stored counts count it without a parse. */
export function wholeInRange(place: BatchPlace, q: Pick<VisitPageQuery, "fromTs" | "toTs">): boolean {
  return place.firstTs >= q.fromTs && place.lastTs < q.toTs;
}

/** The visits of one batch that match, newest first (a batch keeps them in the order they came). */
export function matching(visits: string, q: Pick<VisitPageQuery, "fromTs" | "toTs" | "excludeBots">): StoredVisit[] {
  const out = parseBatch(visits).filter((v) => v[TS] >= q.fromTs && v[TS] < q.toTs && !(q.excludeBots && v[IS_BOT] === 1));
  return out.sort((a, b) => b[TS] - a[TS]);
}

/**
 * Walks the batches in page order (newest last_ts first) and notes which ones the page falls in.
 * `count` of a batch: its matching visits (stored counts when wholly in range, else a parse).
 */
export function pagePlanner(q: Pick<VisitPageQuery, "offset" | "limit" | "excludeBots" | "fromTs" | "toTs">) {
  let position = 0;
  const cuts: PageCut[] = [];
  const end = q.offset + q.limit;
  return {
    /** The matching count of a batch wholly in range, from its stored columns. */
    storedCount: (place: BatchPlace) => (q.excludeBots ? place.humans : place.n),
    add(place: BatchPlace, count: number): void {
      const from = position;
      position += count;
      if (count > 0 && position > q.offset && from < end) {
        const skip = Math.max(0, q.offset - from);
        cuts.push({ id: place.id, linkSeq: place.linkSeq, skip, take: Math.min(position, end) - from - skip });
      }
    },
    total: () => position,
    cuts: () => cuts,
  };
}

/** The seqs of the links the page's batches are of. */
export function cutLinks(cuts: readonly PageCut[]): number[] {
  return [...new Set(cuts.map((c) => c.linkSeq))];
}

/** The page's visits from its batches' stored JSON (by id), in the cuts' order. */
export function cutPage(cuts: readonly PageCut[], visitsOf: ReadonlyMap<number, string>, q: Pick<VisitPageQuery, "fromTs" | "toTs" | "excludeBots">): PagedVisit[] {
  const out: PagedVisit[] = [];
  for (const cut of cuts) {
    const json = visitsOf.get(cut.id);
    if (json === undefined) continue; // deleted with its link between the two reads
    for (const visit of matching(json, q).slice(cut.skip, cut.skip + cut.take)) out.push({ linkSeq: cut.linkSeq, visit });
  }
  return out;
}

/** A place as the scan's SQL answers it (int8 may come back as text from PostgreSQL); n filled from BatchSizes. */
export type PlaceRow = { id: unknown; link_seq: unknown; first_ts: unknown; last_ts: unknown; humans: unknown; n?: unknown; visits: string | null };

/**
 * How many visits each batch holds, remembered: the count is in the batch's JSON, and reading that
 * for every batch of a million-visit link took 1.35 s a page (measured), while a batch never
 * changes once written. So a download counts each batch once; its other pages read only the
 * places. Keyed by id and checked against the place (an id SQLite reuses after a delete is
 * another batch). At most `capacity` batches (200 visits each at most: 100,000 is 20M visits, a few MB).
 */
export function batchSizes(capacity = 100_000) {
  const known = new Lru<number, string>(capacity);
  const tag = (r: PlaceRow) => `${r.link_seq} ${r.first_ts} ${r.last_ts} ${r.humans}`;
  return {
    /** The ids of whole batches (no visits in the row) whose size is not known yet. */
    unknown: (rows: readonly PlaceRow[]): number[] => rows.filter((r) => r.visits === null && known.get(Number(r.id))?.startsWith(`${tag(r)}=`) !== true).map((r) => Number(r.id)),
    learn(rows: readonly PlaceRow[], sizes: ReadonlyMap<number, number>): void {
      for (const r of rows) {
        const n = sizes.get(Number(r.id));
        if (n !== undefined) known.set(Number(r.id), `${tag(r)}=${n}`);
      }
    },
    /** The rows with their sizes (a straddling batch's is not needed: it is parsed; one deleted meanwhile counts 0). */
    sized: (rows: readonly PlaceRow[]): PlaceRow[] =>
      rows.map((r) => {
        if (r.visits !== null) return r;
        const entry = known.get(Number(r.id));
        return { ...r, n: entry?.startsWith(`${tag(r)}=`) ? Number(entry.slice(entry.indexOf("=") + 1)) : 0 };
      }),
  };
}

/**
 * Adds a chunk of the scan to the planner; a straddling batch (its visits in the row) is counted by a
 * parse, and its JSON kept in `held` when the page falls in it.
 */
export function addChunk(
  planner: ReturnType<typeof pagePlanner>,
  rows: readonly PlaceRow[],
  q: Pick<VisitPageQuery, "fromTs" | "toTs" | "excludeBots">,
  held: Map<number, string>,
): void {
  for (const r of rows) {
    const place: BatchPlace = { id: Number(r.id), linkSeq: Number(r.link_seq), firstTs: Number(r.first_ts), lastTs: Number(r.last_ts), humans: Number(r.humans), n: Number(r.n) };
    const before = planner.cuts().length;
    planner.add(place, r.visits === null ? planner.storedCount(place) : matching(r.visits, q).length);
    if (r.visits !== null && planner.cuts().length > before) held.set(place.id, r.visits);
  }
}
