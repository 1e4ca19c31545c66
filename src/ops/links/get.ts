// Reading one link (docs/managing-links.md: Managing links): only its owner's or an admin's; any
// other link, an unknown one and a malformed id look the same, so that a 404 never confirms a link exists.

import { maySee, type Principal } from "../../auth/policy.ts";
import { keyParts, looksLikeKey } from "../../domains/link-key.ts";
import type { Link } from "../../links/link.ts";
import { logAction } from "../audit.ts";
import { done, refused, type Outcome, type Problem } from "../outcome.ts";
import type { LinkOpsDeps } from "./deps.ts";

/** `id`: the link's key (src/domains/link-key.ts): its alias on the default domain, `alias@domain` on another. */
export type LinkInput = { id: string };

/** The link the principal may see, or null (unknown, malformed, or another's); `id` is its key. */
export async function visibleLink(id: string, principal: Principal, deps: Pick<LinkOpsDeps, "links">): Promise<Link | null> {
  const link = looksLikeKey(id) ? await deps.links.get(id) : null;
  return link !== null && maySee(principal, link) ? link : null;
}

/** The problem of a link that is unknown, deleted, or another's (never told apart). */
export function noSuchLink(key: string): { ok: false; problem: Problem } {
  const { alias, domain } = keyParts(key);
  return refused("not_found", `no link with id "${alias.slice(0, 30)}"${domain === "" ? "" : ` on ${domain.slice(0, 60)}`}`, "id");
}

export async function getLink(actor: Principal, input: LinkInput, deps: Pick<LinkOpsDeps, "links" | "log">): Promise<Outcome<Link>> {
  const link = await visibleLink(input.id, actor, deps);
  logAction(deps.log, actor, "get", input.id, link ? "ok" : "not_found");
  return link ? done(link) : noSuchLink(input.id);
}
