// The SQL of tags across links (src/links/tags.ts) both engines run, with `?` parameters
// (PostgreSQL's adapter numbers them: connect.ts numbered).

import type { OwnerFilter } from "../../links/list.ts";
import { ownerCondition } from "./page-query.ts";

/**
 * Every tag on the links an owner filter selects, with its links and their clicks, in byte order
 * (SQLite's BINARY and PostgreSQL's "C" collation of link_tags.tag agree). The owner condition is
 * the list's (page-query.ts): a user's links, a key's, or every link.
 */
export function tagCountsQuery(owner: OwnerFilter): { sql: string; params: number[] } {
  const mine = ownerCondition(owner, "l");
  return {
    sql: `SELECT t.tag AS tag, COUNT(*) AS links, COALESCE(SUM(l.total_clicks), 0) AS clicks, COALESCE(SUM(l.human_clicks), 0) AS human_clicks
      FROM link_tags AS t JOIN links AS l ON l.seq = t.link_seq ${mine ? `WHERE ${mine.sql}` : ""} GROUP BY t.tag ORDER BY t.tag`,
    params: (mine?.params ?? []) as number[],
  };
}

/** Whether some link carries the tag. */
export const TAG_USED_SQL = "SELECT 1 AS used FROM link_tags WHERE tag = ? LIMIT 1";
/** A rename's rows: first the old tag's rows on links that carry the new one too (a link has a tag once), then the rest renamed. */
export const DROP_DOUBLED_SQL = "DELETE FROM link_tags WHERE tag = ? AND link_seq IN (SELECT link_seq FROM link_tags WHERE tag = ?)";
export const RENAME_TAG_SQL = "UPDATE link_tags SET tag = ? WHERE tag = ?";
/** A removal's rows. */
export const DELETE_TAG_SQL = "DELETE FROM link_tags WHERE tag = ?";
