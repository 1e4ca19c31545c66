// Links in SQLite (the LinkRepository of src/links/store.ts): the statements of the link change
// script (src/links/change-script.ts) and its transaction, and the reads. Every call answers at
// once: the click path over SQLite stays synchronous. Writes take the write lock first
// (IMMEDIATE), since each reads and then writes.

import type { Database } from "bun:sqlite";
import { targetOfRow, type TargetRow } from "../../links/click-rules.ts";
import { behaviourOf, type LinkDestinations, type LinkRepository, type StoredPasswordHash } from "../../links/store.ts";
import { linkWrites, type LinkStatements, type LinkWrites } from "../../links/change-script.ts";
import type { Link } from "../../links/link.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { BEHAVIOUR_COLUMNS, behaviourValues, DESTINATION_COLUMNS, LINK_COLUMNS, otherDestinations, PASSWORD_HASHES_PAGE, PASSWORD_HASHES_SQL, TARGET_SQL, CRAWLABLE_SQL, FILL_TITLE_SQL, KEY_OF_SEQ_SQL, toLink, type LinkRow } from "../shared/link-rows.ts";
import { changedColumns, type ColumnValue } from "../shared/link-columns.ts";
import { DEFAULT_DOMAIN, LINK_DATA_TABLES } from "../shared/tables.ts";
import { isUniqueViolation } from "../errors.ts";
import { keyParts, linkKey } from "../../domains/link-key.ts";
import { tagReader, tagWrites } from "./tags.ts";
import { outboxWriter } from "./events.ts";

export function sqliteLinks(db: Database): Synchronous<LinkRepository> {
  const statements = sqliteLinkStatements(db);
  const crawlable = db.query<{ domain: string; id: string }, [number]>(CRAWLABLE_SQL);
  const selectTarget = db.query<Omit<TargetRow, "retired"> & { retired: number }, [string, string]>(TARGET_SQL);
  const fillTitle = db.query<void, [string, string, string]>(FILL_TITLE_SQL);
  const keyOfSeq = db.query<{ domain: string; id: string }, [number]>(KEY_OF_SEQ_SQL);
  return {
    ...sqliteWrites(db, statements),
    target(key) {
      const { domain, alias } = keyParts(key);
      const row = selectTarget.get(domain, alias)!;
      return targetOfRow({ ...row, retired: row.retired === 1 });
    },
    read: statements.read,
    destinations: () => destinations(db),
    crawlable: (limit) => crawlable.all(limit).map((r) => linkKey(r.domain, r.id)),
    passwordHashes: () => passwordHashes(db),
    fillTitle(key, title) {
      const { domain, alias } = keyParts(key);
      return fillTitle.run(title, domain, alias).changes > 0;
    },
    keyOfSeq(seq) {
      const row = keyOfSeq.get(seq);
      return row === null ? null : linkKey(row.domain, row.id);
    },
  };
}

/**
 * The script's writes, each in one IMMEDIATE transaction (nested in a caller's, an import's page,
 * it is a savepoint). The statements answer at once, so the script never makes a promise: one
 * would let the transaction commit before the script was done.
 */
function sqliteWrites(db: Database, statements: Synchronous<LinkStatements>): Synchronous<LinkWrites> {
  const run = db.transaction((work: (s: LinkStatements) => unknown) => {
    const outcome = work(statements);
    if (outcome instanceof Promise) throw new Error("a SQLite link write made a promise");
    return outcome;
  });
  return linkWrites((work) => run.immediate(work) as ReturnType<typeof work>) as Synchronous<LinkWrites>;
}

