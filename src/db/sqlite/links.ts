// Links in SQLite (the LinkRepository of src/links/store.ts). Every call answers at once: the
// click path over SQLite stays synchronous. Writes take the write lock first (IMMEDIATE), since
// each reads and then writes.

import type { Database } from "bun:sqlite";
import { targetOfRow, type TargetRow } from "../../links/click-rules.ts";
import { behaviourOf, type LinkRepository, type NewLink, type LinkChanges } from "../../links/store.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { BEHAVIOUR_COLUMNS, behaviourValues, LINK_COLUMNS, otherDestinations, PASSWORD_HASHES_PAGE, PASSWORD_HASHES_SQL, TARGET_SQL, toLink, type LinkRow } from "../shared/link-rows.ts";
import { changedColumns, type ColumnValue } from "../shared/link-columns.ts";
import { LINK_DATA_TABLES } from "../shared/tables.ts";
import { isUniqueViolation } from "../errors.ts";
import { tagReader } from "./tags.ts";
import { outboxWriter } from "./events.ts";
import type { OutboxEvent } from "../../events/types.ts";
import type { DeleteEvents, UpdateEvents } from "../../links/store.ts";

export function sqliteLinks(db: Database): Synchronous<LinkRepository> {
  // Nothing is inserted under a retired id: the check is part of the insert itself.
  const insert = db.query<{ seq: number }, [string, string, number, number | null, number | null, number | null, number | null, ...ReturnType<typeof behaviourValues>]>(
    `INSERT INTO links (id, url, created_at, owner_key_id, owner_user_id, expires_at, max_clicks, ${BEHAVIOUR_COLUMNS})
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14 WHERE NOT EXISTS (SELECT 1 FROM retired_ids WHERE id = ?1)
     RETURNING seq`,
  );
  const insertTag = db.query<void, [number, string]>("INSERT OR IGNORE INTO link_tags (link_seq, tag) VALUES (?, ?)");
  const deleteTags = db.query<void, [number]>("DELETE FROM link_tags WHERE link_seq = ?");
  const selectTarget = db.query<Omit<TargetRow, "retired"> & { retired: number }, [string]>(TARGET_SQL);
  const selectLink = db.query<LinkRow, [string]>(`SELECT ${LINK_COLUMNS} FROM links WHERE id = ?`);
  const selectSeq = db.query<{ seq: number }, [string]>("SELECT seq FROM links WHERE id = ?");
  const deleteLink = db.query<void, [string]>("DELETE FROM links WHERE id = ?"); // tags cascade, search by trigger
  const deleteData = LINK_DATA_TABLES.map((table) => db.query<void, [string]>(`DELETE FROM ${table} WHERE link_id = ?`));
  const retire = db.query<void, [string, number]>("INSERT OR IGNORE INTO retired_ids (id, retired_at) VALUES (?, ?)");
  const mark = db.query<void, [number, string]>("UPDATE links SET blocked = ? WHERE seq IN (SELECT value FROM json_each(?))");
  const tagsOf = tagReader(db);
  const crawlable = db.query<{ id: string }, [number]>("SELECT id FROM links WHERE crawlable = 1 ORDER BY id LIMIT ?");
  const passwordHashes = db.query<{ seq: number; id: string; password_hash: string }, [number, number]>(PASSWORD_HASHES_SQL);
  const writeEvents = outboxWriter(db);
  const read = (id: string) => {
    const row = selectLink.get(id);
    return row ? toLink(row, tagsOf([row.seq]).get(row.seq) ?? []) : null;
  };

  const tryInsert = db.transaction((id: string, link: NewLink, now: number, events: readonly OutboxEvent[]): number | "taken" | "retired" => {
    let row;
    try {
      row = insert.get(id, link.url, now, link.ownerKeyId ?? null, link.ownerUserId ?? null, link.expiresAt ?? null, link.maxClicks ?? null, ...behaviourValues(behaviourOf(link)));
    } catch (err) {
      if (isUniqueViolation(err)) return "taken";
      throw err;
    }
    if (row === null) return "retired";
    for (const tag of link.tags ?? []) insertTag.run(row.seq, tag);
    writeEvents(events);
    return row.seq;
  });

  const updateRow = db.transaction((id: string, changes: LinkChanges, events: UpdateEvents | null): boolean => {
    const seq = selectSeq.get(id)?.seq;
    if (seq === undefined) return false;
    const before = events === null ? null : read(id);
    const columns = changedColumns(changes);
    if (columns.length > 0) {
      db.query<void, ColumnValue[]>(`UPDATE links SET ${columns.map(([c]) => `${c} = ?`).join(", ")} WHERE seq = ?`).run(...columns.map(([, v]) => v), seq);
    }
    if (changes.tags !== undefined) {
      deleteTags.run(seq);
      for (const tag of changes.tags) insertTag.run(seq, tag);
    }
    if (events !== null) writeEvents(events(read(id)!, before!, Object.keys(changes)));
    return true;
  });

  const removeRow = db.transaction((id: string, now: number, events: DeleteEvents | null): boolean => {
    const before = events === null ? null : read(id);
    if (deleteLink.run(id).changes === 0) return false;
    if (events !== null) writeEvents(events(before!));
    for (const statement of deleteData) statement.run(id);
    retire.run(id, now);
    return true;
  });

  return {
    insert: (id, link, now, events = []) => tryInsert(id, link, now, events),
    target(id) {
      const row = selectTarget.get(id)!;
      return targetOfRow({ ...row, retired: row.retired === 1 });
    },
    read,
    update: (id, changes, events = null) => updateRow.immediate(id, changes, events),
    remove: (id, now, events = null) => removeRow.immediate(id, now, events),
    async *destinations() {
      // prepare, not query: a cached statement would be shared with an overlapping walk.
      type Row = { seq: number; url: string; blocked: number; rules: string | null; variants: string | null; fallback_url: string | null };
      for (const row of db.prepare<Row, []>("SELECT seq, url, blocked, rules, variants, fallback_url FROM links").iterate()) {
        yield { seq: row.seq, url: row.url, blocked: row.blocked === 1, also: otherDestinations(row) };
      }
    },
    crawlable: (limit) => crawlable.all(limit).map((r) => r.id),
    async *passwordHashes() {
      let after = 0;
      for (;;) {
        const rows = passwordHashes.all(after, PASSWORD_HASHES_PAGE);
        for (const r of rows) yield { id: r.id, passwordHash: r.password_hash };
        if (rows.length < PASSWORD_HASHES_PAGE) return;
        after = rows[rows.length - 1]!.seq;
      }
    },
    setBlocked(blocked, unblocked) {
      db.transaction(() => {
        if (blocked.length > 0) mark.run(1, JSON.stringify(blocked));
        if (unblocked.length > 0) mark.run(0, JSON.stringify(unblocked));
      }).immediate();
    },
  };
}
