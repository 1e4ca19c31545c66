// Deleting a link (docs/managing-links.md: Managing links): only its owner's or an admin's; its
// visits and rollups go with it and its id is retired for good.

import type { Principal } from "../../auth/policy.ts";
import { keyParts } from "../../domains/link-key.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome } from "../outcome.ts";
import type { LinkOpsDeps } from "./deps.ts";
import { noSuchLink, visibleLink, type LinkInput } from "./get.ts";

/** The deleted link's id (its alias; `input.id` is its key), or not_found; a refused write is logged and thrown, as the store throws it. */
export async function removeLink(actor: Principal, input: LinkInput, deps: Pick<LinkOpsDeps, "links" | "log" | "now">): Promise<Outcome<{ id: string; deleted: true }>> {
  const { id } = input;
  if ((await visibleLink(id, actor, deps)) === null) {
    logAction(deps.log, actor, "delete", id, "not_found");
    return noSuchLink(id);
  }
  let removed: boolean;
  try {
    removed = await deps.links.remove(id, deps.now());
  } catch (err) {
    logAction(deps.log, actor, "delete", id, "storage_unavailable");
    throw err;
  }
  logAction(deps.log, actor, "delete", id, removed ? "ok" : "not_found");
  return removed ? done({ id: keyParts(id).alias, deleted: true }) : noSuchLink(id);
}
