// How a users row reads as a User, in both engines (PostgreSQL's adapter first turns its int8
// strings into numbers), and when a sign-in needs to write it.

import type { Identity, User } from "../../auth/users.ts";

export const USER_COLUMNS = "id, source, subject, name, email, admin, created_at, last_seen_at, disabled_at";

export type UserRow = {
  id: number;
  source: string;
  subject: string;
  name: string;
  email: string | null;
  admin: number;
  created_at: number;
  last_seen_at: number;
  disabled_at: number | null;
};

export function toUser(r: UserRow): User {
  return {
    id: r.id,
    source: r.source,
    subject: r.subject,
    name: r.name,
    email: r.email,
    admin: r.admin === 1,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    disabledAt: r.disabled_at,
  };
}

/** Whether a sign-in has something to write: a new name, email or admin flag, or a stale last-seen. */
export function userChanged(user: User, identity: Pick<Identity, "name" | "email">, admin: boolean, now: number, touchAfterMs: number): boolean {
  return user.name !== identity.name || user.email !== identity.email || user.admin !== admin || now - user.lastSeenAt >= touchAfterMs;
}
