// /api/webhooks (docs/webhooks.md: Webhooks): admins only, since a webhook hears about every link. The
// secret is answered once, by the create; never listed, never logged.

import type { Config } from "../config.ts";
import type { Blocklist } from "../links/blocklist.ts";
import type { EventStore } from "../events/store.ts";
import type { LinkStore } from "../links/store.ts";
import type { WebhookLeave } from "../events/webhook-leave.ts";
import { disabledCause, webhookStatus, type Delivery, type WebhookSummary } from "../events/types.ts";
import { isoTime } from "../util/day.ts";
import { requireAllowed, type AuthDeps } from "./auth.ts";
import { MAX_BODY_BYTES, readJsonBody } from "./form-body.ts";
import { ownHostsOf } from "./destination-rules.ts";
import { destinationRules } from "../ops/links/deps.ts";
import { publicBase, type PeerServer } from "./request-origin.ts";
import { apiError, badHost, json } from "./responses.ts";
import { webhooksRefusal, type ReceiverRules } from "../ops/webhooks/access.ts";
import { createWebhook } from "../ops/webhooks/create.ts";
import { getWebhook, listWebhooks } from "../ops/webhooks/list.ts";
import { changeWebhook } from "../ops/webhooks/change.ts";
import { removeWebhook } from "../ops/webhooks/remove.ts";
import { listDeliveries, redeliver } from "../ops/webhooks/deliveries.ts";
import type { WebhookJson, DeliveryJson } from "../api/types.ts";
import { answered } from "./storage-failure.ts";

export type WebhooksDeps = AuthDeps & {
  config: Pick<Config, "host" | "port" | "allowLoopbackDestinations" | "baseUrl">;
  blocklist: () => Blocklist;
  events: EventStore;
  /** a webhook's link, named by id, is read for its seq */
  links: Pick<LinkStore, "get">;
  /** told when webhooks changed here: the answer waits until the next change writes their events */
  webhooksChanged: () => Promise<void>;
  /** Whether webhooks may post to special-purpose addresses: this service's flag and the other instances' (src/events/webhook-leave.ts). */
  webhookLeave: () => Promise<WebhookLeave>;
};


export function webhookJson(w: WebhookSummary): WebhookJson {
  const last = w.lastDelivery;
  return {
    id: w.id, url: w.url, events: w.events, linkId: w.linkId, tag: w.tag, enabled: w.enabled, disabledReason: w.disabledReason,
    disabledCause: w.enabled ? null : disabledCause(w.disabledReason), createdAt: isoTime(w.createdAt)!, status: webhookStatus(w),
    pending: w.pending, lastDelivery: last === null ? null : { at: isoTime(last.at)!, state: last.state, responseCode: last.responseCode, error: last.error },
  };
}

export function deliveryJson(d: Delivery): DeliveryJson {
  return {
    id: d.id, messageId: d.messageId, type: d.type, createdAt: isoTime(d.createdAt)!, state: d.state, attempts: d.attempts, lastAttemptAt: isoTime(d.lastAttemptAt),
    nextAttemptAt: d.state === "pending" ? isoTime(d.nextAt) : null, responseCode: d.responseCode, error: d.error,
  };
}

/** Who is asking, refused unless they may manage webhooks: before the request's body is read. */
const admin = (request: Request, server: PeerServer, deps: WebhooksDeps) => requireAllowed(request, server, deps, webhooksRefusal);

/** What a receiver is checked against, for this request (the hosts it reached this service under); null without a usable Host. */
function receiverRules(request: Request, server: PeerServer, deps: WebhooksDeps): ReceiverRules | null {
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return null;
  const rules = destinationRules(ownHostsOf(deps, base, request, server), deps);
  return { ownHosts: rules.ownHosts, isBlocked: rules.isBlocked, leave: deps.webhookLeave };
}

/** The body as JSON and the rules its receiver is checked against, or the answer refusing the request. */
async function bodyAndRules(request: Request, server: PeerServer, deps: WebhooksDeps): Promise<{ ok: true; fields: unknown; rules: ReceiverRules } | { ok: false; response: Response }> {
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  if (!body.ok) return { ok: false, response: apiError(body.status, body.code, body.error) };
  const rules = receiverRules(request, server, deps);
  return rules === null ? { ok: false, response: badHost() } : { ok: true, fields: body.value, rules };
}

const webhookId = (raw: string): number | null => (/^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null);
const noWebhook = (raw: string) => apiError(404, "not_found", `no webhook ${raw}`);

export async function handleCreateWebhook(request: Request, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const read = await bodyAndRules(request, server, deps);
  if (!read.ok) return read.response;
  return answered(deps, "adding a webhook", () => createWebhook(auth.principal, { fields: read.fields }, { ...deps, rules: read.rules }), ({ secret, ...created }) =>
    json(201, { success: true, data: { ...webhookJson(created), secret } }));
}

export async function handleListWebhooks(request: Request, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  return answered(deps, "listing webhooks", () => listWebhooks(auth.principal, null, deps), (webhooks) => json(200, { success: true, data: { webhooks: webhooks.map(webhookJson) } }));
}

export async function handleGetWebhook(request: Request, raw: string, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const id = webhookId(raw);
  if (id === null) return noWebhook(raw);
  return answered(deps, "reading a webhook", () => getWebhook(auth.principal, { id }, deps), (found) => json(200, { success: true, data: webhookJson(found) }));
}

export async function handlePatchWebhook(request: Request, raw: string, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const id = webhookId(raw);
  if (id === null) return noWebhook(raw);
  const read = await bodyAndRules(request, server, deps);
  if (!read.ok) return read.response;
  return answered(deps, "changing a webhook", () => changeWebhook(auth.principal, { id, fields: read.fields }, { ...deps, rules: read.rules }), (changed) =>
    json(200, { success: true, data: webhookJson(changed) }));
}

export async function handleDeleteWebhook(request: Request, raw: string, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const id = webhookId(raw);
  if (id === null) return noWebhook(raw);
  return answered(deps, "deleting a webhook", () => removeWebhook(auth.principal, { id }, deps), (removed) => json(200, { success: true, data: removed }));
}

export async function handleDeliveries(request: Request, raw: string, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const id = webhookId(raw);
  if (id === null) return noWebhook(raw);
  const query = new URL(request.url).searchParams;
  return answered(deps, "reading deliveries", () => listDeliveries(auth.principal, { webhookId: id, before: query.get("before"), limit: query.get("limit") }, deps), (page) =>
    json(200, { success: true, data: { deliveries: page.deliveries.map(deliveryJson), nextBefore: page.nextBefore } }));
}

export async function handleRedeliver(request: Request, rawWebhook: string, rawDelivery: string, server: PeerServer, deps: WebhooksDeps & { pokeDelivery: () => void }): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const id = webhookId(rawWebhook);
  const deliveryId = webhookId(rawDelivery);
  if (id === null || deliveryId === null) return apiError(404, "not_found", `no delivery ${rawDelivery} of webhook ${rawWebhook}`);
  return answered(deps, "queueing a redelivery", () => redeliver(auth.principal, { webhookId: id, deliveryId }, deps), (again) => json(202, { success: true, data: deliveryJson(again) }));
}
