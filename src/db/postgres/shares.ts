// Share links in PostgreSQL (the ShareRepository of src/stats/shares.ts): only token hashes are stored.

import { linkKey } from "../../domains/link-key.ts";
import type { Share, ShareRepository } from "../../stats/shares.ts";
import { num, numOrNull, type Pg } from "./connect.ts";

const toShare = (r: Record<string, unknown>): Share => ({
  id: num(r.id),
  linkSeq: num(r.link_seq),
  label: r.label as string,
  createdAt: num(r.created_at),
  expiresAt: numOrNull(r.expires_at),
  lastUsedAt: numOrNull(r.last_used_at),
});

export function postgresShares(sql: Pg): ShareRepository {
  return {
    async insert(row) {
      const [made] = await sql`
        INSERT INTO link_shares (link_seq, token_hash, label, created_at, expires_at)
        VALUES (${row.linkSeq}, ${row.hash}, ${row.label}, ${row.createdAt}, ${row.expiresAt})
        RETURNING id, link_seq, label, created_at, expires_at, last_used_at`;
      return toShare(made);
    },
    list: async (linkSeq) =>
      (await sql`SELECT id, link_seq, label, created_at, expires_at, last_used_at FROM link_shares WHERE link_seq = ${linkSeq} ORDER BY id`).map(toShare),
    remove: async (linkSeq, id) => (await sql`DELETE FROM link_shares WHERE link_seq = ${linkSeq} AND id = ${id}`).count > 0,
    // The link's alias and domain with it: a share of a deleted link finds nothing (its rows went with it).
    async byHash(hash) {
      const [row] = await sql`
        SELECT s.id, s.link_seq, s.label, s.created_at, s.expires_at, s.last_used_at, l.id AS alias, l.domain
        FROM link_shares AS s JOIN links AS l ON l.seq = s.link_seq WHERE s.token_hash = ${hash}`;
      return row ? { share: toShare(row), linkKey: linkKey(row.domain as string, row.alias as string) } : null;
    },
    setLastUsed: (id, now) => sql`UPDATE link_shares SET last_used_at = ${now} WHERE id = ${id}`.then(() => true),
  };
}
