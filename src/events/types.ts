// Events (docs/webhooks.md: Webhooks): what the service tells webhooks about, and the rows that carry it.

export const EVENT_TYPES = ["link.created", "link.updated", "link.deleted", "link.gone", "link.clicks", "link.milestone"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Why a link stopped redirecting (link.gone). */
export type GoneReason = "expired" | "click_limit" | "disabled";

/**
 * An event as the outbox keeps it, written in the transaction of the change it reports. `linkSeq`:
 * its link's seq, what is stored (null: an event of no one link); `linkId`: the link's id as people
 * see it, read back by the seq (a deleted link's from its retired id; docs/architecture.md: A link's
 * identity). `tags`: the link's tags at that moment (a webhook's tag filter), or null when the
 * fan-out reads them (clicks and milestones, written by the recorder, which does not know them).
 */
export type OutboxEvent = { type: EventType; linkSeq: number | null; linkId: string | null; tags: readonly string[] | null; at: number; data: string };

/** An event read back for the fan-out; `linkDomain`: its link's stored domain ('' the default's), read back by the seq too. */
export type StoredEvent = OutboxEvent & { seq: number; linkDomain: string | null };

export type Webhook = {
  id: number;
  url: string;
  events: EventType[];
  /** only this link's events (null: every link's): the seq is what is stored and matched */
  linkSeq: number | null;
  /** that link's id, read back by its seq (a deleted link's still named by its retired id) */
  linkId: string | null;
  tag: string | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: number;
};

/** What a webhook needs to sign: kept apart from Webhook, so that a listing never carries it. */
export type WebhookWithSecret = Webhook & { secret: string };

export type DeliveryState = "pending" | "delivered" | "failed";

export type Delivery = {
  id: number;
  webhookId: number;
  messageId: string;
  type: EventType;
  createdAt: number;
  state: DeliveryState;
  attempts: number;
  firstAttemptAt: number | null;
  lastAttemptAt: number | null;
  nextAt: number;
  responseCode: number | null;
  error: string | null;
};

/** The webhook list's summary of each: deliveries waiting, and the last one tried (`error`: why its last attempt failed). */
export type WebhookSummary = Webhook & { pending: number; lastDelivery: { at: number; state: DeliveryState; responseCode: number | null; error: string | null } | null };

/**
 * How a webhook fares (docs/webhooks.md: Webhooks, "States"): `waiting` nothing tried yet, `delivering` its
 * last attempt was delivered, `failing` its last attempt failed (it is tried again), `disabled`.
 */
export type WebhookStatus = "waiting" | "delivering" | "failing" | "disabled";

export function webhookStatus(w: Pick<WebhookSummary, "enabled" | "lastDelivery">): WebhookStatus {
  if (!w.enabled) return "disabled";
  if (w.lastDelivery === null) return "waiting";
  return w.lastDelivery.state === "delivered" ? "delivering" : "failing";
}

/** Why a webhook was turned off, as stored in its disabled_reason; the keys are what the API calls them. */
export const DISABLED_REASONS = {
  gone: "the receiver answered 410 Gone",
  failed_24h: "deliveries failed for 24 hours",
  admin: "disabled by an admin",
} as const;
export type DisabledCause = keyof typeof DISABLED_REASONS;

/** The cause of a stored reason; null for none, or for a text this release did not write. */
export function disabledCause(reason: string | null): DisabledCause | null {
  return (Object.keys(DISABLED_REASONS) as DisabledCause[]).find((k) => DISABLED_REASONS[k] === reason) ?? null;
}

export function isEventType(value: unknown): value is EventType {
  return (EVENT_TYPES as readonly unknown[]).includes(value);
}
