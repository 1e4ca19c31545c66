// Users in SQLite (the UserRepository of src/auth/users.ts).

import type { Database } from "bun:sqlite";
import type { User, UserRepository } from "../../auth/users.ts";
import type { Synchronous } from "../../util/maybe.ts";
import { USER_COLUMNS, signInUpdate, toUser, type UserRow } from "../shared/user-rows.ts";

export function sqliteUsers(db: Database): Synchronous<UserRepository> {
  const bySubject = db.query<UserRow, [string, string]>(`SELECT ${USER_COLUMNS} FROM users WHERE source = ? AND subject = ?`);
  const byId = db.query<UserRow, [number]>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`);
  const anyUser = db.query<{ n: number }, []>("SELECT 1 AS n FROM users LIMIT 1");
  const insert = db.query<UserRow, [string, string, string, string | null, number, number, number]>(
    `INSERT INTO users (source, subject, name, email, admin, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${USER_COLUMNS}`,
  );
  const update = db.query<UserRow, [string, string | null, number, number, number]>(
    `UPDATE users SET name = ?, email = ?, admin = ?, last_seen_at = ? WHERE id = ? RETURNING ${USER_COLUMNS}`,
  );
  const disable = db.query<void, [number | null, number]>("UPDATE users SET disabled_at = ? WHERE id = ?");
  const endSessions = db.query<void, [number]>("DELETE FROM sessions WHERE user_id = ?");

  const upsert = db.transaction((identity: Parameters<UserRepository["upsert"]>[0], admin: boolean | "first", now: number, touchAfterMs: number): User => {
    const row = bySubject.get(identity.source, identity.subject);
    if (row === null) {
      const first = admin === "first" ? anyUser.get() === null : admin;
      return toUser(insert.get(identity.source, identity.subject, identity.name, identity.email, first ? 1 : 0, now, now)!);
    }
    const known = toUser(row);
    const write = signInUpdate(known, identity, admin, now, touchAfterMs);
    return write === null ? known : toUser(update.get(identity.name, identity.email, write.admin ? 1 : 0, now, known.id)!);
  });

  return {
    upsert(identity, admin, now, touchAfterMs) {
      // A read first: the usual answer (nothing changed) takes no write lock.
      const row = bySubject.get(identity.source, identity.subject);
      const known = row === null ? null : toUser(row);
      if (known !== null && signInUpdate(known, identity, admin, now, touchAfterMs) === null) return known;
      return upsert.immediate(identity, admin, now, touchAfterMs);
    },
    byId(id) {
      const row = byId.get(id);
      return row ? toUser(row) : null;
    },
    list: () => db.query<UserRow, []>(`SELECT ${USER_COLUMNS} FROM users ORDER BY id`).all().map(toUser),
    setDisabled: (id, at) =>
      db.transaction(() => {
        if (byId.get(id) === null) return false;
        disable.run(at, id);
        if (at !== null) endSessions.run(id);
        return true;
      }).immediate(),
    setAdmin: (id, admin) => db.query("UPDATE users SET admin = ? WHERE id = ?").run(admin ? 1 : 0, id).changes > 0,
  };
}
