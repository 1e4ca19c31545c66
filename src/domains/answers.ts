// What a domain answers besides its links (docs/several-domains.md: What each domain answers), each
// falling back to the instance's flags.

import { baseOf, type DomainEntry } from "./directory.ts";
import type { RobotsPolicy } from "./domain.ts";

/** Where `/` goes: a redirect, the public form ("home", the default domain only), or nothing here ("none"). */
export type RootAnswer = { redirect: string } | "home" | "none";

/**
 * A domain's root: its own redirect, else --root-redirect, else the public form on the default
 * domain; on another, the default domain's root when it has a name (its form creates links there),
 * else nothing.
 */
export function rootAnswer(domain: DomainEntry, instanceRoot: string | null, defaultDomain: DomainEntry): RootAnswer {
  const redirect = domain.rootRedirect ?? instanceRoot;
  if (redirect !== null) return { redirect };
  if (domain.isDefault) return "home";
  const base = baseOf(defaultDomain);
  return base === null ? "none" : { redirect: `${base}/` };
}

/** What robots.txt allows on a domain: its own policy, else the instance's (crawlable links only). */
export function robotsPolicy(domain: DomainEntry): RobotsPolicy {
  return domain.robots ?? "links";
}
