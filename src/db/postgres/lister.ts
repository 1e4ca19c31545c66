// The owner's link list in PostgreSQL: the same page query as SQLite's (src/links/list.ts), with
// ILIKE for the search term, which a trigram index serves when pg_trgm could be created (schema.ts).

import { everyLink, pageQuery, trimPage, type LinkLister } from "../../links/list.ts";
import { likePattern } from "../../links/search.ts";
import { toLink } from "../../links/rows.ts";
import { numbered, type Pg } from "./connect.ts";
import { linkRow, tagsOf } from "./rows.ts";

// ILIKE folds the case of every letter (SQLite's LIKE only of ASCII ones).
const SUBSTRING = "(id ILIKE ? OR url ILIKE ?)";

export function createPgLinkLister(sql: Pg): LinkLister {
  const page: LinkLister["page"] = async (query) => {
    const pattern = query.q === null ? null : likePattern(query.q);
    const { sql: text, params } = pageQuery(query, pattern === null ? null : { sql: SUBSTRING, params: [pattern, pattern] });
    const { rows, next } = trimPage(query, (await sql.unsafe(numbered(text), params)).map(linkRow));
    const tags = await tagsOf(sql, rows.map((r) => r.seq));
    return { links: rows.map((r) => toLink(r, tags.get(r.seq) ?? [])), next };
  };
  return { page, all: (ownerKeyId) => everyLink(page, ownerKeyId) };
}
