// The Link element of the management API (docs/managing-links.md: Managing links), in one place.

import type { Language } from "../lang.ts";
import { statusNow, type Link } from "../links/link.ts";
import type { LinkJson } from "../api/types.ts";
import { isoTime } from "../util/day.ts";
import { redirectWarning } from "../links/behaviour.ts";

export type { LinkJson } from "../api/types.ts";

/** `answered`: see statusNow. */
export function linkJson(link: Link, base: string, lang: Language, now: number, answered: number | undefined): LinkJson {
  return {
    id: link.id,
    shortUrl: `${base}/${link.id}`,
    statsUrl: `${base}/${lang}/stats/${link.id}`,
    originalUrl: link.url,
    createdAt: isoTime(link.createdAt)!,
    expiresAt: isoTime(link.expiresAt),
    maxClicks: link.maxClicks,
    disabled: link.disabled,
    tags: link.tags,
    status: statusNow(link, answered, now),
    totalClicks: link.totalClicks,
    humanClicks: link.humanClicks,
    lastClickAt: isoTime(link.lastClickAt),
    rules: link.rules ?? [],
    variants: link.variants,
    passwordProtected: link.passwordHash !== null,
    owner: link.owner,
    redirectType: link.redirectType,
    validFrom: isoTime(link.validFrom),
    fallbackUrl: link.fallbackUrl,
    crawlable: link.crawlable,
    ...warnings(link),
  };
}

/** `warnings` only when there is something to say: a permanent redirect. */
export function warnings(link: Pick<Link, "redirectType">): { warnings?: string[] } {
  const warning = redirectWarning(link.redirectType);
  return warning === null ? {} : { warnings: [warning] };
}
