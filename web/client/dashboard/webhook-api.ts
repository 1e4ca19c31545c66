// The webhooks API's shapes and paths as the contract of issue #25 gives them; kept
// here until src/api/types.ts has them, then imported from there like api.ts does.
import type { MessageKey } from "../../i18n/index.ts";

export const EVENT_TYPES = ["link.created", "link.updated", "link.deleted", "link.gone", "link.clicks", "link.milestone"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type DeliveryState = "pending" | "delivered" | "failed";

export type Webhook = {
  id: number;
  url: string;
  events: EventType[];
  linkId: string | null;
  tag: string | null;
  enabled: boolean;
  /** the server's words: why it turned the webhook off (or "disabled by an admin") */
  disabledReason: string | null;
  createdAt: string;
  pending: number;
  lastDelivery: { at: string; state: DeliveryState; responseCode: number | null } | null;
};

/** POST /api/webhooks: the one answer that carries the signing secret. */
export type CreatedWebhook = Webhook & { secret: string };

export type Delivery = {
  id: number;
  messageId: string;
  type: EventType;
  createdAt: string;
  state: DeliveryState;
  attempts: number;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  responseCode: number | null;
  error: string | null;
};

export type DeliveryPage = { deliveries: Delivery[]; nextBefore: number | null };

export const webhookPath = (id?: number) => (id === undefined ? "/api/webhooks" : `/api/webhooks/${id}`);

export function deliveriesPath(id: number, before: number | null): string {
  const params = new URLSearchParams({ limit: "50" });
  if (before !== null) params.set("before", String(before));
  return `${webhookPath(id)}/deliveries?${params}`;
}

export const redeliverPath = (id: number, deliveryId: number) => `${webhookPath(id)}/deliveries/${deliveryId}/redeliver`;

/** An event type's name in the page language ("link.created" → "Link created"). */
export const eventKey = (type: EventType) => `event_${type.replace(".", "_")}` as MessageKey;

/** A delivery's state as a status pill (the link list's colours: green, amber, red). */
export function stateClass(state: DeliveryState): string {
  return `status ${state === "delivered" ? "status-active" : state === "pending" ? "status-expired" : "status-blocked"}`;
}
