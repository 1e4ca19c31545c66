// Tags in SQLite: the tags of many links in one query (seq → tags, sorted byte-wise), the tag
// counts of the list (src/links/tags.ts), and the link change script's tag statements.

import type { Database } from "bun:sqlite";
import type { LinkStatements } from "../../links/change-script.ts";
import type { TagCount, TagCounts } from "../../links/tags.ts";
import { linkKey } from "../../domains/link-key.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { LINK_COLUMNS, toLink, type LinkRow } from "../shared/link-rows.ts";
import { DELETE_TAG_SQL, DROP_DOUBLED_SQL, RENAME_TAG_SQL, TAG_USED_SQL, tagCountsQuery } from "../shared/tag-rows.ts";

export function tagReader(db: Database): (seqs: readonly number[]) => Map<number, string[]> {
  const select = db.query<{ link_seq: number; tag: string }, [string]>(
    "SELECT link_seq, tag FROM link_tags WHERE link_seq IN (SELECT value FROM json_each(?)) ORDER BY link_seq, tag",
  );
  return (seqs) => {
    const out = new Map<number, string[]>();
    if (seqs.length === 0) return out;
    for (const { link_seq, tag } of select.all(JSON.stringify(seqs))) {
      const list = out.get(link_seq);
      if (list) list.push(tag);
      else out.set(link_seq, [tag]);
    }
    return out;
  };
}

export function sqliteTagCounts(db: Database): Synchronous<{ tags: TagCounts }>["tags"] {
  return (owner) => {
    const { sql, params } = tagCountsQuery(owner);
    return db.query<{ tag: string; links: number; clicks: number; human_clicks: number }, number[]>(sql).all(...params)
      .map((r): TagCount => ({ tag: r.tag, links: r.links, clicks: r.clicks, humanClicks: r.human_clicks }));
  };
}

/** The tag statements of the change script; the transaction is IMMEDIATE, so the rows read are held already. */
export function tagWrites(db: Database): Synchronous<Pick<LinkStatements, "lockTagged" | "readSeqs" | "tagUsed" | "retagRows">> {
  const tagged = db.query<{ seq: number; domain: string; id: string }, [string]>(
    "SELECT seq, domain, id FROM links WHERE seq IN (SELECT link_seq FROM link_tags WHERE tag IN (SELECT value FROM json_each(?))) ORDER BY seq",
  );
  const used = db.query<{ used: number }, [string]>(TAG_USED_SQL);
  const dropDoubled = db.query<void, [string, string]>(DROP_DOUBLED_SQL);
  const rename = db.query<void, [string, string]>(RENAME_TAG_SQL);
  const remove = db.query<void, [string]>(DELETE_TAG_SQL);
  const bySeq = db.query<LinkRow, [string]>(`SELECT ${LINK_COLUMNS} FROM links WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq`);
  const tagsOf = tagReader(db);
  return {
    lockTagged: (tags) => tagged.all(JSON.stringify(tags)).map((r) => ({ key: linkKey(r.domain, r.id), seq: r.seq })),
    readSeqs(seqs) {
      const rows = bySeq.all(JSON.stringify(seqs));
      const tags = tagsOf(seqs);
      return rows.map((r) => toLink(r, tags.get(r.seq) ?? []));
    },
    tagUsed: (tag) => used.get(tag) !== null,
    retagRows(from, to) {
      if (to === null) return void remove.run(from);
      dropDoubled.run(from, to);
      rename.run(to, from);
    },
  };
}
