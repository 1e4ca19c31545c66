// The webhooks API's paths, and its shapes as the service defines them (src/api/types.ts; the event
// types from src/events/types.ts, a module with no imports of its own).
import type { MessageKey } from "../../i18n/index.ts";
import type { DeliveryJson, WebhookJson } from "../../../src/api/types.ts";
import type { DeliveryState, EventType } from "../../../src/events/types.ts";

export { EVENT_TYPES } from "../../../src/events/types.ts";
export type { DeliveryState, EventType };
export type Webhook = WebhookJson;
export type Delivery = DeliveryJson;
/** POST /api/webhooks: the one answer that carries the signing secret. */
export type CreatedWebhook = Webhook & { secret: string };
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

/** Why a webhook was turned off, in the page language. */
export const disabledKey = (cause: NonNullable<Webhook["disabledCause"]>) => `webhook_disabled_${cause}` as const satisfies MessageKey;

/** A delivery's state as a status pill (the link list's colours: green, amber, red). */
export function stateClass(state: DeliveryState): string {
  return `status ${state === "delivered" ? "status-active" : state === "pending" ? "status-expired" : "status-blocked"}`;
}
