// Webhooks and their deliveries (docs/webhooks.md: Webhooks), all for admins.

import { t } from "elysia";
import * as S from "../../api/schemas.ts";
import { ADMIN_ONLY, errors, id, q, type Operation, type Parameter } from "./operation.ts";

const WEBHOOK_ID: Parameter = { name: "id", in: "path", required: true, description: "the webhook's id", schema: t.String() };

export const WEBHOOK_ROUTES: Operation[] = [
  {
    method: "post", path: "/api/webhooks", operationId: "createWebhook", auth: "required",
    summary: "Add a webhook (admins): deliveries are signed as Standard Webhooks says; the secret is answered this once (docs/webhooks.md: Webhooks)",
    body: { "application/json": S.WebhookFields },
    responses: {
      201: { description: "the webhook and its secret", json: S.WebhookCreated },
      ...errors([400, 401, 413, 415, 421, 429, 503], "url_* (url_private: an address, written or resolved, that the service would not post to: without --webhook-allow-private here, or on another running instance), events_invalid, tags_invalid or bad_request"),
      403: ADMIN_ONLY,
    },
  },
  {
    method: "get", path: "/api/webhooks", operationId: "listWebhooks", auth: "required", summary: "Every webhook (admins), never its secret",
    responses: { 200: { description: "the webhooks", json: S.WebhookList }, ...errors([401, 421, 429, 503]), 403: ADMIN_ONLY },
  },
  {
    method: "get", path: "/api/webhooks/{id}", operationId: "getWebhook", auth: "required", summary: "One webhook (admins)",
    parameters: [WEBHOOK_ID],
    responses: { 200: { description: "the webhook", json: S.WebhookResponse }, ...errors([401, 404, 421, 429, 503]), 403: ADMIN_ONLY },
  },
  {
    method: "patch", path: "/api/webhooks/{id}", operationId: "updateWebhook", auth: "required", summary: "Change a webhook (admins); enabled: true starts it again after a 410 or a day of failures",
    parameters: [WEBHOOK_ID],
    body: { "application/json": S.WebhookChanges },
    responses: {
      200: { description: "the webhook", json: S.WebhookResponse },
      ...errors([400, 401, 404, 413, 415, 421, 429, 503], "url_* (url_private as for the create), events_invalid, tags_invalid or bad_request"),
      403: ADMIN_ONLY,
    },
  },
  {
    method: "delete", path: "/api/webhooks/{id}", operationId: "deleteWebhook", auth: "required", summary: "Delete a webhook and its delivery log (admins)",
    parameters: [WEBHOOK_ID],
    responses: { 200: { description: "deleted", json: S.WebhookDeleted }, ...errors([401, 404, 421, 429, 503]), 403: ADMIN_ONLY },
  },
  {
    method: "get", path: "/api/webhooks/{id}/deliveries", operationId: "listDeliveries", auth: "required", summary: "The webhook's delivery log, newest first, 7 days (admins)",
    parameters: [
      WEBHOOK_ID,
      q("before", "a delivery's id: the page after it (nextBefore)"), q("limit", "1..200, default 50"),
    ],
    responses: { 200: { description: "a page of deliveries", json: S.DeliveryPage }, ...errors([400, 401, 404, 421, 429, 503]), 403: ADMIN_ONLY },
  },
  {
    method: "post", path: "/api/webhooks/{id}/deliveries/{delivery}/redeliver", operationId: "redeliver", auth: "required",
    summary: "Send a delivery again, with the same webhook-id, after those already queued (admins)",
    parameters: [
      WEBHOOK_ID,
      { name: "delivery", in: "path", required: true, description: "the delivery's id", schema: t.String() },
    ],
    responses: { 202: { description: "queued", json: S.DeliveryResponse }, ...errors([401, 404, 421, 429, 503]), 403: ADMIN_ONLY },
  },
];
