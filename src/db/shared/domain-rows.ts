// How both engines keep domains (src/domains/repository.ts): one column list, one mapping, and the
// SQL both run (PostgreSQL's adapter numbers the placeholders).

import { DEFAULT_DOMAIN, type Domain, type DomainCreators, type DomainSettings, type RobotsPolicy } from "../../domains/domain.ts";
import type { StoredDomain } from "../../domains/repository.ts";

/** A domain's stored key: '' for the default (its links' links.domain). */
const KEY = `CASE WHEN d.is_default = 1 THEN '${DEFAULT_DOMAIN}' ELSE d.name END`;

export const DOMAIN_SELECT = `SELECT d.name, d.is_default, d.https, d.root_redirect, d.not_found_redirect, d.fallback_redirect,
  d.robots, d.creators, d.created_at, (SELECT COUNT(*) FROM links WHERE links.domain = ${KEY}) AS links FROM domains AS d`;
export const LIST_SQL = `${DOMAIN_SELECT} ORDER BY d.is_default DESC, d.name`;
/** The domains without their links' count (no link row is read). */
export const SETTINGS_SQL = `SELECT d.name, d.is_default, d.https, d.root_redirect, d.not_found_redirect, d.fallback_redirect,
  d.robots, d.creators, d.created_at, 0 AS links FROM domains AS d ORDER BY d.is_default DESC, d.name`;
export const ONE_SQL = `${DOMAIN_SELECT} WHERE d.name = ?`;
export const INSERT_SQL = `INSERT INTO domains (name, is_default, https, root_redirect, not_found_redirect, fallback_redirect, robots, creators, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`;
export const DEFAULT_NAME_SQL = "SELECT name FROM domains WHERE is_default = 1";
export const RENAME_ROW_SQL = "UPDATE domains SET name = ? WHERE name = ?";
/** Two statements, the former default cleared first: a unique index is checked row by row, in one UPDATE too (domains_one_default). */
export const CLEAR_DEFAULT_SQL = "UPDATE domains SET is_default = 0 WHERE is_default = 1";
export const SET_DEFAULT_SQL = "UPDATE domains SET is_default = 1 WHERE name = ?";
export const REMOVE_SQL = "DELETE FROM domains WHERE name = ?";
export const COUNT_LINKS_SQL = "SELECT COUNT(*) AS n FROM links WHERE domain = ?";
/** Aliases `from` holds that `to` holds too, or has retired: a move would make two links of one (domain, alias). */
export const CLASH_SQL = `SELECT id FROM links WHERE domain = ? AND id IN (SELECT id FROM links WHERE domain = ? UNION SELECT id FROM retired_ids WHERE domain = ?) ORDER BY id LIMIT 20`;
export const MOVE_LINKS_SQL = "UPDATE links SET domain = ? WHERE domain = ?";
/**
 * Before `from`'s rows move to `to` (params: from, to, to, to, from): a retired alias of `from` that
 * `to` holds (live or retired) keeps `to`'s, and a retired alias of `to` that `from` holds live
 * (a domain removed earlier under the name a rename takes) goes: an alias is never both live and
 * retired on one domain.
 */
export const DROP_SHADOWED_RETIRED_SQL = `DELETE FROM retired_ids WHERE (domain = ? AND id IN (SELECT id FROM retired_ids WHERE domain = ? UNION SELECT id FROM links WHERE domain = ?))
  OR (domain = ? AND id IN (SELECT id FROM links WHERE domain = ?))`;
export const MOVE_RETIRED_SQL = "UPDATE retired_ids SET domain = ? WHERE domain = ?";
/**
 * Moves one stored domain's links and retired ids to another (params: to, from); three of them swap
 * two domains (making another the default) through SWAP_PLACE, a name no domain can have (domainName allows no parentheses): a swap
 * in one statement would meet the unique (domain, id) row by row where both hold an alias.
 */
export const MOVE_ALL_SQL = ["UPDATE links SET domain = ? WHERE domain = ?", "UPDATE retired_ids SET domain = ? WHERE domain = ?"];
export const SWAP_PLACE = "(swap)";

/** The settings columns a change sets, in a fixed order. */
export function settingColumns(settings: Partial<DomainSettings>): [string, string | number | null][] {
  const out: [string, string | number | null][] = [];
  if (settings.https !== undefined) out.push(["https", settings.https ? 1 : 0]);
  if (settings.rootRedirect !== undefined) out.push(["root_redirect", settings.rootRedirect]);
  if (settings.notFoundRedirect !== undefined) out.push(["not_found_redirect", settings.notFoundRedirect]);
  if (settings.fallbackRedirect !== undefined) out.push(["fallback_redirect", settings.fallbackRedirect]);
  if (settings.robots !== undefined) out.push(["robots", settings.robots]);
  if (settings.creators !== undefined) out.push(["creators", settings.creators === null ? null : JSON.stringify(settings.creators)]);
  return out;
}

/** The values of INSERT_SQL for a domain. */
export function insertValues(d: Domain): (string | number | null)[] {
  const creators = d.creators === null ? null : JSON.stringify(d.creators);
  return [d.name, d.isDefault ? 1 : 0, d.https ? 1 : 0, d.rootRedirect, d.notFoundRedirect, d.fallbackRedirect, d.robots, creators, d.createdAt];
}

export function toDomain(r: Record<string, unknown>): StoredDomain {
  return {
    name: r.name as string,
    isDefault: Number(r.is_default) === 1,
    https: Number(r.https) === 1,
    rootRedirect: (r.root_redirect as string | null) ?? null,
    notFoundRedirect: (r.not_found_redirect as string | null) ?? null,
    fallbackRedirect: (r.fallback_redirect as string | null) ?? null,
    robots: (r.robots as RobotsPolicy | null) ?? null,
    creators: r.creators == null ? null : (JSON.parse(r.creators as string) as DomainCreators),
    createdAt: Number(r.created_at),
    links: Number(r.links),
  };
}

/** The stored key of a domain row. */
export function keyOf(d: Pick<Domain, "name" | "isDefault">): string {
  return d.isDefault ? DEFAULT_DOMAIN : d.name;
}
