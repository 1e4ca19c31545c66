// The Link element of the management API (docs/managing-links.md: Managing links), in one place.

import type { Language } from "../lang.ts";
import { statusNow, type Link } from "../links/link.ts";
import type { LinkJson } from "../api/types.ts";
import { isoTime } from "../util/day.ts";
import { redirectWarning } from "../links/behaviour.ts";
import { shortcutUrl } from "../links/os-shortcuts.ts";
import { DEFAULT_DOMAIN } from "../domains/domain.ts";
import { baseOf, type DomainDirectory } from "../domains/directory.ts";

export type { LinkJson } from "../api/types.ts";

/** Where a link is shown: the base of its short and stats URLs, and its domain's name (null: an unnamed default). */
export type LinkPlace = { base: string; domain: string | null };

/**
 * A link's place (docs/api.md: Links on several domains): the default domain's links keep the
 * request's public base (--base-url, else the request's own); another domain's are `https://<name>`
 * (http when the domain says so).
 */
export function linkPlace(stored: string, requestBase: string, directory: DomainDirectory): LinkPlace {
  if (stored === DEFAULT_DOMAIN) return { base: requestBase, domain: directory.nameOf(stored) };
  const entry = directory.byKey(stored);
  // A domain removed by another process a moment ago, not yet heard of here: its name still serves.
  return { base: (entry === null ? null : baseOf(entry)) ?? `https://${stored}`, domain: stored };
}

/** `answered`: see statusNow. */
export function linkJson(link: Link, place: LinkPlace, lang: Language, now: number, answered: number | undefined): LinkJson {
  const { base } = place;
  return {
    id: link.id,
    domain: place.domain,
    shortUrl: `${base}/${link.id}`,
    statsUrl: `${base}/${lang}/stats/${link.id}`,
    originalUrl: link.url,
    createdAt: isoTime(link.createdAt)!,
    expiresAt: isoTime(link.expiresAt),
    maxClicks: link.maxClicks,
    disabled: link.disabled,
    tags: link.tags,
    title: link.title,
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
    cardTitle: link.cardTitle,
    cardDescription: link.cardDescription,
    cardImage: link.cardImage,
    iosUrl: shortcutUrl(link.rules, "ios"),
    androidUrl: shortcutUrl(link.rules, "android"),
    ...warnings(link),
  };
}

/** `warnings` only when there is something to say: a permanent redirect. */
export function warnings(link: Pick<Link, "redirectType">): { warnings?: string[] } {
  const warning = redirectWarning(link.redirectType);
  return warning === null ? {} : { warnings: [warning] };
}
