// Removes a domain (docs/several-domains.md: Renaming and removing). A domain with links is kept
// unless they move to another domain first (moveLinksTo): a removal never deletes links, and a
// link whose domain is gone could not be clicked anywhere.

import { keyOf } from "../../db/shared/domain-rows.ts";
import type { Actor } from "../../auth/policy.ts";
import { logAction } from "../audit.ts";
import { done, refused, type Outcome, type Problem } from "../outcome.ts";
import { changed, clashRefusal, domainsRefusal, noDomain, storedDomain, type DomainsDeps } from "./access.ts";

export async function removeDomain(actor: Actor, input: { name: string; moveLinksTo: string | null }, deps: DomainsDeps): Promise<Outcome<{ name: string; deleted: true; linksMoved: number }>> {
  const refusal = domainsRefusal(actor);
  if (refusal !== null) return refusal;
  const found = await storedDomain(deps, input.name);
  if (found === null) return noDomain(input.name);
  const others = (await deps.domains.list()).filter((d) => d.name !== found.name);
  if (found.isDefault && others.length > 0) {
    return refused("bad_request", `${found.name} is the default domain: make another domain the default first (PATCH isDefault, or shortener domain default NAME), then remove it`, "name");
  }
  let moved = 0;
  if (input.moveLinksTo !== null && input.moveLinksTo !== "") {
    const to = await storedDomain(deps, input.moveLinksTo);
    if (to === null) return refused("domain_unknown", `no domain ${input.moveLinksTo} to move the links to`, "moveLinksTo");
    if (to.name === found.name) return refused("bad_request", "moveLinksTo names the domain being removed", "moveLinksTo");
    // Nothing to move: nothing for the link caches to forget either.
    const result = found.links === 0 ? 0 : await deps.domains.moveLinks(keyOf(found), keyOf(to));
    if (typeof result === "object") return clashRefusal(result.clash, `moving the links of ${found.name} to ${to.name}`);
    moved = result;
    if (moved > 0) await changed(deps, true);
  }
  const removed = await deps.domains.remove(found.name);
  if (removed === "missing") return noDomain(found.name);
  if (removed === "has_links") return hasLinks(found.name, found.links);
  await changed(deps, false);
  logAction(deps.log, actor!, "domain-remove", found.name, moved > 0 ? `ok moved ${moved}` : "ok");
  return done({ name: found.name, deleted: true, linksMoved: moved });
}

function hasLinks(name: string, count: number): { ok: false; problem: Problem } {
  return refused(
    "domain_has_links",
    `${name} still has ${count === 1 ? "1 link" : `${count} links`}: move them to another domain (DELETE /api/domains/${name}?moveLinksTo=OTHER, or shortener domain remove ${name} --move-links-to OTHER), or delete them first (list them with GET /api/links?domain=${name})`,
  );
}
