// The live view's counter of every link one may see (docs/webhooks.md: Live view): whose clicks
// count for a viewer is the policy's (src/auth/policy.ts: seesEveryLink, maySee), asked here so that
// the stream only counts.

import { maySee, seesEveryLink, type Principal } from "../../auth/policy.ts";
import type { Link } from "../../links/link.ts";
import type { LinkStore } from "../../links/store.ts";
import { Lru } from "../../util/lru.ts";

/**
 * The owners of links clicked, for the counters of viewers who are not admins: one cache for every
 * stream (read once a minute at most per link), so that more streams do not mean more reads.
 */
const owners = new Lru<string, { link: Pick<Link, "ownerKeyId" | "ownerUserId"> | null; at: number }>(10_000);
const OWNER_FOR_MS = 60_000;

/** Whether a link's clicks count for this viewer: undefined (every link) for an admin, else their own. */
export function liveCounted(principal: Principal, deps: { links: Pick<LinkStore, "get">; now: () => number }): ((linkId: string) => boolean | Promise<boolean>) | undefined {
  if (seesEveryLink(principal)) return undefined;
  return (linkId) => {
    const known = owners.get(linkId);
    if (known !== undefined && deps.now() - known.at < OWNER_FOR_MS) return known.link !== null && maySee(principal, known.link);
    return Promise.resolve(deps.links.get(linkId)).then((link) => {
      owners.set(linkId, { link: link === null ? null : { ownerKeyId: link.ownerKeyId, ownerUserId: link.ownerUserId }, at: deps.now() });
      return link !== null && maySee(principal, link);
    });
  };
}
