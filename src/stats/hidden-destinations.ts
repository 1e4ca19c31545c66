// A password-protected link's statistics as shown to someone who may not see where it leads
// (src/http/auth.ts maySeeDestinations; docs/security.md: Security): every count, no URL. Its clicks are
// counted per variant under the variant's URL, so that name is replaced by the variant's place in
// the link as it is now: "variant 2" in the link's own split, "rule 3, variant 1" in a rule's. A URL
// no longer in any split is REMOVED_VARIANT (never the URL). Rules are named by number already
// ("rule 2", "default") and fallbacks by reason ("expired"): neither needs a change.

import type { Behaviour } from "../links/behaviour.ts";
import type { Variant } from "../links/rules.ts";
import type { LinkStats, NameCount } from "../api/types.ts";

/** The name of a variant that is no longer in the link's splits (its clicks stay counted). */
export const REMOVED_VARIANT = "variant (removed)";

/** A variant's label from its URL. */
export type VariantLabel = (url: string) => string;

/**
 * The labels of a link's variants by their URL. A URL in more than one split is named after the
 * first (the link's own split, then the rules in order): the counts are kept per URL, not per place.
 */
export function variantLabels(link: Pick<Behaviour, "variants" | "rules">): VariantLabel {
  const labels = new Map<string, string>();
  const name = (variants: readonly Variant[] | undefined | null, prefix: string) =>
    variants?.forEach((v, i) => {
      if (!labels.has(v.url)) labels.set(v.url, `${prefix}variant ${i + 1}`);
    });
  name(link.variants, "");
  link.rules?.forEach((rule, i) => name(rule.variants, `rule ${i + 1}, `));
  return (url) => labels.get(url) ?? REMOVED_VARIANT;
}

/** A visit (recent, or the live view's) with its variant named by label. */
export function visitWithoutDestination<V extends { variant?: string }>(visit: V, label: VariantLabel): V {
  return visit.variant === undefined ? visit : { ...visit, variant: label(visit.variant) };
}

/** The statistics with every variant URL named by label; the counts as they were. */
export function statsWithoutDestinations(stats: LinkStats, label: VariantLabel): LinkStats {
  return {
    ...stats,
    recentVisits: stats.recentVisits.map((v) => visitWithoutDestination(v, label)),
    variantStats: relabelled(stats.variantStats, label),
  };
}

/** The counts under their labels: removed variants' in one entry, most clicks first (ties as they came). */
function relabelled(rows: readonly NameCount[], label: VariantLabel): NameCount[] {
  const byLabel = new Map<string, NameCount>();
  for (const row of rows) {
    const name = label(row.name);
    const seen = byLabel.get(name);
    if (seen === undefined) byLabel.set(name, { ...row, name });
    else seen.count += row.count;
  }
  return [...byLabel.values()].sort((a, b) => b.count - a.count);
}
