// Who may make links on a domain (docs/several-domains.md: Who may create on a domain): open to
// every creator by default; an admin restricts it to some users and keys (admins always may), or
// opens it again.

import { withCreator } from "../../domains/rules.ts";
import type { StoredDomain } from "../../domains/repository.ts";
import type { Actor } from "../../auth/policy.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome } from "../outcome.ts";
import { changed, domainsRefusal, noDomain, storedDomain, type DomainsDeps } from "./access.ts";

/** Lets one more user or key make links on the domain (an open domain becomes restricted to it). */
export async function allowOnDomain(actor: Actor, input: { name: string; who: { user: number } | { key: number } }, deps: DomainsDeps): Promise<Outcome<StoredDomain>> {
  const refusal = domainsRefusal(actor);
  if (refusal !== null) return refusal;
  const found = await storedDomain(deps, input.name);
  if (found === null) return noDomain(input.name);
  return setCreators(actor!, found.name, withCreator(found.creators, input.who), deps);
}

/** Opens the domain to every creator again. */
export async function openDomain(actor: Actor, input: { name: string }, deps: DomainsDeps): Promise<Outcome<StoredDomain>> {
  const refusal = domainsRefusal(actor);
  if (refusal !== null) return refusal;
  const found = await storedDomain(deps, input.name);
  if (found === null) return noDomain(input.name);
  return setCreators(actor!, found.name, null, deps);
}

async function setCreators(actor: NonNullable<Actor>, name: string, creators: StoredDomain["creators"], deps: DomainsDeps): Promise<Outcome<StoredDomain>> {
  const after = await deps.domains.change(name, { creators });
  if (after === null) return noDomain(name);
  await changed(deps, false);
  logAction(deps.log, actor, "domain-update", name, "ok creators");
  return done(after);
}
