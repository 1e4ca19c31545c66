// Revoking a share link (docs/statistics.md: Sharing statistics): its row is deleted, so its token
// opens nothing from the next request on. For the link's owner or an admin.

import type { Principal } from "../../auth/policy.ts";
import { logAction } from "../audit.ts";
import { noSuchLink, visibleLink } from "../links/get.ts";
import { done, refused, type Outcome } from "../outcome.ts";
import type { ShareOpsDeps } from "./deps.ts";

/** `shareId`: as the path gave it; a share of another link is as unknown as none. */
export async function revokeShare(actor: Principal, input: { id: string; shareId: string }, deps: ShareOpsDeps): Promise<Outcome<{ id: number; revoked: true }>> {
  const link = await visibleLink(input.id, actor, deps);
  if (link === null) {
    logAction(deps.log, actor, "share-revoke", input.id, "not_found");
    return noSuchLink(input.id);
  }
  const shareId = /^[1-9][0-9]{0,15}$/.test(input.shareId) ? Number(input.shareId) : null;
  let removed: boolean;
  try {
    removed = shareId !== null && (await deps.shares.revoke(link.seq, shareId));
  } catch (err) {
    logAction(deps.log, actor, "share-revoke", input.id, "storage_unavailable");
    throw err;
  }
  logAction(deps.log, actor, "share-revoke", input.id, removed ? `ok share ${shareId}` : "not_found");
  return removed ? done({ id: shareId!, revoked: true }) : refused("not_found", `link ${input.id.slice(0, 40)} has no share link ${input.shareId.slice(0, 20)}`, "id");
}
