// A link as the owner manages it, and the one rule for its status (shared by the list, the
// management API and the visitor's 410 page).

import type { Behaviour } from "./behaviour.ts";
import type { CardFields } from "./card.ts";

export type Link = Behaviour & CardFields & {
  /** stable row number: list cursors and the search index refer to it */
  seq: number;
  /** the stored domain: '' for the default (src/domains/domain.ts); the API shows its name */
  domain: string;
  /** the alias */
  id: string;
  url: string;
  /** ms since the Unix epoch */
  createdAt: number;
  /** api_keys.id of the key that created it; null for a public create or a user's browser; 0 for the systemd credential */
  ownerKeyId: number | null;
  /** users.id of the person who made it (in their browser, or with a key made for them) */
  ownerUserId: number | null;
  /** who owns it, as people see it: the user's name, else the key's; null for a public create */
  owner: string | null;
  expiresAt: number | null;
  maxClicks: number | null;
  disabled: boolean;
  /** matches the --blocklist */
  blocked: boolean;
  tags: string[];
  /** the owner's or the destination page's words for it (src/links/title.ts); null: none */
  title: string | null;
  totalClicks: number;
  humanClicks: number;
  lastClickAt: number | null;
};

/** Who makes a link: the key and the user behind the request, and the owner's name as the list shows it. */
export type Creator = { keyId: number | null; userId: number | null; name: string };

export type LinkStatus = "active" | "disabled" | "expired" | "blocked";
export const LINK_STATUSES: readonly LinkStatus[] = ["active", "disabled", "expired", "blocked"];

/** Why a link no longer redirects: its status, or deleted. */
export type GoneReason = Exclude<LinkStatus, "active"> | "deleted";

export type StatusFacts = Pick<Link, "disabled" | "blocked" | "expiresAt" | "maxClicks"> & { clicks: number };

/**
 * A blocklist match outranks the owner's own switch, which outranks expiry: the visitor's page and
 * the list name the strongest reason. Expired from the instant expiresAt is reached, or once
 * maxClicks clicks have been answered.
 */
export function linkStatus(link: StatusFacts, now: number): LinkStatus {
  if (link.blocked) return "blocked";
  if (link.disabled) return "disabled";
  if (link.expiresAt !== null && now >= link.expiresAt) return "expired";
  if (link.maxClicks !== null && link.clicks >= link.maxClicks) return "expired";
  return "active";
}

/**
 * A link's status now. `answered`: clicks this process let through for a limited link, which may
 * be ahead of the recorded total by a flush; the status must say "expired" once the limit is reached.
 */
export function statusNow(link: Link, answered: number | undefined, now: number): LinkStatus {
  return linkStatus({ ...link, clicks: Math.max(link.totalClicks, answered ?? 0) }, now);
}

/**
 * What the statistics say of a link now (docs/api.md: Statistics element shapes): its status, with
 * an expired link's reason told apart (its time, or its click limit) and an active link whose start
 * (validFrom) is still ahead as "scheduled". Says nothing of where the link leads.
 */
export type LinkActivity = "active" | "scheduled" | "disabled" | "expired" | "limit_reached" | "blocked";
export const LINK_ACTIVITIES: readonly LinkActivity[] = ["active", "scheduled", "disabled", "expired", "limit_reached", "blocked"];

export function activityNow(link: Link, answered: number | undefined, now: number): LinkActivity {
  const status = statusNow(link, answered, now);
  if (status === "expired") return link.expiresAt !== null && now >= link.expiresAt ? "expired" : "limit_reached";
  if (status === "active" && link.validFrom !== null && now < link.validFrom) return "scheduled";
  return status;
}
