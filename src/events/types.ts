// Events (docs/webhooks.md: Webhooks): what the service tells webhooks about, and the rows that carry it.

export const EVENT_TYPES = ["link.created", "link.updated", "link.deleted", "link.gone", "link.clicks", "link.milestone"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Why a link stopped redirecting (link.gone). */
export type GoneReason = "expired" | "click_limit" | "disabled";

/**
 * An event as the outbox keeps it, written in the transaction of the change it reports. `tags`:
 * the link's tags at that moment (a webhook's tag filter), or null when the fan-out reads them
 * (clicks and milestones, written by the recorder, which does not know them).
 */
export type OutboxEvent = { type: EventType; linkId: string | null; tags: readonly string[] | null; at: number; data: string };

/** An event read back for the fan-out. */
export type StoredEvent = OutboxEvent & { seq: number };

export type Webhook = {
  id: number;
  url: string;
  events: EventType[];
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

/** The webhook list's summary of each: deliveries waiting, and the last one tried. */
export type WebhookSummary = Webhook & { pending: number; lastDelivery: { at: number; state: DeliveryState; responseCode: number | null } | null };

export function isEventType(value: unknown): value is EventType {
  return (EVENT_TYPES as readonly unknown[]).includes(value);
}
