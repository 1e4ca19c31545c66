// A link's statistics through a share link (docs/statistics.md: Sharing statistics): the token is
// the only credential, whatever --stats-access says. The reader is nobody known, so a
// password-protected link's destinations are hidden as from any stranger (src/auth/policy.ts
// maySeeDestinations; src/stats/hidden-destinations.ts). An unknown, revoked or expired token, and
// a deleted link, are all "not_found": the surface answers them as an unknown link.

import { maySeeDestinations } from "../../auth/policy.ts";
import type { Link } from "../../links/link.ts";
import type { LinkStore } from "../../links/store.ts";
import type { StatsFilter, StatsReader } from "../../stats/link-stats.ts";
import type { ShareStore } from "../../stats/shares.ts";
import { statsReading, type StatsReading } from "../stats/read.ts";

export type SharedStatsDeps = { links: LinkStore; shares: ShareStore; stats: StatsReader; now: () => number };

/** The link a token opens now, with whether its destinations show; "not_found" otherwise. */
export async function admitSharedReader(token: string, deps: Omit<SharedStatsDeps, "stats">): Promise<{ link: Link; destinations: boolean } | "not_found"> {
  const now = deps.now();
  const found = await deps.shares.open(token, now);
  const link = found === null ? null : await deps.links.get(found.linkKey);
  // The share belongs to the link by seq: an alias deleted and made again is another link.
  if (found === null || link === null || link.seq !== found.share.linkSeq) return "not_found";
  // Never awaited, and SQLite's gives up at once when busy: the answer does not wait on "last used" (a write a minute per share at most).
  deps.shares.touch(found.share.id, now);
  return { link, destinations: maySeeDestinations(null, link) };
}

export async function readSharedStats(token: string, filter: StatsFilter, deps: SharedStatsDeps): Promise<StatsReading | "not_found"> {
  const admitted = await admitSharedReader(token, deps);
  return admitted === "not_found" ? admitted : statsReading(admitted.link, admitted.destinations, filter, deps);
}
