// Statistics above the single link (docs/statistics.md: Tags and domains, Comparing): a tag's and a
// domain's figures summed over the links the principal may see there, and two to four links or
// tags side by side. Only a key or a session reads them, whatever --stats-access says: a tag and a
// domain are an owner's view of their own links, and a public reader's view is the one link.

import { maySee, ownerFilter, type Principal } from "../../auth/policy.ts";
import type { DomainDirectory } from "../../domains/directory.ts";
import { linkKey } from "../../domains/link-key.ts";
import type { LinkLister, LinkSet } from "../../links/list.ts";
import type { LinkStore } from "../../links/store.ts";
import { DEFAULT_DAYS, type LinkStats, type StatsFilter, type StatsReader } from "../../stats/link-stats.ts";
import { addDays, dayOf, daysBetween } from "../../util/day.ts";
import type { PreviousPeriod } from "../../api/types.ts";
import { done, refused, type Outcome } from "../outcome.ts";

export type AggregateDeps = {
  lister: Pick<LinkLister, "members">;
  links: Pick<LinkStore, "get">;
  stats: Pick<StatsReader, "read" | "readSum">;
  directory: Pick<DomainDirectory, "byName">;
  now: () => number;
};

/** The most links or tags one comparison holds, and the fewest. */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

/**
 * `tag` and/or a domain: `domain` by its name, or `domainKey` as stored (the surface found it, e.g.
 * the domain a request is sent to); neither: every domain.
 */
export type AggregateScope = { tag?: string | null; domain?: string | null; domainKey?: string };

export type AggregateStats = { links: number; stats: LinkStats };

/**
 * The links of a tag and/or a domain the principal may see: their seqs and the oldest creation
 * only (a tag of 10,000 links is read as 10,000 numbers, not links); or why none can be named.
 */
async function scopeLinks(actor: Principal, scope: AggregateScope, deps: AggregateDeps): Promise<Outcome<LinkSet>> {
  const domain = scope.domain ? deps.directory.byName(scope.domain) : null;
  if (scope.domain && domain === null) return refused("domain_unknown", `no domain is named ${scope.domain.slice(0, 60)}`, "domain");
  return done(await deps.lister.members({ owner: ownerFilter(actor), tag: scope.tag ?? null, domain: scope.domainKey ?? domain?.key ?? null }));
}

/**
 * A tag's or a domain's statistics, summed over the principal's links there. A tag none of their
 * links carries is not found (a tag exists only on links, and another owner's are not theirs to
 * know of); a domain of the service with none of their links answers zeros.
 */
export async function readAggregateStats(actor: Principal, scope: AggregateScope, filter: StatsFilter, deps: AggregateDeps): Promise<Outcome<AggregateStats>> {
  const links = await scopeLinks(actor, scope, deps);
  if (!links.ok) return links;
  if (scope.tag && links.value.seqs.length === 0) return refused("not_found", `none of your links carries the tag ${scope.tag}`, "tag");
  const stats = await deps.stats.readSum(links.value, filter, deps.now());
  return done({ links: links.value.seqs.length, stats });
}

/** One series of a comparison: a link's or a tag's days and headline figures. */
export type CompareSeries = {
  kind: "link" | "tag";
  name: string;
  totalClicks: number;
  humanClicks: number;
  botPercentage: number;
  uniqueVisitors: number | null;
  visitsByDate: LinkStats["visitsByDate"];
  previous: PreviousPeriod;
};

/**
 * Two to four links (aliases on one domain) or tags, each read over the same range. A link the
 * principal may not see is not found, as the API answers another's link everywhere.
 */
export async function compareStats(
  actor: Principal,
  input: { kind: "link" | "tag"; names: string[]; domain: string | null },
  filter: StatsFilter,
  deps: AggregateDeps,
): Promise<Outcome<CompareSeries[]>> {
  // A name or domain echoed in a refusal is cut, as a link's id is everywhere (src/ops/links/get.ts).
  const names = [...new Set(input.names)];
  const field = input.kind === "link" ? "ids" : "tags";
  if (names.length < COMPARE_MIN || names.length > COMPARE_MAX) return refused("bad_request", `${field} must name ${COMPARE_MIN} to ${COMPARE_MAX} different ${input.kind}s`, field);
  const domain = input.domain ? deps.directory.byName(input.domain) : deps.directory.byName("");
  if (input.domain && domain === null) return refused("domain_unknown", `no domain is named ${input.domain.slice(0, 60)}`, "domain");
  const sets: LinkSet[] = [];
  for (const name of names) {
    if (input.kind === "link") {
      const link = await deps.links.get(linkKey(domain?.key ?? "", name));
      if (link === null || !maySee(actor, link)) return refused("not_found", `no link ${name.slice(0, 30)} of yours`, "ids");
      sets.push({ seqs: [link.seq], oldestCreatedAt: link.createdAt });
    } else {
      const links = await scopeLinks(actor, { tag: name }, deps);
      if (!links.ok) return links;
      if (links.value.seqs.length === 0) return refused("not_found", `none of your links carries the tag ${name}`, "tags");
      sets.push(links.value);
    }
  }
  // One range for every series, so that their days line up on one chart: without `from`, from the
  // oldest link's creation (at most DEFAULT_DAYS back), as one link's range starts at its own.
  const now = deps.now();
  const oldest = dayOf(Math.min(...sets.map((s) => s.oldestCreatedAt ?? now)));
  const from = filter.from ?? [oldest, addDays(dayOf(now), -(DEFAULT_DAYS - 1))].sort().at(-1)!;
  const series: CompareSeries[] = [];
  for (const [i, links] of sets.entries()) {
    const stats = await deps.stats.readSum(links, { ...filter, from }, now);
    const { totalClicks, humanClicks, botPercentage, uniqueVisitors, visitsByDate, previous } = stats;
    // A link younger than the range starts its days at its creation: zeros before it, on the same days as the others.
    const first = visitsByDate[0]?.date ?? from;
    const before = Array.from({ length: Math.max(0, daysBetween(from, first)) }, (_, d) => ({ date: addDays(from, d), count: 0, unique: 0 }));
    series.push({ kind: input.kind, name: names[i]!, totalClicks, humanClicks, botPercentage, uniqueVisitors, visitsByDate: [...before, ...visitsByDate], previous });
  }
  return done(series);
}
