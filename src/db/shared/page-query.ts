// One page of the owner's link list as SQL both engines run: the filters, the keyset condition
// after the cursor, and one row more than asked, which tells whether a next page exists without a
// count. Only the search condition is each engine's own (SQLite's trigram index, PostgreSQL's ILIKE),
// and how text is ordered byte-wise (SQLite's BINARY is its default; PostgreSQL says COLLATE "C").
//
// A peer API's page (offset, src/links/list.ts PEER_SORTS) is read by position: the database walks
// the skipped rows, and the peer sorts other than createdAt and totalClicks have no index, so such a
// page sorts every link the filters select. Fine for the peer APIs' pages (docs/shlink-api.md); our
// own list pages by cursor.

import type { LinkStatus } from "../../links/link.ts";
import { checkPaging, isCursorSort, type Cursor, type LinkSet, type ListFilter, type ListQuery, type MembersFilter, type ListSort, type OwnerFilter, type PeerSort, type TagsFilter } from "../../links/list.ts";
import { LINK_COLUMNS, type LinkRow } from "./link-rows.ts";
import { CREDENTIAL_KEY_ID, CREDENTIAL_PRINCIPAL_NAME } from "../../auth/credential.ts";

/** A WHERE condition with its `?` parameters. */
export type SqlCondition = { sql: string; params: (string | number)[] };

const SORT_COLUMN: Record<ListSort, "created_at" | "total_clicks" | "last_click_at"> = {
  createdAt: "created_at",
  totalClicks: "total_clicks",
  lastClickAt: "last_click_at",
};

/**
 * What a peer sort orders by; `bytewise` is the engine's clause that orders text by its bytes (so
 * both engines list the same order). A link without a title sorts as the empty title, first in
 * ascending order, as Shlink orders them (COALESCE(s.title, '') in Shlink's
 * module/Core/src/ShortUrl/Repository/ShortUrlListRepository.php findList).
 */
const PEER_SORT_SQL: Record<PeerSort, (bytewise: string) => string> = {
  url: (bytewise) => `url${bytewise}`,
  alias: () => "id", // COLLATE "C" on PostgreSQL already
  title: (bytewise) => `COALESCE(title, '')${bytewise}`,
  humanClicks: () => "human_clicks",
};

/** `bytewise`: the engine's clause ordering text by its bytes ("" for SQLite, ` COLLATE "C"` for PostgreSQL). */
const sortSql = (sort: ListSort | PeerSort, bytewise: string): string => (isCursorSort(sort) ? SORT_COLUMN[sort] : PEER_SORT_SQL[sort](bytewise));


/** The status rule of src/links/link.ts (linkStatus) as SQL over the stored click totals; `?` is now. */
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

/** Links whose owner (as the list shows it: the user, else the key) has this name. */
const OWNER_NAMED = `(owner_user_id IN (SELECT u.id FROM users AS u WHERE u.name = ?)
  OR (owner_user_id IS NULL AND owner_key_id IN (SELECT k.id FROM api_keys AS k WHERE k.name = ?))
  OR (owner_user_id IS NULL AND owner_key_id = ${CREDENTIAL_KEY_ID} AND ? = '${CREDENTIAL_PRINCIPAL_NAME}'))`;

/**
 * Whose links a query reads, as a condition on `links` (named `alias` when joined): a user's, a
 * key's, or null for every link. One rule for the list, its totals, tag counts and visit pages.
 */
export function ownerCondition(owner: OwnerFilter, alias = ""): SqlCondition | null {
  const column = alias === "" ? "" : `${alias}.`;
  if (owner?.userId !== undefined) return { sql: `${column}owner_user_id = ?`, params: [owner.userId] };
  if (owner?.keyId !== undefined) return { sql: `${column}owner_key_id = ?`, params: [owner.keyId] };
  return null;
}

/**
 * The SQL of one page (`?` placeholders, in order). Ties are broken by seq, so every order is total
 * and pages by offset cover every link once. A cursor page reads one row more than asked (is there a
 * next page?); an offset page reads just the page (its caller counts with totalsQuery).
 */
export function pageQuery(query: ListQuery, search: SqlCondition | null, bytewise = ""): { sql: string; params: (string | number)[] } {
  const byOffset = checkPaging(query);
  const order = sortSql(query.sort, bytewise);
  const { where, params } = listFilters(query, search);
  const direction = query.order === "desc" ? "DESC" : "ASC";
  if (query.cursor !== null) {
    where.push(`(${order}, seq) ${query.order === "desc" ? "<" : ">"} (?, ?)`);
    params.push(query.cursor.value, query.cursor.seq);
  }
  const sql = `SELECT ${LINK_COLUMNS} FROM links ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
               ORDER BY ${order} ${direction}, seq ${direction} LIMIT ?${byOffset ? " OFFSET ?" : ""}`;
  if (byOffset) params.push(query.limit, query.offset!);
  else params.push(query.limit + 1);
  return { sql, params };
}

/** The SQL of the links a list's filters select, counted, and their clicks summed (one row: links, clicks). */
export function totalsQuery(filter: ListFilter, search: SqlCondition | null): { sql: string; params: (string | number)[] } {
  const { where, params } = listFilters(filter, search);
  return { sql: `SELECT COUNT(*) AS links, COALESCE(SUM(total_clicks), 0) AS clicks FROM links ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`, params };
}

