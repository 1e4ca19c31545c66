// Webhooks (docs/webhooks.md: Webhooks): a webhook, its changes, its deliveries.

import { t } from "elysia";
import { EVENT_TYPES } from "../../events/types.ts";
import { Count, NullableTime, Tag, Time, closed, ok, oneOf } from "./common.ts";

const EventTypeSchema = oneOf(EVENT_TYPES);
const DeliveryStateSchema = t.Union([t.Literal("pending"), t.Literal("delivered"), t.Literal("failed")]);
export const WebhookFields = t.Object(
  {
    url: t.String({ description: "where deliveries are POSTed; a private or loopback address needs --webhook-allow-private" }),
    events: t.Array(EventTypeSchema, { minItems: 1 }),
    linkId: t.Optional(t.Union([t.String(), t.Null()], { description: "only this link's events: the id of a link that exists (otherwise 400, bad_request on linkId)" })),
    tag: t.Optional(t.Union([Tag, t.Null()], { description: "only events of links with this tag" })),
  },
  closed,
);
export const WebhookChanges = t.Object(
  {
    url: t.Optional(t.String()), events: t.Optional(t.Array(EventTypeSchema, { minItems: 1 })),
    linkId: t.Optional(t.Union([t.String(), t.Null()], { description: "only this link's events: the id of a link that exists (otherwise 400, bad_request on linkId); null: every link" })),
    tag: t.Optional(t.Union([Tag, t.Null()])), enabled: t.Optional(t.Boolean()),
  },
  closed,
);
const webhookFields = {
  id: t.Integer({ minimum: 1 }),
  url: t.String(),
  events: t.Array(EventTypeSchema),
  linkId: t.Union([t.String(), t.Null()], { description: "the one link it hears of (null: every link); a deleted link's id is still shown" }),
  tag: t.Union([t.String(), t.Null()]),
  enabled: t.Boolean(),
  disabledReason: t.Union([t.String(), t.Null()], { description: "why it is disabled: 410 from the receiver, 24 hours of failures, or an admin" }),
  disabledCause: t.Union([t.Literal("gone"), t.Literal("failed_24h"), t.Literal("admin"), t.Null()], {
    description: "disabledReason as a code: gone (the receiver answered 410), failed_24h (deliveries failed for 24 hours), admin; null when enabled (or a reason this release did not write)",
  }),
  createdAt: Time,
  status: t.Union([t.Literal("waiting"), t.Literal("delivering"), t.Literal("failing"), t.Literal("disabled")], {
    description: "waiting: nothing tried yet; delivering: the last attempt was delivered; failing: the last attempt failed and is tried again (lastDelivery.error says why); disabled (docs/webhooks.md: Webhooks)",
  }),
  pending: Count,
  lastDelivery: t.Union([
    t.Null(),
    t.Object(
      {
        at: Time, state: DeliveryStateSchema, responseCode: t.Union([t.Integer(), t.Null()]),
        error: t.Union([t.String(), t.Null()], { description: "why the last attempt failed: the receiver's answer (\"answered 500\") or what stopped the request" }),
      },
      closed,
    ),
  ], { description: "the last delivery tried, as its last attempt went" }),
};
export const Webhook = t.Object(webhookFields, closed);
export const WebhookResponse = ok(Webhook);
export const WebhookCreated = ok(t.Object({ ...webhookFields, secret: t.String({ pattern: "^whsec_[A-Za-z0-9+/]+=*$", description: "shown this once: the key receivers verify signatures with" }) }, closed));
export const WebhookList = ok(t.Object({ webhooks: t.Array(Webhook) }, closed));
export const WebhookDeleted = ok(t.Object({ id: t.Integer({ minimum: 1 }), deleted: t.Literal(true) }, closed));
export const Delivery = t.Object(
  {
    id: t.Integer({ minimum: 1 }), messageId: t.String({ description: "the webhook-id header: the same on every attempt and redelivery" }), type: EventTypeSchema,
    createdAt: Time, state: DeliveryStateSchema, attempts: Count, lastAttemptAt: NullableTime, nextAttemptAt: NullableTime,
    responseCode: t.Union([t.Integer(), t.Null()]), error: t.Union([t.String(), t.Null()]),
  },
  closed,
);
export const DeliveryResponse = ok(Delivery);
export const DeliveryPage = ok(t.Object({ deliveries: t.Array(Delivery), nextBefore: t.Union([t.Integer({ minimum: 1 }), t.Null()]) }, closed));
