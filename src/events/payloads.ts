// The events' data, as webhooks receive it (docs/webhooks.md: Webhooks, "A click carries"). Built on
// the thread that makes the change, written to the outbox in its transaction.

import type { Link } from "../links/link.ts";
import type { Visit } from "../visits/visit.ts";
import { isoTime } from "../util/day.ts";
import { liveVisit } from "./live.ts";
import type { GoneReason, OutboxEvent } from "./types.ts";

/**
 * A link as events show it: the API's Link element's plain fields; `base`: where its short URL is
 * (event-domains.ts eventBase: no request to take a host from), null for none. Its `domain` is
 * added by the fan-out, as every event's (event-domains.ts).
 */
export function eventLink(link: Link, base: string | null) {
  return {
    id: link.id, shortUrl: base === null ? null : `${base}/${link.id}`, originalUrl: link.url, createdAt: isoTime(link.createdAt),
    expiresAt: isoTime(link.expiresAt), maxClicks: link.maxClicks, disabled: link.disabled, tags: link.tags, title: link.title, owner: link.owner,
    totalClicks: link.totalClicks, humanClicks: link.humanClicks,
  };
}

/** Which link an event is of: its seq (what the outbox stores) and its id (what the payload shows). */
export type EventLinkRef = Pick<Link, "seq" | "id">;

export function linkCreated(link: Link, base: string | null, at: number): OutboxEvent {
  return { type: "link.created", linkSeq: link.seq, linkId: link.id, tags: link.tags, at, data: JSON.stringify({ link: eventLink(link, base) }) };
}

/** `changed`: the fields the change named. */
export function linkUpdated(link: Link, changed: readonly string[], base: string | null, at: number): OutboxEvent {
  return { type: "link.updated", linkSeq: link.seq, linkId: link.id, tags: link.tags, at, data: JSON.stringify({ link: eventLink(link, base), changed }) };
}

export function linkDeleted(link: Link, base: string | null, at: number): OutboxEvent {
  return { type: "link.deleted", linkSeq: link.seq, linkId: link.id, tags: link.tags, at, data: JSON.stringify({ link: eventLink(link, base) }) };
}

export function linkGone(link: EventLinkRef, reason: GoneReason, tags: readonly string[] | null, at: number): OutboxEvent {
  return { type: "link.gone", linkSeq: link.seq, linkId: link.id, tags, at, data: JSON.stringify({ id: link.id, reason }) };
}

export function linkMilestone(link: EventLinkRef, milestone: number, totalClicks: number, at: number): OutboxEvent {
  return { type: "link.milestone", linkSeq: link.seq, linkId: link.id, tags: null, at, data: JSON.stringify({ id: link.id, milestone, totalClicks }) };
}

/**
 * One link's clicks of a recorded batch: every field the stats page shows of a visit, and no
 * address (none is known); `omitted`: its clicks beyond the batch's itemized ones (counted only).
 */
export function linkClicks(link: EventLinkRef, visits: readonly Visit[], omitted: number, at: number): OutboxEvent {
  return { type: "link.clicks", linkSeq: link.seq, linkId: link.id, tags: null, at, data: JSON.stringify({ clicks: visits.map(clickOf), omitted }) };
}

/** A click as webhooks get it: what the recent visits show (liveVisit), and its campaign. */
export function clickOf(v: Visit) {
  return { ...liveVisit(v), utmSource: v.utmSource, utmMedium: v.utmMedium, utmCampaign: v.utmCampaign };
}

/** Click counts that announce themselves: 10, 100, 1,000, and on. */
export function milestonesCrossed(before: number, after: number): number[] {
  const crossed: number[] = [];
  for (let m = 10; m <= after; m *= 10) if (m > before) crossed.push(m);
  return crossed;
}