/** The seqs and creations of the links of a set (LinkLister.members), in no order. */
export function membersQuery(filter: MembersFilter): { sql: string; params: (string | number)[] } {
  const { where, params } = listFilters({ ...filter, ownerName: null, q: null, status: null, now: 0 }, null);
  return { sql: `SELECT seq, created_at FROM links ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`, params };
}

/** The seqs and the oldest creation of membersQuery's rows. */
export function linkSet(rows: readonly { seq: unknown; created_at: unknown }[]): LinkSet {
  let oldest: number | null = null;
  const seqs = rows.map((r) => {
    const created = Number(r.created_at);
    if (oldest === null || created < oldest) oldest = created;
    return Number(r.seq);
  });
  return { seqs, oldestCreatedAt: oldest };
}

/** The conditions of a list's filters (owner, owner's name, domain, tag, status, the peer APIs', search), in order. */
function listFilters(query: ListFilter, search: SqlCondition | null): { where: string[]; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const owner = ownerCondition(query.owner);
  if (owner !== null) {
    where.push(owner.sql);
    params.push(...owner.params);
  }
  if (query.ownerName !== null) {
    where.push(OWNER_NAMED);
    params.push(query.ownerName, query.ownerName, query.ownerName);
  }
  if (query.domain !== undefined && query.domain !== null) {
    where.push("domain = ?");
    params.push(query.domain);
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
  for (const c of peerFilters(query)) {
    where.push(c.sql);
    params.push(...c.params);
  }
  if (search !== null) {
    where.push(search.sql);
    params.push(...search.params);
  }
  return { where, params };
}

/**
 * The filters the peer APIs ask for (Shlink's list: tags[], excludeTags[], startDate/endDate,
 * excludeMaxVisitsReached, excludePastValidUntil): several tags through link_tags' (tag, link_seq)
 * key, a creation range over links_by_created, and the two halves of the expired status.
 */
function peerFilters(query: ListFilter): SqlCondition[] {
  const out: SqlCondition[] = [];
  const tagged = tagsCondition(query.tags ?? null);
  if (tagged !== null) out.push({ sql: `seq IN (${tagged.sql})`, params: tagged.params });
  const excluded = excludedTagsCondition(query.excludeTags ?? null);
  if (excluded !== null) out.push(excluded);
  if (query.createdFrom !== undefined && query.createdFrom !== null) out.push({ sql: "created_at >= ?", params: [query.createdFrom] });
  if (query.createdBefore !== undefined && query.createdBefore !== null) out.push({ sql: "created_at < ?", params: [query.createdBefore] });
  // The two halves of STATUS_SQL's expired, each on its own (src/links/link.ts linkStatus).
  if (query.excludeMaxClicksReached) out.push({ sql: "(max_clicks IS NULL OR total_clicks < max_clicks)", params: [] });
  if (query.excludeExpired) out.push({ sql: "(expires_at IS NULL OR expires_at > ?)", params: [query.now] });
  return out;
}

const distinctNames = (filter: TagsFilter | null): string[] => [...new Set(filter?.names ?? [])];
const placeholders = (n: number): string => Array.from({ length: n }, () => "?").join(", ");

/** The seqs of the links with any/all of the tags (SELECT link_seq …), or null when no tag is named. */
function tagsCondition(filter: TagsFilter | null): SqlCondition | null {
  const names = distinctNames(filter);
  if (names.length === 0) return null;
  const any = `SELECT link_seq FROM link_tags WHERE tag IN (${placeholders(names.length)})`;
  // One row per (tag, link) (the key): a link has all of them when it has as many rows as names.
  if (filter!.mode === "any" || names.length === 1) return { sql: any, params: names };
  return { sql: `${any} GROUP BY link_seq HAVING COUNT(*) = ?`, params: [...names, names.length] };
}

/**
 * Leaves out the links with any/all of the tags: a probe of link_tags' key per listed link, never a
 * set built of every tagged link first (PostgreSQL answers NOT IN over a large set row by row).
 */
function excludedTagsCondition(filter: TagsFilter | null): SqlCondition | null {
  const names = distinctNames(filter);
  if (names.length === 0) return null;
  const own = `FROM link_tags AS excluded WHERE excluded.link_seq = links.seq AND excluded.tag IN (${placeholders(names.length)})`;
  if (filter!.mode === "any" || names.length === 1) return { sql: `NOT EXISTS (SELECT 1 ${own})`, params: names };
  return { sql: `(SELECT COUNT(*) ${own}) < ?`, params: [...names, names.length] };
}

/** The rows of pageQuery without the extra one, and the cursor of the next page when it exists. */
export function trimPage(query: ListQuery, rows: LinkRow[]): { rows: LinkRow[]; next: Cursor | null } {
  const more = rows.length > query.limit;
  if (more) rows.length = query.limit;
  const last = rows.at(-1);
  if (!more || !last || !isCursorSort(query.sort) || query.offset !== undefined) return { rows, next: null };
  const value = last[SORT_COLUMN[query.sort]];
  return { rows, next: { sort: query.sort, order: query.order, value, seq: last.seq } };
}

/** A LIKE pattern matching q anywhere, with its own %, _ and backslash taken literally (ESCAPE '\'). */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
