// The rules of managing domains (docs/several-domains.md: Managing domains, Who may create on a
// domain): who may make links on a domain, and a domain's settings as a client gives them, each
// checked as the instance's own flags are (src/config/values.ts).

import type { Actor } from "../auth/policy.ts";
import type { FieldProblem } from "../errors.ts";
import { ConfigError, redirectUrl } from "../config/values.ts";
import { ROBOTS_POLICIES, type Domain, type DomainCreators, type DomainSettings, type RobotsPolicy } from "./domain.ts";

/**
 * Whether `who` may make links on a domain (asked after mayCreateLinks): admins always; on an open
 * domain (creators null) everyone who may create at all, a public create too; on a restricted one
 * only the users and keys it lists (a user's key counts as its user's).
 */
export function mayCreateOn(domain: Pick<Domain, "creators">, who: Actor): boolean {
  if (domain.creators === null) return true;
  if (who === null) return false;
  if (who.scope === "admin") return true;
  const { users, keys } = domain.creators;
  return (who.user !== null && users.includes(who.user.id)) || (who.keyId !== null && keys.includes(who.keyId));
}

/** The settings a client may give a domain, as the API names them. */
export const SETTING_FIELDS = ["https", "rootRedirect", "notFoundRedirect", "fallbackRedirect", "robots", "creators"] as const;

/** `fields`' settings (those present), checked; every problem at once. */
export function checkedSettings(fields: Record<string, unknown>): { ok: true; settings: Partial<DomainSettings> } | { ok: false; problems: FieldProblem[] } {
  const settings: Partial<DomainSettings> = {};
  const problems: FieldProblem[] = [];
  const bad = (field: FieldProblem["field"], error: string) => problems.push({ code: "bad_request", field, error });
  if (fields.https !== undefined) {
    if (typeof fields.https === "boolean") settings.https = fields.https;
    else bad("https", "https must be true or false");
  }
  for (const field of ["rootRedirect", "notFoundRedirect", "fallbackRedirect"] as const) {
    const value = fields[field];
    if (value === undefined) continue;
    const checked = redirectSetting(value, field);
    if (typeof checked === "object" && checked !== null) bad(field, checked.error);
    else settings[field] = checked;
  }
  if (fields.robots !== undefined) {
    if (fields.robots === null || (ROBOTS_POLICIES as readonly unknown[]).includes(fields.robots)) settings.robots = fields.robots as RobotsPolicy | null;
    else bad("robots", `robots must be one of ${ROBOTS_POLICIES.join(", ")}, or null for the instance's (links)`);
  }
  if (fields.creators !== undefined) {
    const creators = creatorsSetting(fields.creators);
    if (creators === undefined) bad("creators", "creators must be null (open to every creator) or { users: [user ids], keys: [key ids] }");
    else settings.creators = creators;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, settings };
}

/** A redirect setting: an absolute http(s) URL as --root-redirect takes it, or null/"" for the instance's. */
function redirectSetting(value: unknown, field: string): string | null | { error: string } {
  if (value === null || value === "") return null;
  if (typeof value !== "string") return { error: `${field} must be an http(s) URL, or null` };
  try {
    return redirectUrl(value, field);
  } catch (err) {
    if (err instanceof ConfigError) return { error: err.message };
    throw err;
  }
}

const ID = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) > 0;

/** null, or users and keys as lists of ids (each kept once, in order); undefined when malformed. */
function creatorsSetting(value: unknown): DomainCreators | null | undefined {
  if (value === null) return null;
  if (typeof value !== "object" || Array.isArray(value)) return undefined;
  const { users = [], keys = [], ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || !Array.isArray(users) || !Array.isArray(keys) || !users.every(ID) || !keys.every(ID)) return undefined;
  return { users: [...new Set(users)], keys: [...new Set(keys)] };
}

/** Creators with one more user or key: a domain open to all becomes restricted to it (and to admins). */
export function withCreator(creators: DomainCreators | null, who: { user: number } | { key: number }): DomainCreators {
  const users = creators?.users ?? [];
  const keys = creators?.keys ?? [];
  if ("user" in who) return { users: users.includes(who.user) ? users : [...users, who.user], keys };
  return { users, keys: keys.includes(who.key) ? keys : [...keys, who.key] };
}

/** --base-url's host as domains are named (lower-case, no port or trailing dot), or null. */
export function baseHostOf(config: { baseUrl: string | null }): string | null {
  return config.baseUrl === null ? null : new URL(config.baseUrl).hostname.replace(/\.$/, "").toLowerCase();
}
