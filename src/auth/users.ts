// People who sign in: through an OpenID provider (keyed by issuer and subject) or a trusted
// proxy's header (keyed by the name it sends). A user owns the links they create, and the keys
// made for them act as they do. Who is an admin: a member of the admin group when one is
// configured (checked again at every sign-in, so a change in the provider takes effect then);
// without one, the first user there ever was (a homelab's one person signs in and can see
// everything) and nobody after, unless an admin key or `shortener user admin` says otherwise.

import type { MaybePromise } from "../util/maybe.ts";

/** Where an identity came from: an OpenID issuer URL, or one of the proxy sources. */
export type IdentitySource = string;
export const HEADER_SOURCE = "header";
export const TAILSCALE_SOURCE = "tailscale";

export type User = {
  id: number;
  source: IdentitySource;
  subject: string;
  name: string;
  email: string | null;
  admin: boolean;
  createdAt: number;
  lastSeenAt: number;
  disabledAt: number | null;
};

/** What a provider or a proxy says about a person. `groups`: null when it says nothing about groups. */
export type Identity = { source: IdentitySource; subject: string; name: string; email: string | null; groups: readonly string[] | null };

/** The admin rule at a sign-in: by group, or "first" (the first user there ever was). */
export type AdminRule = { group: string } | "first";

/** What a sign-in through a provider or a proxy is held to: who is an admin, and who may come in at all. */
export type SignInRules = { admin: AdminRule; allowedGroup: string | null };

/** The rules of an admin group (none: the first user) and an allowed group (none: everyone). */
export function signInRules(adminGroup: string | null, allowedGroup: string | null): SignInRules {
  return { admin: adminGroup === null ? "first" : { group: adminGroup }, allowedGroup };
}

export type UserRepository = {
  /**
   * The user of (source, subject), created when new, with name, email and last-seen brought up to
   * date. `admin`: true or false sets it; "first" makes a new user an admin only when no user exists,
   * and leaves a known user's flag as it is. Writes only when something changed or last-seen is
   * `touchAfterMs` old, so a header sign-in on every request costs a read.
   */
  upsert(identity: Omit<Identity, "groups">, admin: boolean | "first", now: number, touchAfterMs: number): MaybePromise<User>;
  byId(id: number): MaybePromise<User | null>;
  /** Every user, oldest first. */
  list(): MaybePromise<User[]>;
  /** Sets or clears disabled_at; disabling deletes the user's sessions in the same transaction. False: no such user. */
  setDisabled(id: number, at: number | null): MaybePromise<boolean>;
  setAdmin(id: number, admin: boolean): MaybePromise<boolean>;
};

/** How often a signed-in user's last-seen time is written (by the stored time, so by every instance alike). */
export const USER_TOUCH_INTERVAL_MS = 3_600_000;

/** Whether the identity's groups make it an admin, by the rule; "first" is left to the repository. */
export function adminOf(identity: Pick<Identity, "groups">, rule: AdminRule): boolean | "first" {
  if (rule === "first") return "first";
  return identity.groups?.includes(rule.group) ?? false;
}

/** Whether the identity may sign in at all: a member of the allowed group, when one is configured. */
export function allowedIn(identity: Pick<Identity, "groups">, allowedGroup: string | null): boolean {
  return allowedGroup === null || (identity.groups?.includes(allowedGroup) ?? false);
}

/**
 * Whether a provider's or a proxy's text is fit to be a name or an email: 1 to 200 characters, no
 * control characters (they would reach terminals, logs, and PostgreSQL refuses a NUL).
 */
export function cleanText(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= 200 && !/[\u0000-\u001f\u007f]/.test(value);
}

/** A user's name from an ID token's claims: preferred_username, else email, else sub (each only when fit to show). */
export function nameFromClaims(claims: Record<string, unknown>): string {
  for (const claim of ["preferred_username", "email", "sub"]) {
    const value = claims[claim];
    const name = typeof value === "string" ? value.trim() : null;
    if (cleanText(name)) return name;
  }
  return "user";
}

/** The groups of a claim: a list of names, one name, or a comma-separated string (some providers' form). */
export function groupsFromClaim(value: unknown): string[] | null {
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === "string");
  if (typeof value === "string") return value.split(",").map((g) => g.trim()).filter((g) => g !== "");
  return null;
}

/**
 * The users a command line names: "#3" is always the id; anything else is a name, and a bare
 * number that names nobody is an id. A number that is both a name and an id names both (ambiguous).
 */
export function findUsers(users: readonly User[], given: string): User[] {
  const id = /^#(\d+)$/.exec(given)?.[1];
  if (id !== undefined) return users.filter((u) => u.id === Number(id));
  const byName = users.filter((u) => u.name === given);
  const byNumber = /^\d+$/.test(given) ? users.filter((u) => u.id === Number(given) && u.name !== given) : [];
  return [...byName, ...byNumber];
}

/** The user JSON of GET /api/session and the user list. */
export type UserJson = { id: number; name: string; email: string | null; admin: boolean; source: string };
export function userJson(user: User): UserJson {
  return { id: user.id, name: user.name, email: user.email, admin: user.admin, source: sourceLabel(user.source) };
}

/** "oidc", "header" or "tailscale": where the user signs in (the issuer URL itself is the operator's business). */
export function sourceLabel(source: IdentitySource): string {
  return source === HEADER_SOURCE || source === TAILSCALE_SOURCE ? source : "oidc";
}
