// Tags in PostgreSQL: the tag counts of the list (src/links/tags.ts) and the link change script's
// tag statements, inside its transaction.

import type { TransactionSQL } from "bun";
import type { LinkStatements } from "../../links/change-script.ts";
import type { TagCounts } from "../../links/tags.ts";
import { linkKey } from "../../domains/link-key.ts";
import { DELETE_TAG_SQL, DROP_DOUBLED_SQL, RENAME_TAG_SQL, TAG_USED_SQL, tagCountsQuery } from "../shared/tag-rows.ts";
import { num, numbered, type Pg } from "./connect.ts";

const TAG_USED = numbered(TAG_USED_SQL);
const DROP_DOUBLED = numbered(DROP_DOUBLED_SQL);
const RENAME_TAG = numbered(RENAME_TAG_SQL);
const DELETE_TAG = numbered(DELETE_TAG_SQL);

export function postgresTagCounts(sql: Pg): TagCounts {
  return async (owner) => {
    const { sql: text, params } = tagCountsQuery(owner);
    const rows = await sql.unsafe(numbered(text), params);
    return rows.map((r: { tag: string; links: unknown; clicks: unknown; human_clicks: unknown }) => ({ tag: r.tag, links: num(r.links), clicks: num(r.clicks), humanClicks: num(r.human_clicks) }));
  };
}

/** The tag statements of the change script, inside tx: the tagged links' rows held FOR UPDATE, as lock holds one. */
export function postgresTagStatements(tx: TransactionSQL, sql: Pg): Pick<LinkStatements, "lockTagged" | "tagUsed" | "retagRows"> {
  return {
    async lockTagged(tags) {
      const rows = await tx`SELECT domain, id FROM links WHERE seq IN (SELECT link_seq FROM link_tags WHERE tag = ANY(${sql.array([...tags], "TEXT")})) ORDER BY seq FOR UPDATE`;
      return rows.map((r: { domain: string; id: string }) => linkKey(r.domain, r.id));
    },
    tagUsed: async (tag) => (await tx.unsafe(TAG_USED, [tag])).length > 0,
    async retagRows(from, to) {
      if (to === null) return void (await tx.unsafe(DELETE_TAG, [from]));
      await tx.unsafe(DROP_DOUBLED, [from, to]);
      await tx.unsafe(RENAME_TAG, [to, from]);
    },
  };
}
