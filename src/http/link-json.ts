// The Link element of the management API (README: Managing links), in one place.

import type { Language } from "../lang.ts";
import { statusNow, type Link, type LinkStatus } from "../links/link.ts";
import { isoTime } from "../util/day.ts";

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
  };
}
