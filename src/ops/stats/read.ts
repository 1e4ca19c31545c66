// Reading a link's statistics (docs/architecture.md: Operations): who may, and whether its destinations are
// shown, decided by the policy (src/auth/policy.ts: statsAskWho, statsSight) for the API, the stats
// page and the live view alike. The surface only finds out who is asking, and only when the policy
// says it matters: a public link's statistics cost no authentication.

import { statsAskWho, statsSight, type Actor, type StatsSight } from "../../auth/policy.ts";
import type { Config } from "../../config.ts";
import { linkKey, looksLikeKey } from "../../domains/link-key.ts";
import { activityNow, type Link, type LinkActivity } from "../../links/link.ts";
import type { LinkStore } from "../../links/store.ts";
import { statsWithoutDestinations, variantLabels } from "../../stats/hidden-destinations.ts";
import type { LinkStats, StatsFilter, StatsReader } from "../../stats/link-stats.ts";

export type StatsOpsDeps = { config: Pick<Config, "statsAccess">; links: LinkStore; stats: StatsReader; now: () => number };

/**
 * Who is asking, as the surface found out: the actor (null: nobody known), or "refused": the
 * credentials came but the surface refused them (a key that is no key is refused even for public
 * statistics: it would be asking as no one), and answers that in its own words.
 */
export type Asker = Actor | "refused";

/**
 * The reader admitted, with the link and what they may see of it; or why not: "not_found" (an
 * unknown link and, under --stats-access key, another's look the same), "auth_required" (nobody
 * known, under --stats-access key), "refused" (the surface refused the credentials).
 */
export type StatsAdmission = ({ link: Link } & StatsSight) | "not_found" | "auth_required" | "refused";

/**
 * Whether whoever `askWho` finds may read the statistics of the link `key` (its alias on the default
 * domain, `alias@domain` on another: src/domains/link-key.ts); asks only when it matters.
 */
export async function admitStatsReader(key: string, askWho: () => Promise<Asker>, deps: Pick<StatsOpsDeps, "config" | "links">): Promise<StatsAdmission> {
  const link = looksLikeKey(key) ? await deps.links.get(key) : null;
  const access = deps.config.statsAccess;
  const asker = statsAskWho(access, link) ? await askWho() : null;
  if (asker === "refused") return "refused";
  const sight = statsSight(asker, link, access);
  return typeof sight === "string" ? sight : { link: link!, ...sight };
}

/**
 * A link's statistics as this reader may see them: `destinations` false names a password-protected
 * link's variants by label and leaves out where it leads (docs/security.md: Security, "A protected
 * link keeps its secrets"); `activity`: whether it redirects now, public like its counts.
 */
export type StatsReading = { link: Link; destinations: boolean; activity: LinkActivity; stats: LinkStats };

export async function readLinkStats(
  input: { key: string; filter: StatsFilter },
  askWho: () => Promise<Asker>,
  deps: StatsOpsDeps,
): Promise<StatsReading | Exclude<StatsAdmission, object>> {
  const admitted = await admitStatsReader(input.key, askWho, deps);
  if (typeof admitted === "string") return admitted;
  return statsReading(admitted.link, admitted.destinations, input.filter, deps);
}

/** The statistics of an admitted reader (the API's, the stats page's, a share link's): as they may see them. */
export async function statsReading(link: Link, destinations: boolean, filter: StatsFilter, deps: Pick<StatsOpsDeps, "links" | "stats" | "now">): Promise<StatsReading> {
  const now = deps.now();
  const stats = await deps.stats.read(link, filter, now);
  return {
    link,
    destinations,
    activity: activityNow(link, deps.links.clicksAnswered(linkKey(link.domain, link.id)), now),
    stats: destinations ? stats : statsWithoutDestinations(stats, variantLabels(link)),
  };
}
