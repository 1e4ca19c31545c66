// The domain a request names for a link (docs/api.md: Links on several domains): by its name, the
// default when none is given; an unknown name is the client's mistake, said as such; a restricted
// domain takes only those it names (src/domains/rules.ts).

import type { Actor } from "../../auth/policy.ts";
import { mayCreateOn } from "../../domains/rules.ts";
import type { DomainDirectory, DomainEntry } from "../../domains/directory.ts";
import { keyParts, linkKey } from "../../domains/link-key.ts";
import { done, refused, type Outcome } from "../outcome.ts";

/** The domain of a name as the client gave it (absent, null or "": the default). */
export function namedDomain(name: unknown, directory: DomainDirectory): Outcome<DomainEntry> {
  if (name !== undefined && name !== null && typeof name !== "string") return refused("domain_unknown", "domain must be a domain's name", "domain");
  const entry = directory.byName(name === undefined || name === null ? null : name.trim());
  return entry === null ? refused("domain_unknown", `no domain "${String(name).slice(0, 60)}" on this service`, "domain") : done(entry);
}

/** The domain a new link goes on: named, and open to this creator. */
export function creationDomain(name: unknown, actor: Actor, directory: DomainDirectory): Outcome<DomainEntry> {
  const named = namedDomain(name, directory);
  if (!named.ok || mayCreateOn(named.value, actor)) return named;
  return refused("domain_forbidden", `links on ${named.value.name ?? "this domain"} are made only by those an admin allowed`, "domain");
}

/** The key of a link named by alias and domain name, or why the domain is unknown. */
export function keyOf(alias: string, domainName: unknown, directory: DomainDirectory): Outcome<string> {
  const named = namedDomain(domainName, directory);
  return named.ok ? done(linkKey(named.value.key, alias)) : named;
}

/**
 * The key a client's link reference names: `alias` (the default domain) or `alias@domain` by the
 * domain's name (an export's chosen ids); null for a domain this service does not have.
 */
export function keyOfReference(reference: string, directory: DomainDirectory): string | null {
  const { domain, alias } = keyParts(reference);
  const entry = directory.byName(domain);
  return entry === null ? null : linkKey(entry.key, alias);
}
