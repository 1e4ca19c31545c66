// Users in PostgreSQL (the UserRepository of src/auth/users.ts).

import type { UserRepository } from "../../auth/users.ts";
import { USER_COLUMNS, signInUpdate, toUser, type UserRow } from "../shared/user-rows.ts";
import { num, numOrNull, type Pg } from "./connect.ts";

const row = (r: Record<string, unknown>): UserRow => ({
  id: num(r.id),
  source: r.source as string,
  subject: r.subject as string,
  name: r.name as string,
  email: r.email as string | null,
  admin: num(r.admin),
  created_at: num(r.created_at),
  last_seen_at: num(r.last_seen_at),
  disabled_at: numOrNull(r.disabled_at),
});

// The first user's admin flag must be decided once among instances signing people in at once.
const FIRST_USER_LOCK = 0x73687573; // "shus"

export function postgresUsers(sql: Pg): UserRepository {
  const bySubject = async (source: string, subject: string) => {
    const [r] = await sql.unsafe(`SELECT ${USER_COLUMNS} FROM users WHERE source = $1 AND subject = $2`, [source, subject]);
    return r ? toUser(row(r)) : null;
  };
  return {
    async upsert(identity, admin, now, touchAfterMs) {
      const known = await bySubject(identity.source, identity.subject);
      if (known !== null && signInUpdate(known, identity, admin, now, touchAfterMs) === null) return known;
      return await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${FIRST_USER_LOCK})`;
        const [existing] = await tx.unsafe(`SELECT ${USER_COLUMNS} FROM users WHERE source = $1 AND subject = $2`, [identity.source, identity.subject]);
        if (existing === undefined) {
          const first = admin === "first" ? (await tx`SELECT 1 FROM users LIMIT 1`).length === 0 : admin;
          const [created] = await tx.unsafe(
            `INSERT INTO users (source, subject, name, email, admin, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING ${USER_COLUMNS}`,
            [identity.source, identity.subject, identity.name, identity.email, first ? 1 : 0, now],
          );
          return toUser(row(created));
        }
        const user = toUser(row(existing));
        const write = signInUpdate(user, identity, admin, now, touchAfterMs);
        if (write === null) return user;
        const [updated] = await tx.unsafe(`UPDATE users SET name = $1, email = $2, admin = $3, last_seen_at = $4 WHERE id = $5 RETURNING ${USER_COLUMNS}`, [
          identity.name, identity.email, write.admin ? 1 : 0, now, user.id,
        ]);
        return toUser(row(updated));
      });
    },
    async byId(id) {
      const [r] = await sql.unsafe(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
      return r ? toUser(row(r)) : null;
    },
    list: async () => (await sql.unsafe(`SELECT ${USER_COLUMNS} FROM users ORDER BY id`)).map((r: Record<string, unknown>) => toUser(row(r))),
    setDisabled: (id, at) =>
      sql.begin(async (tx) => {
        const changed = await tx`UPDATE users SET disabled_at = ${at} WHERE id = ${id}`;
        if (changed.count === 0) return false;
        if (at !== null) await tx`DELETE FROM sessions WHERE user_id = ${id}`;
        return true;
      }),
    setAdmin: async (id, admin) => (await sql`UPDATE users SET admin = ${admin ? 1 : 0} WHERE id = ${id}`).count > 0,
  };
}
