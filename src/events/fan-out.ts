// Which webhook hears which event (its types, its link or tag filter), and how clicks are bundled:
// a webhook's link.clicks events join its newest unsent link.clicks delivery, so that a busy link
// makes one delivery a second, not one per recorded batch. A delivery itemizes MAX_CLICKS clicks
// and counts the rest per link (omitted): its size is bounded, and the queue never falls behind
// however fast links are clicked.

import { linkKey } from "../domains/link-key.ts";
import { isoTime } from "../util/day.ts";
import { domainNameOf, withDomain } from "./event-domains.ts";
import { newMessageId } from "./signing.ts";
import type { FanOutInput, FanOutPlan, NewDelivery } from "./store.ts";
import type { StoredEvent, Webhook } from "./types.ts";

/** Clicks one link.clicks delivery itemizes at most (about 300 bytes each). */
export const MAX_CLICKS = 1_000;

type Bundle = { clicks: object[]; omitted: Record<string, number> };

/** A webhook's link filter is matched by seq (the id is only what the payloads show). */
export function matches(webhook: Webhook, event: StoredEvent, tagsOf: ReadonlyMap<number, readonly string[]>): boolean {
  if (!webhook.enabled || !webhook.events.includes(event.type)) return false;
  if (webhook.linkSeq !== null && event.linkSeq !== webhook.linkSeq) return false;
  if (webhook.tag !== null) {
    const tags = event.tags ?? (event.linkSeq === null ? [] : (tagsOf.get(event.linkSeq) ?? []));
    if (!tags.includes(webhook.tag)) return false;
  }
  return true;
}

/** `baseHost`: --base-url's host, the default domain's name when no domain row names it. */
export function planFanOut(input: FanOutInput, now: number, baseHost: string | null = null): FanOutPlan {
  const defaultName = input.defaultDomain ?? baseHost;
  const inserts: NewDelivery[] = [];
  const grown: FanOutPlan["grown"] = [];
  // Per webhook: the bundle clicks join here (an open one from before, or one made here). One from
  // before is read (and written back) only when clicks join it.
  const open = new Map<number, { bundle: Bundle; target: NewDelivery | { id: number }; at: number }>();
  const before = new Map(input.open);
  const openFor = (webhookId: number, at: number) => {
    let o = open.get(webhookId);
    if (o !== undefined) return o;
    const stored = before.get(webhookId);
    before.delete(webhookId);
    if (stored !== undefined) {
      const body = JSON.parse(stored.body) as { timestamp: string; data: Partial<Bundle> };
      o = { bundle: { clicks: body.data.clicks ?? [], omitted: body.data.omitted ?? {} }, target: { id: stored.id }, at: Date.parse(body.timestamp) };
    } else {
      const target: NewDelivery = { webhookId, messageId: newMessageId(), type: "link.clicks", createdAt: now, body: "", clicks: 0 };
      inserts.push(target);
      o = { bundle: { clicks: [], omitted: {} }, target, at };
    }
    open.set(webhookId, o);
    return o;
  };
  // Any other event closes the webhook's bundle: what follows it must not be sent before it.
  const seal = (webhookId: number) => {
    before.delete(webhookId);
    const o = open.get(webhookId);
    if (o === undefined) return;
    open.delete(webhookId);
    const data = Object.keys(o.bundle.omitted).length > 0 ? o.bundle : { clicks: o.bundle.clicks };
    const body = envelope("link.clicks", o.at, data);
    if ("id" in o.target) grown.push({ id: o.target.id, body, clicks: o.bundle.clicks.length });
    else Object.assign(o.target, { body, clicks: o.bundle.clicks.length });
  };
  for (const event of input.events) {
    let data: unknown; // read once, for the first webhook that hears it
    const domain = domainNameOf(event.linkDomain, defaultName);
    for (const webhook of input.webhooks) {
      if (!matches(webhook, event, input.tagsOf)) continue;
      if (event.type === "link.clicks") {
        data ??= JSON.parse(event.data);
        const linkId = event.linkId!;
        const clicks = data as { clicks: object[]; omitted: number };
        const o = openFor(webhook.id, event.at);
        const room = Math.max(0, MAX_CLICKS - o.bundle.clicks.length);
        for (const c of clicks.clicks.slice(0, room)) o.bundle.clicks.push({ id: linkId, domain, ...c });
        const omitted = clicks.omitted + Math.max(0, clicks.clicks.length - room);
        // Counted per link: its id on the default domain, id@domain on another (two domains' same alias apart).
        const key = linkKey(event.linkDomain ?? "", linkId);
        if (omitted > 0) o.bundle.omitted[key] = (o.bundle.omitted[key] ?? 0) + omitted;
        o.at = event.at;
        continue;
      }
      data ??= event.linkSeq === null ? JSON.parse(event.data) : withDomain(event.type, JSON.parse(event.data), domain);
      seal(webhook.id);
      inserts.push({ webhookId: webhook.id, messageId: newMessageId(), type: event.type, createdAt: now, body: envelope(event.type, event.at, data), clicks: 0 });
    }
  }
  for (const webhookId of [...open.keys()]) seal(webhookId);
  return { inserts, grown };
}

/** The Standard Webhooks payload: type, the event's time, and its data. */
export function envelope(type: string, at: number, data: unknown): string {
  return JSON.stringify({ type, timestamp: isoTime(at), data });
}
