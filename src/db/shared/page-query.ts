// One page of the owner's link list as SQL both engines run: the filters, the keyset condition
// after the cursor, and one row more than asked, which tells whether a next page exists without a
// count. Only the search condition is each engine's own (SQLite's trigram index, PostgreSQL's ILIKE).

import type { LinkStatus } from "../../links/link.ts";
import { LIST_SORTS, type Cursor, type ListFilter, type ListQuery, type ListSort, type PeerSort } from "../../links/list.ts";
import { LINK_COLUMNS, type LinkRow } from "./link-rows.ts";
import { CREDENTIAL_KEY_ID, CREDENTIAL_PRINCIPAL_NAME } from "../../auth/credential.ts";

/** A WHERE condition with its `?` parameters. */
export type SqlCondition = { sql: string; params: (string | number)[] };

const SORT_COLUMN: Record<ListSort | PeerSort, string> = {
  createdAt: "created_at",
  totalClicks: "total_clicks",
  lastClickAt: "last_click_at",
  url: "url",
  alias: "id",
  title: "title",
  humanClicks: "human_clicks",
};

const isCursorSort = (sort: ListSort | PeerSort): sort is ListSort => (LIST_SORTS as readonly string[]).includes(sort);

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

/** The SQL of one page (`?` placeholders, in order). */
export function pageQuery(query: ListQuery, search: SqlCondition | null): { sql: string; params: (string | number)[] } {
  const column = SORT_COLUMN[query.sort];
  const { where, params } = listFilters(query, search);
  const direction = query.order === "desc" ? "DESC" : "ASC";
  if (query.cursor !== null) {
    where.push(`(${column}, seq) ${query.order === "desc" ? "<" : ">"} (?, ?)`);
    params.push(query.cursor.value, query.cursor.seq);
  }
  const sql = `SELECT ${LINK_COLUMNS} FROM links ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
               ORDER BY ${column} ${direction}, seq ${direction} LIMIT ?${query.offset !== undefined ? " OFFSET ?" : ""}`;
  params.push(query.limit + 1);
  if (query.offset !== undefined) params.push(query.offset);
  return { sql, params };
}

/** The SQL of the links a list's filters select, counted, and their clicks summed (one row: links, clicks). */
export function totalsQuery(filter: ListFilter, search: SqlCondition | null): { sql: string; params: (string | number)[] } {
  const { where, params } = listFilters(filter, search);
  return { sql: `SELECT COUNT(*) AS links, COALESCE(SUM(total_clicks), 0) AS clicks FROM links ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`, params };
}

/** The conditions of a list's filters (owner, owner's name, domain, tag, status, search), in order. */
function listFilters(query: ListFilter, search: SqlCondition | null): { where: string[]; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (query.owner?.userId !== undefined) {
    where.push("owner_user_id = ?");
    params.push(query.owner.userId);
  } else if (query.owner?.keyId !== undefined) {
    where.push("owner_key_id = ?");
    params.push(query.owner.keyId);
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
  if (search !== null) {
    where.push(search.sql);
    params.push(...search.params);
  }
  return { where, params };
}

/** The rows of pageQuery without the extra one, and the cursor of the next page when it exists. */
export function trimPage(query: ListQuery, rows: LinkRow[]): { rows: LinkRow[]; next: Cursor | null } {
  const more = rows.length > query.limit;
  if (more) rows.length = query.limit;
  const last = rows.at(-1);
  if (!more || !last || !isCursorSort(query.sort) || query.offset !== undefined) return { rows, next: null };
  const value = last[SORT_COLUMN[query.sort] as "created_at" | "total_clicks" | "last_click_at"] as number;
  return { rows, next: { sort: query.sort, order: query.order, value, seq: last.seq } };
}

/** A LIKE pattern matching q anywhere, with its own %, _ and backslash taken literally (ESCAPE '\'). */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
