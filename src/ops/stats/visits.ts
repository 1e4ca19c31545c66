// Reading raw visits a page at a time (docs/shlink-api.md: Visits): a link's, a tag's, a domain's or
// every link's the principal may see. Whose links: the policy's (src/auth/policy.ts ownerFilter,
// maySee), as for the list; another's link looks unknown. One audit line a page.

import { ownerFilter, type Principal } from "../../auth/policy.ts";
import type { LinkLister } from "../../links/list.ts";
import type { LinkStore } from "../../links/store.ts";
import type { Logger } from "../../log.ts";
import { MAX_VISITS_PAGE, type VisitPage, type VisitPageSource, type VisitPageWriting, type VisitScope, type VisitTotals } from "../../stats/visit-pages.ts";
import { logAction, type Action } from "../audit.ts";
import { visibleLink, noSuchLink } from "../links/get.ts";
import { done, refused, type Outcome } from "../outcome.ts";

export type VisitsDeps = { links: LinkStore; lister: LinkLister; visitPages: VisitPageSource; log: Logger; now: () => number };

/**
 * Whose visits: one link (its key: src/domains/link-key.ts), the links with a tag (of one domain's
 * stored key, or every domain: null), one domain's links, or every link.
 */
export type VisitsOf = { link: string } | { tag: string; domain: string | null } | { domain: string } | { every: true; domain: string | null };

/** `writing`: the page as text, written where it is read when the source can (VisitPage `written`). */
export type VisitsInput = { of: VisitsOf; fromTs: number; toTs: number; excludeBots: boolean; offset: number; limit: number; writing?: VisitPageWriting };

/** A page of visits, newest first; a tag on none of the links the principal sees (of the domain, if one is given) is not_found (field "tag"). */
export async function readVisits(actor: Principal, input: VisitsInput, deps: VisitsDeps): Promise<Outcome<VisitPage>> {
  const admitted = await admitVisitScope(actor, input.of, "visits", deps);
  if (!admitted.ok) return admitted;
  const limit = Math.max(0, Math.min(input.limit, MAX_VISITS_PAGE));
  const page = await deps.visitPages.page({ scope: admitted.value.scope, fromTs: input.fromTs, toTs: input.toTs, excludeBots: input.excludeBots, offset: input.offset, limit }, input.writing);
  logAction(deps.log, actor, "visits", admitted.value.target, `ok ${page.written?.count ?? page.visits.length}`);
  return done(page);
}

/**
 * The stored scope of the visits asked for, as the principal may see them (a page, an export:
 * `action` names it in the audit line); another's link or a tag on none of the links seen is not_found.
 */
export async function admitVisitScope(actor: Principal, of: VisitsOf, action: Action, deps: Pick<VisitsDeps, "links" | "lister" | "log" | "now">): Promise<Outcome<{ scope: VisitScope; target: string | null }>> {
  const target = "link" in of ? of.link : "tag" in of ? `tag:${of.tag}` : "every" in of ? null : `domain:${of.domain}`;
  if ("link" in of) {
    const link = await visibleLink(of.link, actor, deps);
    if (link === null) {
      logAction(deps.log, actor, action, target, "not_found");
      return noSuchLink(of.link);
    }
    return done({ scope: { linkSeq: link.seq }, target });
  }
  const owner = ownerFilter(actor);
  const tag = "tag" in of ? of.tag : null;
  if (tag !== null) {
    // The same links the page reads: of the domain asked for, if one was (else a tag only on
    // another domain's links answered an empty page instead of tag-not-found).
    const tagged = await deps.lister.totals({ owner, ownerName: null, q: null, tag, domain: of.domain, status: null, now: deps.now() });
    if (tagged.links === 0) {
      logAction(deps.log, actor, action, target, "not_found");
      return refused("not_found", `no link has the tag "${tag.slice(0, 60)}"`, "tag");
    }
  }
  return done({ scope: { owner, domain: of.domain, tag }, target });
}

/** Every click of the links the principal sees, bots included, and those of people (Shlink's visits overview). */
export async function visitsOverview(actor: Principal, deps: Pick<VisitsDeps, "visitPages" | "log">): Promise<Outcome<VisitTotals>> {
  const totals = await deps.visitPages.totals(ownerFilter(actor));
  logAction(deps.log, actor, "visits", null, `ok overview ${totals.total}`);
  return done(totals);
}
