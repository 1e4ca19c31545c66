// Adds a domain (docs/several-domains.md: Which domain is the default): without --base-url the first
// domain added becomes the default, so that every link made before is its link; with it, adding the
// base URL's host gives the default its own settings.

import { DEFAULT_SETTINGS, domainName, type Domain } from "../../domains/domain.ts";
import { checkedSettings } from "../../domains/rules.ts";
import type { StoredDomain } from "../../domains/repository.ts";
import type { Actor } from "../../auth/policy.ts";
import type { FieldProblem } from "../../errors.ts";
import { logAction } from "../audit.ts";
import { done, refused, refusedFields, type Outcome } from "../outcome.ts";
import { changed, domainsRefusal, type DomainsDeps } from "./access.ts";

/** `fields`: name and, if wanted, the settings (https, rootRedirect, notFoundRedirect, fallbackRedirect, robots, creators). */
export async function addDomain(actor: Actor, input: { fields: unknown }, deps: DomainsDeps): Promise<Outcome<StoredDomain>> {
  const refusal = domainsRefusal(actor);
  if (refusal !== null) return refusal;
  if (typeof input.fields !== "object" || input.fields === null || Array.isArray(input.fields)) return refused("bad_request", "send a JSON object: { name, … }");
  const fields = input.fields as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  const name = typeof fields.name === "string" ? domainName(fields.name) : null;
  if (name === null) problems.push({ code: "domain_invalid", field: "name", error: "name must be a host name such as s.example.org (no scheme, port or path)" });
  const checked = checkedSettings(fields);
  if (!checked.ok) problems.push(...checked.problems);
  if (problems.length > 0 || !checked.ok || name === null) return refusedFields(problems);
  const rows = await deps.domains.settings();
  const storedDefault = rows.find((d) => d.isDefault);
  const isDefault = deps.baseHost !== null ? name === deps.baseHost && storedDefault === undefined : storedDefault === undefined;
  if (deps.baseHost === name && storedDefault !== undefined && storedDefault.name !== name) {
    // Only until the service starts again with this --base-url: it renames the default row then.
    return refused("domain_taken", `the default domain is stored as ${storedDefault.name}; start the service with --base-url https://${name} and it takes that name`, "name");
  }
  const domain: Domain = { ...DEFAULT_SETTINGS, ...checked.settings, name, isDefault, createdAt: deps.now() };
  const added = await deps.domains.add(domain);
  if (added === "taken") return refused("domain_taken", `the domain ${name} is added already`, "name");
  await changed(deps, false);
  logAction(deps.log, actor!, "domain-add", added.name, added.isDefault ? "ok default" : "ok");
  return done(added);
}