/** The statements of src/links/change-script.ts, over the caller's transaction. */
function sqliteLinkStatements(db: Database): Synchronous<LinkStatements> {
  // Nothing is inserted under a retired id: the check is part of the insert itself.
  const insert = db.query<{ seq: number }, [string, string, number, number | null, number | null, number | null, number | null, ...ReturnType<typeof behaviourValues>, string, string | null, string | null, string | null, string | null]>(
    `INSERT INTO links (id, url, created_at, owner_key_id, owner_user_id, expires_at, max_clicks, ${BEHAVIOUR_COLUMNS}, domain, title, card_title, card_description, card_image)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19 WHERE NOT EXISTS (SELECT 1 FROM retired_ids WHERE domain = ?15 AND id = ?1)
     RETURNING seq`,
  );
  const insertTag = db.query<void, [number, string]>("INSERT OR IGNORE INTO link_tags (link_seq, tag) VALUES (?, ?)");
  const deleteTags = db.query<void, [number]>("DELETE FROM link_tags WHERE link_seq = ?");
  const selectLink = db.query<LinkRow, [string, string]>(`SELECT ${LINK_COLUMNS} FROM links WHERE domain = ? AND id = ?`);
  // The transaction is IMMEDIATE: it holds the write lock, so the row is the caller's already.
  const selectSeq = db.query<{ seq: number }, [string, string]>("SELECT seq FROM links WHERE domain = ? AND id = ?");
  const deleteLink = db.query<void, [number]>("DELETE FROM links WHERE seq = ?"); // tags cascade, search by trigger
  const deleteData = LINK_DATA_TABLES.map((table) => db.query<void, [number]>(`DELETE FROM ${table} WHERE link_seq = ?`));
  const retire = db.query<void, [string, string, number, number]>("INSERT OR IGNORE INTO retired_ids (domain, id, seq, retired_at) VALUES (?, ?, ?, ?)");
  const mark = db.query<void, [number, string]>("UPDATE links SET blocked = ? WHERE seq IN (SELECT value FROM json_each(?))");
  const tagsOf = tagReader(db);
  const read = (key: string): Link | null => {
    const { domain, alias } = keyParts(key);
    const row = selectLink.get(domain, alias);
    return row ? toLink(row, tagsOf([row.seq]).get(row.seq) ?? []) : null;
  };
  const addTags = (seq: number, tags: readonly string[]) => {
    for (const tag of tags) insertTag.run(seq, tag);
  };
  return {
    insertRow(id, link, now) {
      let row;
      try {
        row = insert.get(id, link.url, now, link.ownerKeyId ?? null, link.ownerUserId ?? null, link.expiresAt ?? null, link.maxClicks ?? null, ...behaviourValues(behaviourOf(link)), link.domain ?? DEFAULT_DOMAIN, link.title ?? null, link.cardTitle ?? null, link.cardDescription ?? null, link.cardImage ?? null);
      } catch (err) {
        if (isUniqueViolation(err)) return "taken";
        throw err;
      }
      if (row === null) return "retired";
      addTags(row.seq, link.tags ?? []);
      return row.seq;
    },
    lock: (key) => {
      const { domain, alias } = keyParts(key);
      return selectSeq.get(domain, alias)?.seq ?? null;
    },
    read,
    setColumns(seq, changes) {
      const columns = changedColumns(changes);
      if (columns.length === 0) return;
      db.query<void, ColumnValue[]>(`UPDATE links SET ${columns.map(([c]) => `${c} = ?`).join(", ")} WHERE seq = ?`).run(...columns.map(([, v]) => v), seq);
    },
    replaceTags(seq, tags) {
      deleteTags.run(seq);
      addTags(seq, tags);
    },
    deleteRow: (seq) => void deleteLink.run(seq),
    deleteData(seq) {
      for (const statement of deleteData) statement.run(seq);
    },
    retire: (key, seq, now) => {
      const { domain, alias } = keyParts(key);
      retire.run(domain, alias, seq, now);
    },
    markBlocked: (seqs, blocked) => void mark.run(blocked ? 1 : 0, JSON.stringify(seqs)),
    ...tagWrites(db),
    writeEvents: outboxWriter(db),
    // One process owns the file: its own cache is told by the link store.
    announce() {},
  };
}

async function* destinations(db: Database): AsyncIterable<LinkDestinations> {
  // prepare, not query: a cached statement would be shared with an overlapping walk.
  type Row = { seq: number; url: string; blocked: number; rules: string | null; variants: string | null; fallback_url: string | null; card_image: string | null };
  for (const row of db.prepare<Row, []>(`SELECT ${DESTINATION_COLUMNS} FROM links`).iterate()) {
    yield { seq: row.seq, url: row.url, blocked: row.blocked === 1, also: otherDestinations(row) };
  }
}

async function* passwordHashes(db: Database): AsyncIterable<StoredPasswordHash> {
  const page = db.query<{ seq: number; domain: string; id: string; password_hash: string }, [number, number]>(PASSWORD_HASHES_SQL);
  let after = 0;
  for (;;) {
    const rows = page.all(after, PASSWORD_HASHES_PAGE);
    for (const r of rows) yield { id: linkKey(r.domain, r.id), passwordHash: r.password_hash };
    if (rows.length < PASSWORD_HASHES_PAGE) return;
    after = rows[rows.length - 1]!.seq;
  }
}
