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

/**
 * What a sign-in of a known user writes: the admin flag it leaves them with (under "first" their
 * own), or null when nothing changed and last-seen is fresh (no write at all).
 */
export function signInUpdate(user: User, identity: Pick<Identity, "name" | "email">, admin: boolean | "first", now: number, touchAfterMs: number): { admin: boolean } | null {
  const adminNow = admin === "first" ? user.admin : admin;
  const changed = user.name !== identity.name || user.email !== identity.email || user.admin !== adminNow || now - user.lastSeenAt >= touchAfterMs;
  return changed ? { admin: adminNow } : null;
}
