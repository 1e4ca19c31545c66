// Ways from the dashboard to the statistics above the single link (docs/statistics.md: Tags and
// domains): the tag being filtered by, and each domain of the domain list.
import { el, lang, t } from "../common.ts";

const TAG = /^[A-Za-z0-9_-]{1,30}$/;

/** The "Statistics of the tag" link beside the filters: shown while the list is filtered by one tag. */
export function showTagStats(link: HTMLAnchorElement, tag: string): void {
  link.hidden = !TAG.test(tag);
  if (link.hidden) return;
  link.href = `/${lang}/stats/tag/${encodeURIComponent(tag)}`;
  link.textContent = t("aggregate.tag_stats", { tag });
}

/** A domain's "Statistics" link for the domain list. */
export function domainStatsLink(name: string): HTMLAnchorElement {
  const a = el("a", "btn btn-small", t("aggregate.stats_link"));
  a.href = `/${lang}/stats/domain/${encodeURIComponent(name)}`;
  a.setAttribute("aria-label", `${t("aggregate.stats_link")}: ${name}`);
  return a;
}
