// Statistics above the single link (docs/statistics.md: Tags and domains): the rows of one plan read
// for the whole set of links at once, every count summed over the set by the database (the engines'
// set read, src/db/shared/stats-set-sql.ts), and assembled as a link's are. So the figures are the
// rollups' own and exact: a tag's clicks are its links' clicks added up, its breakdowns list the
// values largest over the set, and its unique visitors are each link's added up (a person who
// clicked two of its links is two visitors, one on each).

import type { LinkSet } from "../links/list.ts";
import { assembleStats, planStats, type LinkStats, type StatsFilter, type StatsSource } from "./link-stats.ts";

/**
 * The statistics of the set summed, over one range for all: the range starts (without `from`) at
 * the oldest link's creation or DEFAULT_DAYS back, as a link's does at its own.
 */
export async function readSum(source: StatsSource, links: LinkSet, filter: StatsFilter, now: number): Promise<LinkStats> {
  const plan = planStats({ createdAt: Math.min(links.oldestCreatedAt ?? now, now) }, filter, now);
  return assembleStats(plan, await source(links.seqs, plan));
}
