// Tags in PostgreSQL: the tag counts of the list (src/links/tags.ts) and the link change script's
// tag statements, inside its transaction.

import type { TransactionSQL } from "bun";
import type { LinkStatements } from "../../links/change-script.ts";
import type { TagCounts } from "../../links/tags.ts";
import { linkKey } from "../../domains/link-key.ts";
import { DELETE_TAG_SQL, DROP_DOUBLED_SQL, RENAME_TAG_SQL, TAG_USED_SQL, tagCountsQuery } from "../shared/tag-rows.ts";
import { num, numbered, type Pg } from "./connect.ts";
import { linkRow, tagsOf } from "./rows.ts";
import { LINK_COLUMNS, toLink, type LinkRow } from "../shared/link-rows.ts";

const TAG_USED = numbered(TAG_USED_SQL);
const DROP_DOUBLED = numbered(DROP_DOUBLED_SQL);
const RENAME_TAG = numbered(RENAME_TAG_SQL);
const DELETE_TAG = numbered(DELETE_TAG_SQL);
const READ_SEQS = `SELECT ${LINK_COLUMNS} FROM links WHERE seq = ANY(string_to_array($1, ',')::int8[]) ORDER BY seq`;

export function postgresTagCounts(sql: Pg): TagCounts {
  return async (owner) => {
    const { sql: text, params } = tagCountsQuery(owner);
    const rows = await sql.unsafe(numbered(text), params);
    return rows.map((r: { tag: string; links: unknown; clicks: unknown; human_clicks: unknown }) => ({ tag: r.tag, links: num(r.links), clicks: num(r.clicks), humanClicks: num(r.human_clicks) }));
  };
}

/** The tag statements of the change script, inside tx: the tagged links' rows held FOR UPDATE, as lock holds one. */
export function postgresTagStatements(tx: TransactionSQL, sql: Pg): Pick<LinkStatements, "lockTagged" | "readSeqs" | "tagUsed" | "retagRows"> {
  return {
    async lockTagged(tags) {
      const rows = await tx`SELECT seq, domain, id FROM links WHERE seq IN (SELECT link_seq FROM link_tags WHERE tag = ANY(${sql.array([...tags], "TEXT")})) ORDER BY seq FOR UPDATE`;
      return rows.map((r: { seq: unknown; domain: string; id: string }) => ({ key: linkKey(r.domain, r.id), seq: num(r.seq) }));
    },
    async readSeqs(seqs) {
      // The seqs as one text: a list of any length in a statement of fixed text.
      const rows = (await tx.unsafe(READ_SEQS, [seqs.join(",")])).map(linkRow);
      const tags = await tagsOf(tx, seqs);
      return rows.map((r: LinkRow) => toLink(r, tags.get(r.seq) ?? []));
    },
    tagUsed: async (tag) => (await tx.unsafe(TAG_USED, [tag])).length > 0,
    async retagRows(from, to) {
      if (to === null) return void (await tx.unsafe(DELETE_TAG, [from]));
      await tx.unsafe(DROP_DOUBLED, [from, to]);
      await tx.unsafe(RENAME_TAG, [to, from]);
    },
  };
}
