// Tags of many links in one SQLite query: seq → tags (sorted byte-wise).

import type { Database } from "bun:sqlite";

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
