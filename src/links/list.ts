// The owner's list of links: filters, three sort orders and keyset cursors, so that a page is as
// quick on the 2,000th page as on the first and stays stable while links are added.

import type { Database } from "bun:sqlite";
import type { Link, LinkStatus } from "./link.ts";
import { LINK_COLUMNS, tagReader, toLink, type LinkRow } from "./rows.ts";
import { CANDIDATE_LIMIT, searchPlanner, type SearchCondition } from "./search.ts";
import type { MaybePromise, Synchronous } from "../util/maybe.ts";

export const LIST_SORTS = ["createdAt", "totalClicks", "lastClickAt"] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export type ListOrder = "asc" | "desc";

/** Where the previous page ended: its last link's sort value and seq. */
export type Cursor = { sort: ListSort; order: ListOrder; value: number; seq: number };

export type ListQuery = {
  /** only this key's links; null = every link (admin) */
  ownerKeyId: number | null;
  q: string | null;
  tag: string | null;
  status: LinkStatus | null;
  sort: ListSort;
  order: ListOrder;
  limit: number;
  cursor: Cursor | null;
  now: number;
};

export type LinkPage = { links: Link[]; next: Cursor | null };

const SORT_COLUMN: Record<ListSort, "created_at" | "total_clicks" | "last_click_at"> = {
  createdAt: "created_at",
  totalClicks: "total_clicks",
  lastClickAt: "last_click_at",
};

/** The status rule of link.ts (linkStatus) as SQL over the stored click totals; `?` is now. */
const STATUS_SQL: Record<LinkStatus, { sql: string; nows: number }> = {
  blocked: { sql: "blocked = 1", nows: 0 },
  disabled: { sql: "blocked = 0 AND disabled = 1", nows: 0 },
  expired: {
    sql: "blocked = 0 AND disabled = 0 AND ((expires_at IS NOT NULL AND expires_at <= ?) OR (max_clicks IS NOT NULL AND total_clicks >= max_clicks))",
    nows: 1,
  },
  active: {
    sql: "blocked = 0 AND disabled = 0 AND (expires_at IS NULL OR expires_at > ?) AND (max_clicks IS NULL OR total_clicks < max_clicks)",
    nows: 1,
  },
};

export type LinkLister = {
  page(query: ListQuery): MaybePromise<LinkPage>;
  /** Every link a key may see, oldest first, read in chunks (an export streams this). */
  all(ownerKeyId: number | null): AsyncIterable<Link>;
};

/** `searchCandidates`: how many index matches a search lists before it scans instead (search.ts). */
export function createLinkLister(db: Database, searchCandidates = CANDIDATE_LIMIT): Synchronous<LinkLister> {
  const tagsOf = tagReader(db);
  const search = searchPlanner(db, searchCandidates);

  const withTags = (rows: LinkRow[]): Link[] => {
    const tags = tagsOf(rows.map((r) => r.seq));
    return rows.map((r) => toLink(r, tags.get(r.seq) ?? []));
  };

  // One read transaction: the search plan's queries and the page query see one snapshot, so a batch
  // indexed between them by the recorder thread cannot fall between the two plans' sets.
  const page = (query: ListQuery): LinkPage => db.transaction(() => readPage(query))();

  const readPage = (query: ListQuery): LinkPage => {
    const { sql, params } = pageQuery(query, query.q === null ? null : search(query.q));
    const { rows, next } = trimPage(query, db.query<LinkRow, (string | number)[]>(sql).all(...params));
    return { links: withTags(rows), next };
  };

  return { page, all: (ownerKeyId) => everyLink(page, ownerKeyId) };
}

/** Every link a key may see, oldest first, read a page at a time (for LinkLister.all). */
export async function* everyLink(page: LinkLister["page"], ownerKeyId: number | null): AsyncGenerator<Link> {
  let cursor: Cursor | null = null;
  do {
    const chunk: LinkPage = await page({ ownerKeyId, q: null, tag: null, status: null, sort: "createdAt", order: "asc", limit: 500, cursor, now: 0 });
    yield* chunk.links;
    cursor = chunk.next;
  } while (cursor !== null);
}

/**
 * The SQL of one page (`?` placeholders, in order): the filters, the keyset condition after the
 * cursor, and one row more than asked, which tells whether a next page exists without a count.
 * Both engines run it; only the search condition is theirs.
 */
export function pageQuery(query: ListQuery, search: SearchCondition | null): { sql: string; params: (string | number)[] } {
  const column = SORT_COLUMN[query.sort];
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (query.ownerKeyId !== null) {
    where.push("owner_key_id = ?");
    params.push(query.ownerKeyId);
  }
  if (query.tag !== null) {
    where.push("seq IN (SELECT link_seq FROM link_tags WHERE tag = ?)");
    params.push(query.tag);
  }
  if (query.status !== null) {
    const s = STATUS_SQL[query.status];
    where.push(s.sql);
    for (let i = 0; i < s.nows; i++) params.push(query.now);
  }
  if (search !== null) {
    where.push(search.sql);
    params.push(...search.params);
  }
  const direction = query.order === "desc" ? "DESC" : "ASC";
  if (query.cursor !== null) {
    where.push(`(${column}, seq) ${query.order === "desc" ? "<" : ">"} (?, ?)`);
    params.push(query.cursor.value, query.cursor.seq);
  }
  const sql = `SELECT ${LINK_COLUMNS} FROM links ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
               ORDER BY ${column} ${direction}, seq ${direction} LIMIT ?`;
  params.push(query.limit + 1);
  return { sql, params };
}

/** The rows of pageQuery without the extra one, and the cursor of the next page when it exists. */
export function trimPage(query: ListQuery, rows: LinkRow[]): { rows: LinkRow[]; next: Cursor | null } {
  const more = rows.length > query.limit;
  if (more) rows.length = query.limit;
  const last = rows.at(-1);
  return { rows, next: more && last ? { sort: query.sort, order: query.order, value: last[SORT_COLUMN[query.sort]], seq: last.seq } : null };
}

/** A cursor as an opaque URL-safe string. */
export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.sort, c.order, c.value, c.seq])).toString("base64url");
}

/** The cursor of a string from encodeCursor, or null when it is not one (or was made for another sort). */
export function decodeCursor(text: string, sort: ListSort, order: ListOrder): Cursor | null {
  try {
    const [s, o, value, seq] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown[];
    if (s !== sort || o !== order || !Number.isSafeInteger(value) || !Number.isSafeInteger(seq)) return null;
    return { sort, order, value: value as number, seq: seq as number };
  } catch {
    return null;
  }
}
