// The owner's list of links: filters, three sort orders and keyset cursors, so that a page is as
// quick on the 2,000th page as on the first and stays stable while links are added. The query
// itself is SQL both engines share (src/db/shared/page-query.ts); each engine implements LinkLister.

import type { Link, LinkStatus } from "./link.ts";
import type { MaybePromise } from "../util/maybe.ts";
import type { TagCounts } from "./tags.ts";

export const LIST_SORTS = ["createdAt", "totalClicks", "lastClickAt"] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export type ListOrder = "asc" | "desc";

/** Where the previous page ended: its last link's sort value and seq. */
export type Cursor = { sort: ListSort; order: ListOrder; value: number; seq: number };

/**
 * Whose links a caller sees: a user's (made in their browser or with their keys), a key's (a key
 * of nobody's), or every link (null: an admin).
 */
export type OwnerFilter = { userId: number; keyId?: undefined } | { keyId: number; userId?: undefined } | null;

/** The filter as the two ids the engines' SQL takes: [user, key], both null for every link. */
export function ownerIds(owner: OwnerFilter): [number | null, number | null] {
  return [owner?.userId ?? null, owner?.keyId ?? null];
}

/**
 * Sorts the peer APIs ask for (Shlink's orderBy: longUrl, shortCode, title, nonBotVisits): paged by
 * `offset` only, never by a cursor, because their values are text (or change with every click).
 */
export const PEER_SORTS = ["url", "alias", "title", "humanClicks"] as const;
export type PeerSort = (typeof PEER_SORTS)[number];

/** Several tags at once: a link with any of them, or with all of them. */
export type TagsFilter = { names: readonly string[]; mode: "any" | "all" };

export type ListQuery = {
  owner: OwnerFilter;
  /** an admin's filter: links of the users or the keys (of nobody's) with this name */
  ownerName: string | null;
  /** a case-insensitive substring of the id or the destination */
  q: string | null;
  tag: string | null;
  /** one domain's links (its stored key: '' for the default), or every domain's (null or absent) */
  domain?: string | null;
  status: LinkStatus | null;
  /** links with any/all of these tags (besides `tag`); null or absent: no such filter */
  tags?: TagsFilter | null;
  /** leave out links with any/all of these tags */
  excludeTags?: TagsFilter | null;
  /**
   * links created at or after createdFrom and strictly before createdBefore (ms); null or absent:
   * unbounded. Shlink's endDate is inclusive: its translation passes endDate + 1.
   */
  createdFrom?: number | null;
  createdBefore?: number | null;
  /** leave out links whose maxClicks is reached (totalClicks >= maxClicks) */
  excludeMaxClicksReached?: boolean;
  /** leave out links whose expiresAt is at or before `now` */
  excludeExpired?: boolean;
  sort: ListSort | PeerSort;
  order: ListOrder;
  limit: number;
  cursor: Cursor | null;
  /**
   * page by position instead of by cursor (a peer API's page numbers): skip this many; cursor must be
   * null. Such a page reads `limit` rows (Number.MAX_SAFE_INTEGER: every one) and hands out no cursor.
   */
  offset?: number;
  now: number;
};

export type LinkPage = { links: Link[]; next: Cursor | null };

/** What a list selects, without its order and page. */
export type ListFilter = Omit<ListQuery, "sort" | "order" | "limit" | "cursor">;
/** How many links a filter selects, and their clicks (every click of their lives, bots included). */
export type LinkTotals = { links: number; clicks: number };

/** Whose links, of which tag and domain (its stored key), a set of links is: what a tag's or a domain's statistics sum. */
export type MembersFilter = Pick<ListFilter, "owner" | "tag" | "domain">;
/** The links of a MembersFilter: their seqs, and the oldest one's creation (null when none). */
export type LinkSet = { seqs: readonly number[]; oldestCreatedAt: number | null };

/** The port each engine implements (src/db/<engine>/lister.ts). */
export type LinkLister = {
  /** One page, read in one snapshot (a link indexed or created meanwhile is on it or not, never half). */
  page(query: ListQuery): MaybePromise<LinkPage>;
  /** The links the filter selects, counted in the database (a peer API's totals: never read one by one). */
  totals(filter: ListFilter): MaybePromise<LinkTotals>;
  /** Every link a key may see (of one domain, by its stored key, when given), oldest first, read in chunks (an export streams this). */
  all(owner: OwnerFilter, domain?: string | null): AsyncIterable<Link>;
  /** The seqs of the links a filter selects and the oldest creation, never their rows (a tag of 10,000 links is 10,000 numbers). */
  members(filter: MembersFilter): MaybePromise<LinkSet>;
  /** Every tag on the links the owner sees, with its links and clicks counted in the database (src/links/tags.ts). */
  tags: TagCounts;
};

export const isCursorSort = (sort: ListSort | PeerSort): sort is ListSort => (LIST_SORTS as readonly string[]).includes(sort);

/**
 * The most tag names a tags or excludeTags filter holds: each is one bound parameter, and a URL
 * could otherwise carry thousands (the surfaces refuse more as a client's error, e.g.
 * src/http/compat/shlink/shlink-list-query.ts).
 */
export const MAX_FILTER_TAGS = 100;

/**
 * Whether a page is read at an offset (else after its cursor); throws on a query this port does not
 * take (a caller's mistake, never a client's: the surfaces check what clients send). Checked before
 * a read is handed to the reader thread, so that it never has to answer with an error.
 */
export function checkPaging(query: Pick<ListQuery, "sort" | "cursor" | "offset" | "tags" | "excludeTags">): boolean {
  // An order no SQL is written for (else a TypeError deep in page-query.ts, or a cursor page of it).
  if (!isCursorSort(query.sort) && !(PEER_SORTS as readonly string[]).includes(query.sort)) throw new Error(`no list order is called ${String(query.sort)}`);
  for (const filter of [query.tags, query.excludeTags]) {
    if (filter && filter.names.length > MAX_FILTER_TAGS) throw new RangeError(`a tags filter holds at most ${MAX_FILTER_TAGS} names, not ${filter.names.length}`);
  }
  if (query.offset === undefined) {
    if (!isCursorSort(query.sort)) throw new Error(`the ${query.sort} order is paged by offset only`);
    return false;
  }
  if (query.cursor !== null) throw new Error("a list page is read after a cursor or at an offset, not both");
  if (!Number.isSafeInteger(query.offset) || query.offset < 0) throw new RangeError(`a list offset is a whole number from 0, not ${query.offset}`);
  return true;
}

/** Every link a key may see, oldest first, read a page at a time (for LinkLister.all). */
export async function* everyLink(page: LinkLister["page"], owner: OwnerFilter, domain: string | null = null): AsyncGenerator<Link> {
  let cursor: Cursor | null = null;
  do {
    const chunk: LinkPage = await page({ owner, ownerName: null, q: null, tag: null, domain, status: null, sort: "createdAt", order: "asc", limit: 500, cursor, now: 0 });
    yield* chunk.links;
    cursor = chunk.next;
  } while (cursor !== null);
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
