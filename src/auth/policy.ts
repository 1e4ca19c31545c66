// Who may do what with a link: the one policy every operation asks (docs/architecture.md: Who is
// asking). A principal is who a request or a command acts as; how it was recognized (a key, a
// session, a proxy's header) is the surfaces' business, what it may do is decided here.

import type { Scope } from "./keys.ts";
import type { User } from "./users.ts";
import type { Creator, Link } from "../links/link.ts";
import type { OwnerFilter } from "../links/list.ts";

/**
 * Who is acting. `keyId`: the key it came with (or whose session it is); null for a user's own
 * session or a proxy's header. `user`: the person it acts as (signed in, named by the proxy, or the
 * key's user). `name`: the key's name when it came with a key (the audit log says which), else the
 * user's. A user's scope is admin or create by the admin rule; a key's is its own, whoever it
 * belongs to.
 */
export type Principal = { keyId: number | null; user: User | null; name: string; scope: Scope; via: "key" | "session" | "header" | "command" };

/** Someone acting, or nobody known (the public form, an anonymous reader of statistics). */
export type Actor = Principal | null;

/**
 * The machine's operator, running a command on the host (docs/architecture.md: Who is asking): whoever
 * can open the database may do what an admin may, and what they make belongs to nobody (as a
 * credential's link does not belong to a user).
 */
export const OPERATOR: Principal = { keyId: null, user: null, name: "operator", scope: "admin", via: "command" };

/**
 * Admins see every link; anyone else only their own: a user's (made in their browser or with
 * their keys), or a key's own when the key belongs to nobody.
 */
export function maySee(principal: Principal, link: Pick<Link, "ownerKeyId" | "ownerUserId">): boolean {
  if (principal.scope === "admin") return true;
  return principal.user !== null ? link.ownerUserId === principal.user.id : link.ownerKeyId === principal.keyId;
}

/**
 * Whether the asker (null: anonymous) may see where a link leads: its URL and its rules', variants'
 * and fallback's. A link with a password keeps them from anyone but those who may see it (its
 * owner, admins): the password protects where it leads (docs/security.md: Security, "A protected
 * link keeps its secrets"). Any other link's are as open as its statistics.
 */
export function maySeeDestinations(actor: Actor, link: Pick<Link, "ownerKeyId" | "ownerUserId" | "passwordHash">): boolean {
  return link.passwordHash === null || (actor !== null && maySee(actor, link));
}

/** The owner filter for lists: null (every link) for admins. */
export function ownerFilter(principal: Principal): OwnerFilter {
  if (principal.scope === "admin") return null;
  return principal.user !== null ? { userId: principal.user.id } : { keyId: principal.keyId! };
}

/** Who a new link made by this actor belongs to (nobody's, when nobody known or the operator made it). */
export function creatorOf(actor: Actor): Creator | null {
  return actor === null || actor.via === "command" ? null : { keyId: actor.keyId, userId: actor.user?.id ?? null, name: actor.user?.name ?? actor.name };
}

/** Whether the actor may manage the whole instance: keys, users, webhooks, imports from other shorteners. */
export function isAdmin(actor: Actor): actor is Principal {
  return actor !== null && actor.scope === "admin";
}

/**
 * Whether the actor may create links: anyone under --create-access public, only someone known
 * under --create-access key (docs/configuration.md: Flags).
 */
export function mayCreateLinks(actor: Actor, createAccess: "public" | "key"): boolean {
  return actor !== null || createAccess === "public";
}

/**
 * What a reader of a link's statistics may see with them: `destinations`, where the link leads
 * (maySeeDestinations); `manages`, the reader is known to be its owner or an admin (false when
 * nobody was asked).
 */
export type StatsSight = { destinations: boolean; manages: boolean };

/**
 * Whether who asks matters for a link's statistics (docs/configuration.md: Flags):
 * always with --stats-access key; with public statistics only for a link with a password (its
 * counts are public, where it leads is not). When it does not, nobody is authenticated.
 */
export function statsAskWho(statsAccess: "public" | "key", link: Pick<Link, "passwordHash"> | null): boolean {
  return statsAccess === "key" || (link !== null && link.passwordHash !== null);
}

/**
 * Whether the actor (null: anonymous, or not asked) may read a link's statistics, and what of it:
 * with --stats-access key only its owner or an admin, and an unknown link and another's look the
 * same (not_found); nobody known is asked to authenticate (auth_required). With public statistics
 * anyone, with a password-protected link's destinations kept from all but its owner and admins.
 */
export function statsSight(actor: Actor, link: Link | null, statsAccess: "public" | "key"): StatsSight | "not_found" | "auth_required" {
  if (statsAccess === "public") {
    if (link === null) return "not_found";
    return { destinations: maySeeDestinations(actor, link), manages: actor !== null && maySee(actor, link) };
  }
  if (actor === null) return "auth_required";
  return link !== null && maySee(actor, link) ? { destinations: true, manages: true } : "not_found";
}

/** Whether the actor sees every link's clicks (the live view's counter): an admin; anyone else counts their own (maySee). */
export function seesEveryLink(principal: Principal): boolean {
  return isAdmin(principal);
}

/** Whether a key may read /metrics: an admin's (an address in --metrics-allow needs no key: docs/configuration.md: Flags). */
export function mayReadMetrics(principal: Principal): boolean {
  return isAdmin(principal);
}
