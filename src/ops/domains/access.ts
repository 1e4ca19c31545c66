// What the domain operations share (docs/several-domains.md: Managing domains): admins only for every
// change and for the full list, since a domain's settings decide what every visitor of its links
// meets; the ports they need; and what is done after each change.

import type { DomainRepository, StoredDomain } from "../../domains/repository.ts";
import type { DomainDirectory } from "../../domains/directory.ts";
import { domainName } from "../../domains/domain.ts";
import type { LinkStore } from "../../links/store.ts";
import { EVERY_LINK } from "../../links/store.ts";
import type { Actor } from "../../auth/policy.ts";
import type { Logger } from "../../log.ts";
import { adminRefusal } from "../accounts.ts";
import { refused, type Problem } from "../outcome.ts";

export type DomainsDeps = {
  domains: DomainRepository;
  /** read again after every change made here (another process's within DOMAINS_FRESH_MS) */
  directory: Pick<DomainDirectory, "reload" | "all">;
  /** the link cache: forgets every link when links changed domain (a rename, a move, a new default) */
  links: Pick<LinkStore, "forget">;
  /** --base-url's host (lower-case), or null: with it the default domain is that host (docs/several-domains.md: Which domain is the default) */
  baseHost: string | null;
  log: Logger;
  now: () => number;
};

/** The refusal of anyone but an admin (asked by a surface before it reads a request's body, and by every operation). */
export function domainsRefusal(actor: Actor): { ok: false; problem: Problem } | null {
  return adminRefusal(actor, "managing domains needs an admin: a domain's settings decide what every visitor of its links meets");
}

export function noDomain(name: string): { ok: false; problem: Problem } {
  return refused("domain_not_found", `no domain ${name} (see GET /api/domains or shortener domain list)`);
}

/** The stored domain a client's name names (case and a trailing dot aside), or null. */
export async function storedDomain(deps: Pick<DomainsDeps, "domains">, given: string): Promise<StoredDomain | null> {
  const name = domainName(given) ?? given.toLowerCase();
  return (await deps.domains.list()).find((d) => d.name === name) ?? null;
}

/** The refusal of a move that would make two links of one (domain, alias), naming the aliases. */
export function clashRefusal(aliases: readonly string[], what: string): { ok: false; problem: Problem } {
  const more = aliases.length >= 20 ? " (the first 20)" : "";
  return refused("domain_clash", `${what} would put two links under one alias; these aliases are on both${more}: ${aliases.join(", ")}. Rename or delete one of each first`);
}

/**
 * After a change: the directory read again, and when links changed domain every cached link
 * forgotten (the other instances on PostgreSQL hear it from the change's own transaction:
 * src/db/postgres/domains.ts).
 */
export async function changed(deps: Pick<DomainsDeps, "directory" | "links">, linksMoved: boolean): Promise<void> {
  await deps.directory.reload();
  if (linksMoved) deps.links.forget(EVERY_LINK);
}
