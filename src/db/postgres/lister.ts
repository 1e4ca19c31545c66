// The owner's link list in PostgreSQL: the shared page query (src/db/shared/page-query.ts) with
// ILIKE for the search term, which a trigram index serves when pg_trgm could be created (schema.ts).
// A search is planned for its own term: after five runs of a prepared statement PostgreSQL may
// switch to a plan made without the parameters' values, which cannot tell a rare term from a
// common one and reads the whole table by date for a rare one (47 ms instead of 2.5 over 100,000
// links, measured; the benchmark's "search, 10 matches").

import { everyLink, type LinkLister } from "../../links/list.ts";
import { toLink } from "../shared/link-rows.ts";
import { likePattern, linkSet, membersQuery, pageQuery, totalsQuery, trimPage } from "../shared/page-query.ts";
import { num, numbered, type Pg } from "./connect.ts";
import { linkRow, tagsOf } from "./rows.ts";
import { postgresTagCounts } from "./tags.ts";

// ILIKE folds the case of every letter (SQLite's LIKE only of ASCII ones).
const SUBSTRING = "(id ILIKE ? OR url ILIKE ? OR title ILIKE ?)";
// The peer sorts by url and title order text by its bytes, as SQLite's BINARY does, whatever the
// database's collation: one order on both engines (src/db/shared/page-query.ts).
const BYTEWISE = ' COLLATE "C"';

export function postgresLister(sql: Pg): LinkLister {
  const page: LinkLister["page"] = async (query) => {
    const pattern = query.q === null ? null : likePattern(query.q);
    const { sql: text, params } = pageQuery(query, pattern === null ? null : { sql: SUBSTRING, params: [pattern, pattern, pattern] }, BYTEWISE);
    const found = pattern === null
      ? await sql.unsafe(numbered(text), params)
      : await sql.begin(async (tx) => (await Promise.all([tx`SET LOCAL plan_cache_mode = force_custom_plan`, tx.unsafe(numbered(text), params)]))[1]);
    const { rows, next } = trimPage(query, found.map(linkRow));
    const tags = await tagsOf(sql, rows.map((r) => r.seq));
    return { links: rows.map((r) => toLink(r, tags.get(r.seq) ?? [])), next };
  };
  const totals: LinkLister["totals"] = async (filter) => {
    const pattern = filter.q === null ? null : likePattern(filter.q);
    const { sql: text, params } = totalsQuery(filter, pattern === null ? null : { sql: SUBSTRING, params: [pattern, pattern, pattern] });
    const [row] = await sql.unsafe(numbered(text), params);
    return { links: num(row.links), clicks: num(row.clicks) };
  };
  const members: LinkLister["members"] = async (filter) => {
    const { sql: text, params } = membersQuery(filter);
    return linkSet(await sql.unsafe(numbered(text), params));
  };
  return { page, totals, members, all: (owner, domain) => everyLink(page, owner, domain), tags: postgresTagCounts(sql) };
}
