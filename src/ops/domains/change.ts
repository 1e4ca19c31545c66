// Changes a domain: its settings, its name (its links' short URLs move with it), or makes it the
// default (docs/several-domains.md: Renaming and removing). Everything is checked before anything
// is changed; a rename and a new default each move links in one transaction of their own.

import { domainName } from "../../domains/domain.ts";
import { checkedSettings, SETTING_FIELDS } from "../../domains/rules.ts";
import type { StoredDomain } from "../../domains/repository.ts";
import type { Actor } from "../../auth/policy.ts";
import type { FieldProblem } from "../../errors.ts";
import { logAction } from "../audit.ts";
import { done, refused, refusedFields, type Outcome } from "../outcome.ts";
import { changed, clashRefusal, domainsRefusal, noDomain, storedDomain, type DomainsDeps } from "./access.ts";

const FIELDS = new Set<string>([...SETTING_FIELDS, "name", "isDefault"]);

type Change = { to: string | null; makeDefault: boolean; settings: ReturnType<typeof checkedSettings> & { ok: true } };

/** `fields` as the API names them: the settings, `name` to rename, `isDefault: true` to make it the default. */
export async function changeDomain(actor: Actor, input: { name: string; fields: unknown }, deps: DomainsDeps): Promise<Outcome<StoredDomain>> {
  const refusal = domainsRefusal(actor);
  if (refusal !== null) return refusal;
  if (typeof input.fields !== "object" || input.fields === null || Array.isArray(input.fields)) return refused("bad_request", "send a JSON object of the settings to change");
  const found = await storedDomain(deps, input.name);
  if (found === null) return noDomain(input.name);
  const change = checkedChange(input.fields as Record<string, unknown>, found, deps.baseHost);
  if (!change.ok) return change;
  const { to, makeDefault, settings } = change.value;
  let name = found.name;
  if (to !== null && to !== name) {
    const renamed = await deps.domains.rename(name, to);
    if (renamed === "missing") return noDomain(name);
    if (renamed === "taken") return refused("domain_taken", `the domain ${to} is added already`, "name");
    logAction(deps.log, actor!, "domain-rename", name, `ok ${to}`);
    name = to;
  }
  if (makeDefault && !found.isDefault) {
    const made = await deps.domains.makeDefault(name);
    if (made === "missing") return noDomain(name);
    if (typeof made === "object" && "clash" in made) {
      await changed(deps, name !== found.name);
      return clashRefusal(made.clash, `making ${name} the default (its links and the default's are both addressed without a domain)`);
    }
    logAction(deps.log, actor!, "domain-default", name, "ok");
  }
  const after = await deps.domains.change(name, settings.settings);
  await changed(deps, name !== found.name || (makeDefault && !found.isDefault));
  if (after === null) return noDomain(name);
  if (Object.keys(settings.settings).length > 0) logAction(deps.log, actor!, "domain-update", name, `ok ${Object.keys(settings.settings).join(",")}`);
  return done(after);
}

/** The change asked for, every field checked (all problems at once), before anything is done. */
function checkedChange(fields: Record<string, unknown>, found: StoredDomain, baseHost: string | null): Outcome<Change> {
  const problems: FieldProblem[] = [];
  const unknown = Object.keys(fields).filter((k) => !FIELDS.has(k));
  if (unknown.length > 0) return refused("bad_request", `unknown field ${unknown[0]}: a domain has ${[...FIELDS].join(", ")}`);
  let to: string | null = null;
  if (fields.name !== undefined) {
    to = typeof fields.name === "string" ? domainName(fields.name) : null;
    if (to === null) problems.push({ code: "domain_invalid", field: "name", error: "name must be a host name such as s.example.org (no scheme, port or path)" });
    else if (to !== found.name && found.isDefault && baseHost !== null) {
      problems.push({ code: "bad_request", field: "name", error: `the default domain's name is --base-url's host (${baseHost}): change --base-url to rename it` });
    } else if (to !== found.name && to === baseHost) {
      problems.push({ code: "domain_taken", field: "name", error: `${baseHost} is --base-url's host: the default domain's name` });
    }
  }
  if (fields.isDefault !== undefined && fields.isDefault !== true) {
    problems.push({ code: "bad_request", field: "isDefault", error: "isDefault can only be set to true: make another domain the default instead" });
  }
  const makeDefault = fields.isDefault === true;
  if (makeDefault && !found.isDefault && baseHost !== null) {
    problems.push({ code: "bad_request", field: "isDefault", error: `the default domain is --base-url's host (${baseHost}): change --base-url to make another domain the default` });
  }
  const settings = checkedSettings(fields);
  if (!settings.ok) problems.push(...settings.problems);
  if (problems.length > 0 || !settings.ok) return refusedFields(problems);
  return done({ to, makeDefault, settings });
}
