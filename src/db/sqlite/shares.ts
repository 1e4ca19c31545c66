// Share links in SQLite (the ShareRepository of src/stats/shares.ts): only token hashes are stored.

import type { Database } from "bun:sqlite";
import { linkKey } from "../../domains/link-key.ts";
import type { Share, ShareRepository } from "../../stats/shares.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { writeIfFree } from "./write-if-free.ts";

type ShareRow = { id: number; link_seq: number; label: string; created_at: number; expires_at: number | null; last_used_at: number | null };
const COLUMNS = "id, link_seq, label, created_at, expires_at, last_used_at";
const S_COLUMNS = "s.id, s.link_seq, s.label, s.created_at, s.expires_at, s.last_used_at";
const toShare = (r: ShareRow): Share => ({ id: r.id, linkSeq: r.link_seq, label: r.label, createdAt: r.created_at, expiresAt: r.expires_at, lastUsedAt: r.last_used_at });

export function sqliteShares(db: Database): Synchronous<ShareRepository> {
  const insert = db.query<ShareRow, [number, Uint8Array, string, number, number | null]>(
    `INSERT INTO link_shares (link_seq, token_hash, label, created_at, expires_at) VALUES (?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
  );
  const list = db.query<ShareRow, [number]>(`SELECT ${COLUMNS} FROM link_shares WHERE link_seq = ? ORDER BY id`);
  const remove = db.query<void, [number, number]>("DELETE FROM link_shares WHERE link_seq = ? AND id = ?");
  // The link's alias and domain with it: a share of a deleted link finds nothing (its rows went with it).
  const byHash = db.query<ShareRow & { alias: string; domain: string }, [Uint8Array]>(
    `SELECT ${S_COLUMNS}, l.id AS alias, l.domain FROM link_shares AS s JOIN links AS l ON l.seq = s.link_seq WHERE s.token_hash = ?`,
  );
  const touch = db.query<void, [number, number]>("UPDATE link_shares SET last_used_at = ? WHERE id = ?");
  return {
    insert: (row) => toShare(insert.get(row.linkSeq, row.hash, row.label, row.createdAt, row.expiresAt)!),
    list: (linkSeq) => list.all(linkSeq).map(toShare),
    remove: (linkSeq, id) => remove.run(linkSeq, id).changes > 0,
    byHash(hash) {
      const row = byHash.get(hash);
      return row ? { share: toShare(row), linkKey: linkKey(row.domain, row.alias) } : null;
    },
    setLastUsed: (id, now) => writeIfFree(db, () => touch.run(now, id)),
  };
}
