// A link's share links (docs/statistics.md: Sharing statistics): for its owner or an admin; any
// other link, an unknown one and a malformed id look the same.

import type { Principal } from "../../auth/policy.ts";
import type { Share } from "../../stats/shares.ts";
import { logAction } from "../audit.ts";
import { noSuchLink, visibleLink } from "../links/get.ts";
import { done, type Outcome } from "../outcome.ts";
import type { ShareOpsDeps } from "./deps.ts";

export async function listShares(actor: Principal, input: { id: string }, deps: ShareOpsDeps): Promise<Outcome<Share[]>> {
  const link = await visibleLink(input.id, actor, deps);
  logAction(deps.log, actor, "share-list", input.id, link ? "ok" : "not_found");
  return link ? done(await deps.shares.list(link.seq)) : noSuchLink(input.id);
}
