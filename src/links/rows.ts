// How a links row reads as a Link: one column list and one mapping for every query that returns links.

import type { Database } from "bun:sqlite";
import type { Link } from "./link.ts";

export const LINK_COLUMNS =
  "seq, id, url, created_at, owner_key_id, expires_at, max_clicks, disabled, blocked, total_clicks, human_clicks, last_click_at";

export type LinkRow = {
  seq: number;
  id: string;
  url: string;
  created_at: number;
  owner_key_id: number | null;
  expires_at: number | null;
  max_clicks: number | null;
  disabled: number;
  blocked: number;
  total_clicks: number;
  human_clicks: number;
  last_click_at: number;
};

export function toLink(row: LinkRow, tags: string[]): Link {
  return {
    seq: row.seq,
    id: row.id,
    url: row.url,
    createdAt: row.created_at,
    ownerKeyId: row.owner_key_id,
    expiresAt: row.expires_at,
    maxClicks: row.max_clicks,
    disabled: row.disabled === 1,
    blocked: row.blocked === 1,
    tags,
    totalClicks: row.total_clicks,
    humanClicks: row.human_clicks,
    lastClickAt: row.last_click_at === 0 ? null : row.last_click_at,
  };
}

/** Reads the tags of many links in one query: seq → tags (sorted). */
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
