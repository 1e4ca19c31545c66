// Creating one link (docs/api.md: Create a short link): who may, the flood limit for anonymous
// creates, the link's rules (src/links/create.ts), the audit line, and the wish for a missing title.

import { creatorOf, mayCreateLinks, type Actor } from "../../auth/policy.ts";
import { createLink, type CreateFields } from "../../links/create.ts";
import type { CreateNames } from "../../links/field-names.ts";
import type { Link } from "../../links/link.ts";
import { linkKey } from "../../domains/link-key.ts";
import { logAction } from "../audit.ts";
import { done, refused, refusedFields, type Outcome } from "../outcome.ts";
import { destinationRules, type LinkOpsDeps } from "./deps.ts";
import { creationDomain } from "./domain.ts";

export type CreateInput = {
  fields: CreateFields;
  /** the name each field went by (a JSON create may use camelCase); the spec's names when absent */
  names?: CreateNames;
  /** the hosts this service is reached under: a link to them would loop */
  ownHosts: readonly string[];
};

/**
 * Whether this actor may create a link now: someone known always, an anonymous client when
 * --create-access is public and within --create-rate-limit (a token is taken). A surface asks
 * before it reads the body, so that a refused client's body is never read; then it calls create.
 */
export function admitCreate(actor: Actor, client: string, deps: Pick<LinkOpsDeps, "config" | "limiter" | "now">): Outcome<null> {
  if (!mayCreateLinks(actor, deps.config.createAccess)) return refused("auth_required", "this needs an API key: send Authorization: Bearer <key>, or sign in");
  // A key holder is the owner or someone the owner trusts: the flood limit is for anonymous creates.
  if (actor !== null) return done(null);
  const verdict = deps.limiter.take(client, deps.now());
  if (verdict.allowed) return done(null);
  const problem = refused("rate_limited", `too many links created from your address; try again in ${verdict.retryAfterSeconds} s`);
  return { ok: false, problem: { ...problem.problem, retryAfterSeconds: verdict.retryAfterSeconds } };
}

/**
 * The new link, or every field problem (400), the domain's (400 unknown, 403 not open to this
 * creator) or the alias's (409, within its domain); a refused write is thrown, as the store throws it.
 */
export async function create(actor: Actor, input: CreateInput, deps: Pick<LinkOpsDeps, "config" | "links" | "directory" | "blocklist" | "log" | "now" | "titles">): Promise<Outcome<Link>> {
  if (!mayCreateLinks(actor, deps.config.createAccess)) return refused("auth_required", "this needs an API key: send Authorization: Bearer <key>, or sign in");
  const domain = creationDomain(input.fields[input.names?.domain ?? "domain"], actor, deps.directory);
  if (!domain.ok) return domain;
  const rules = destinationRules(input.ownHosts, deps);
  const result = await createLink(deps.links, { ...rules, fields: input.fields, names: input.names, creator: creatorOf(actor), domain: domain.value.key, now: deps.now() });
  if (!result.ok) {
    if (result.status === 400) return refusedFields(result.problems);
    const [problem] = result.problems;
    return refused(problem.code, problem.error, problem.field);
  }
  if (actor !== null) logAction(deps.log, actor, "create", linkKey(result.link.domain, result.link.id), "ok");
  // Fetched after this answer, never before it (docs/link-titles.md: How a title is fetched).
  // A link into an app (docs/sharing.md: Links into apps) has no page to take a title from.
  if (result.link.title === null && /^https?:/i.test(result.link.url)) deps.titles?.wanted(linkKey(result.link.domain, result.link.id), result.link.url);
  return done(result.link);
}
