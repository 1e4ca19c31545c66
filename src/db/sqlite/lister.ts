// The owner's link list in SQLite: the shared page query (src/db/shared/page-query.ts) with the
// trigram search plan of search.ts, in one read transaction.

import type { Database } from "bun:sqlite";
import { everyLink, type LinkLister, type LinkPage, type LinkTotals, type ListFilter, type ListQuery } from "../../links/list.ts";
import type { Link } from "../../links/link.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { toLink, type LinkRow } from "../shared/link-rows.ts";
import { linkSet, membersQuery, pageQuery, totalsQuery, trimPage } from "../shared/page-query.ts";
import { CANDIDATE_LIMIT, searchPlanner } from "./search.ts";
import { sqliteTagCounts, tagReader } from "./tags.ts";

/** `searchCandidates`: how many index matches a search lists before it scans instead (search.ts). */
export function sqliteLister(db: Database, searchCandidates = CANDIDATE_LIMIT): Synchronous<LinkLister> {
  const tagsOf = tagReader(db);
  const search = searchPlanner(db, searchCandidates);

  const withTags = (rows: LinkRow[]): Link[] => {
    const tags = tagsOf(rows.map((r) => r.seq));
    return rows.map((r) => toLink(r, tags.get(r.seq) ?? []));
  };

  const readPage = (query: ListQuery): LinkPage => {
    const { sql, params } = pageQuery(query, query.q === null ? null : search(query.q));
    const { rows, next } = trimPage(query, db.query<LinkRow, (string | number)[]>(sql).all(...params));
    return { links: withTags(rows), next };
  };
  // One read transaction: the search plan's queries and the page query see one snapshot, so a batch
  // indexed between them by the recorder thread cannot fall between the two plans' sets.
  const page = (query: ListQuery): LinkPage => db.transaction(() => readPage(query))();

  const totals = (filter: ListFilter): LinkTotals =>
    db.transaction(() => {
      const { sql, params } = totalsQuery(filter, filter.q === null ? null : search(filter.q));
      return db.query<LinkTotals, (string | number)[]>(sql).get(...params)!;
    })();
  const members = (filter: Parameters<LinkLister["members"]>[0]) => {
    const { sql, params } = membersQuery(filter);
    return linkSet(db.query<{ seq: number; created_at: number }, (string | number)[]>(sql).all(...params));
  };
  return { page, totals, members, all: (owner, domain) => everyLink(page, owner, domain), tags: sqliteTagCounts(db) };
}
