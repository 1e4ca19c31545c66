// The Link element of the management API (README: Managing links), in one place.

import type { Language } from "../lang.ts";
import { linkStatus, type Link, type LinkStatus } from "../links/link.ts";

export type LinkJson = {
  id: string;
  shortUrl: string;
  statsUrl: string;
  originalUrl: string;
  createdAt: string;
  expiresAt: string | null;
  maxClicks: number | null;
  disabled: boolean;
  tags: string[];
  status: LinkStatus;
  totalClicks: number;
  humanClicks: number;
  lastClickAt: string | null;
  /** with include=daily: clicks per UTC day of the last 30, oldest first, today last */
  daily?: number[];
};

/**
 * `answered`: clicks this process let through for a limited link, which may be ahead of the
 * recorded totals by a flush; the status must already say "expired" when the limit is reached.
 */
export function linkJson(link: Link, base: string, lang: Language, now: number, answered: number | undefined): LinkJson {
  const clicks = Math.max(link.totalClicks, answered ?? 0);
  return {
    id: link.id,
    shortUrl: `${base}/${link.id}`,
    statsUrl: `${base}/${lang}/stats/${link.id}`,
    originalUrl: link.url,
    createdAt: iso(link.createdAt)!,
    expiresAt: iso(link.expiresAt),
    maxClicks: link.maxClicks,
    disabled: link.disabled,
    tags: link.tags,
    status: linkStatus({ ...link, clicks }, now),
    totalClicks: link.totalClicks,
    humanClicks: link.humanClicks,
    lastClickAt: iso(link.lastClickAt),
  };
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
