// The events' port (docs/webhooks.md: Webhooks): webhooks, their deliveries, the fan-out of the outbox and
// the claims that let several instances share the sending. One adapter per engine
// (src/db/<engine>/events.ts); the rules over it are in fan-out.ts, dispatcher.ts and webhooks.ts.

import type { MaybePromise } from "../util/maybe.ts";
import type { Delivery, EventType, OutboxEvent, StoredEvent, Webhook, WebhookSummary, WebhookWithSecret } from "./types.ts";

/** `linkSeq`: the seq of the one link it hears of (the operations resolve the id a surface names). */
export type NewWebhook = { url: string; events: EventType[]; linkSeq: number | null; tag: string | null; secret: string; createdAt: number };
export type WebhookChanges = Partial<Pick<Webhook, "url" | "events" | "linkSeq" | "tag" | "enabled" | "disabledReason">>;

/** A webhook's newest link.clicks delivery while nothing was sent of it: later clicks join it. */
export type OpenClicks = { id: number; webhookId: number; body: string; clicks: number };
export type NewDelivery = { webhookId: number; messageId: string; type: EventType; createdAt: number; body: string; clicks: number };
/**
 * `tagsOf`: the tags of the links of events written without them, by link seq. `defaultDomain`:
 * the default domain's name when a domain row names it (the payloads' `domain`: event-domains.ts).
 */
export type FanOutInput = { events: StoredEvent[]; webhooks: Webhook[]; tagsOf: ReadonlyMap<number, readonly string[]>; open: ReadonlyMap<number, OpenClicks>; defaultDomain: string | null };
export type FanOutPlan = { inserts: NewDelivery[]; grown: { id: number; body: string; clicks: number }[] };

/** The head of a webhook's queue, claimed for one attempt; `lease`: until when (also what proves the claim is this one's). */
export type Claimed = { delivery: Delivery; body: string; webhook: WebhookWithSecret; lease: number };

export type AttemptResult = {
  state: "pending" | "delivered" | "failed";
  at: number;
  nextAt: number;
  responseCode: number | null;
  error: string | null;
  /** the webhook is disabled with this reason (410, or 24 hours of failures) */
  disable: string | null;
};

/** A link the expiry sweep found expired: what its link.gone event says. */
export type ExpiredLink = { seq: number; id: string; tags: string[]; expiresAt: number };

/** With nothing expired, sweepExpired moves its mark (a write) this seldom; the dispatcher sweeps no more often when no one wants link.gone. */
export const EXPIRY_MARK_EVERY_MS = 60_000;

export type EventStore = {
  createWebhook(webhook: NewWebhook): MaybePromise<WebhookWithSecret>;
  webhooks(): MaybePromise<WebhookSummary[]>;
  webhook(id: number): MaybePromise<WebhookSummary | null>;
  updateWebhook(id: number, changes: WebhookChanges): MaybePromise<boolean>;
  /** The webhook (its deliveries go by prune()). */
  removeWebhook(id: number): MaybePromise<boolean>;
  /** Newest first, ids below `before`. */
  deliveries(webhookId: number, before: number | null, limit: number): MaybePromise<Delivery[]>;
  /** A new delivery of the same message, queued last; null when there is no such delivery. */
  redeliver(webhookId: number, deliveryId: number, now: number): MaybePromise<Delivery | null>;
  /** The event types some enabled webhook wants. */
  wantedTypes(): MaybePromise<EventType[]>;
  /** Whether the outbox holds anything (a read: an idle tick takes no write lock). */
  hasEvents(): MaybePromise<boolean>;
  /** Outbox events written from outside a link's or a batch's transaction (the expiry sweep writes its own). */
  append(events: readonly OutboxEvent[]): MaybePromise<void>;
  /**
   * Takes the oldest `limit` events of the outbox with what the plan needs, writes the plan's
   * deliveries and deletes the events, in one transaction (one instance at a time). Answers the
   * events taken. (Deleted rather than passed by a mark: on PostgreSQL a transaction may commit
   * an event after one with a higher seq, and a mark would have passed it by.)
   */
  fanOut(plan: (input: FanOutInput) => FanOutPlan, limit: number): MaybePromise<number>;
  /** Enabled webhooks whose queue has a head due by `now`, with the head's type. */
  due(now: number): MaybePromise<{ webhookId: number; type: EventType }[]>;
  /** Claims the webhook's head for `leaseMs` if it is due and nobody holds it. */
  claim(webhookId: number, now: number, leaseMs: number): MaybePromise<Claimed | null>;
  /**
   * Records an attempt. With `lease`, only while the claim is still that one: a send that outlived
   * its lease (another instance has sent it meanwhile) changes nothing.
   */
  finish(delivery: Delivery, result: AttemptResult, lease?: number): MaybePromise<void>;
  /**
   * Links that expired after the "expiry" mark and by `now`: `announce` makes their events, written
   * with the mark moved to `now` in one transaction (one instance at a time).
   */
  sweepExpired(now: number, announce: (links: ExpiredLink[]) => OutboxEvent[]): MaybePromise<number>;
  /** Forgets deliveries made before `before` that are no longer pending (the delivery log's 7 days), and those of removed webhooks. */
  prune(before: number): MaybePromise<void>;
};
