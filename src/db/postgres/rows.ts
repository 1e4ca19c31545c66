// How PostgreSQL's rows read as the shapes the engines share: int8 columns arrive as strings.

import type { LinkRow } from "../shared/link-rows.ts";
import type { TransactionSQL } from "bun";
import { num, numOrNull, type Pg } from "./connect.ts";

export function linkRow(r: Record<string, unknown>): LinkRow {
  return {
    seq: num(r.seq),
    domain: r.domain as string,
    id: r.id as string,
    url: r.url as string,
    created_at: num(r.created_at),
    owner_key_id: numOrNull(r.owner_key_id),
    owner_user_id: numOrNull(r.owner_user_id),
    owner: r.owner as string | null,
    expires_at: numOrNull(r.expires_at),
    max_clicks: numOrNull(r.max_clicks),
    disabled: num(r.disabled),
    blocked: num(r.blocked),
    total_clicks: num(r.total_clicks),
    human_clicks: num(r.human_clicks),
    last_click_at: num(r.last_click_at),
    rules: r.rules as string | null,
    variants: r.variants as string | null,
    password_hash: r.password_hash as string | null,
    redirect_type: num(r.redirect_type),
    valid_from: numOrNull(r.valid_from),
    fallback_url: r.fallback_url as string | null,
    crawlable: num(r.crawlable),
    title: (r.title ?? null) as string | null,
    card_title: (r.card_title ?? null) as string | null,
    card_description: (r.card_description ?? null) as string | null,
    card_image: (r.card_image ?? null) as string | null,
  };
}

/** The tags of many links in one query: seq → tags (sorted byte-wise, as SQLite sorts them). */
export async function tagsOf(sql: Pg | TransactionSQL, seqs: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (seqs.length === 0) return out;
  const rows = await sql`SELECT link_seq, tag FROM link_tags WHERE link_seq = ANY(${sql.array([...seqs], "INT8")}) ORDER BY link_seq, tag`;
  for (const r of rows as { link_seq: string; tag: string }[]) {
    const seq = num(r.link_seq);
    const list = out.get(seq);
    if (list) list.push(r.tag);
    else out.set(seq, [r.tag]);
  }
  return out;
}
