// Reading one link (docs/managing-links.md: Managing links): only its owner's or an admin's; any
// other link, an unknown one and a malformed id look the same, so that a 404 never confirms a link exists.

import { maySee, type Principal } from "../../auth/policy.ts";
import { looksLikeId } from "../../links/alias.ts";
import type { Link } from "../../links/link.ts";
import { logAction } from "../audit.ts";
import { done, refused, type Outcome, type Problem } from "../outcome.ts";
import type { LinkOpsDeps } from "./deps.ts";

export type LinkInput = { id: string };

/** The link the principal may see, or null (unknown, malformed, or another's). */
export async function visibleLink(id: string, principal: Principal, deps: Pick<LinkOpsDeps, "links">): Promise<Link | null> {
  const link = looksLikeId(id) ? await deps.links.get(id) : null;
  return link !== null && maySee(principal, link) ? link : null;
}

/** The problem of a link that is unknown, deleted, or another's (never told apart). */
export function noSuchLink(id: string): { ok: false; problem: Problem } {
  return refused("not_found", `no link with id "${id.slice(0, 30)}"`, "id");
}

export async function getLink(actor: Principal, input: LinkInput, deps: Pick<LinkOpsDeps, "links" | "log">): Promise<Outcome<Link>> {
  const link = await visibleLink(input.id, actor, deps);
  logAction(deps.log, actor, "get", input.id, link ? "ok" : "not_found");
  return link ? done(link) : noSuchLink(input.id);
}
