// /api/webhooks (docs/webhooks.md: Webhooks): admins only, since a webhook hears about every link. The
// secret is answered once, by the create; never listed, never logged.

import type { Config } from "../config.ts";
import type { Blocklist } from "../links/blocklist.ts";
import type { EventStore, WebhookChanges } from "../events/store.ts";
import { parseWebhookFields } from "../events/webhook-fields.ts";
import { checkWebhookName } from "../events/webhook-url.ts";
import type { WebhookLeave } from "../events/webhook-leave.ts";
import { newSecret } from "../events/signing.ts";
import { disabledCause, webhookStatus, type Delivery, type WebhookSummary } from "../events/types.ts";
import { isoTime } from "../util/day.ts";
import { requireAdmin, type AuthDeps } from "./auth.ts";
import { logAction } from "./audit.ts";
import { MAX_BODY_BYTES, readJsonBody } from "./form-body.ts";
import { destinationRules } from "./destination-rules.ts";
import { publicBase, type PeerServer } from "./request-origin.ts";
import { apiError, badHost, fieldErrors, json } from "./responses.ts";
import type { WebhookJson, DeliveryJson } from "../api/types.ts";
import type { ClickRecorder } from "../visits/recorder.ts";
import { storageUnavailable } from "./storage-failure.ts";

export type WebhooksDeps = AuthDeps & {
  config: Pick<Config, "host" | "port" | "allowLoopbackDestinations" | "baseUrl">;
  blocklist: () => Blocklist;
  events: EventStore;
  /** told when webhooks changed here: the answer waits until the next change writes their events */
  webhooksChanged: () => Promise<void>;
  recorder: Pick<ClickRecorder, "hurry">;
  /** Whether webhooks may post to special-purpose addresses: this service's flag and the other instances' (src/events/webhook-leave.ts). */
  webhookLeave: () => Promise<WebhookLeave>;
};

/** A write the database refused (disk full, read-only; SQLite's busy lock is retried by its adapters): a 503. */
async function written<T>(deps: WebhooksDeps, what: string, write: () => T | Promise<T>): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
  try {
    return { ok: true, value: await write() };
  } catch (err) {
    return { ok: false, response: storageUnavailable(err, deps.log, what) };
  }
}

const DELIVERY_PAGE = 50;

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

const ADMIN_ONLY = "webhooks need an admin: they hear about every link";

/** The body's fields checked as a create (all needed) or a change takes them, or the answer refusing them. */
async function bodyFields(request: Request, server: PeerServer, deps: WebhooksDeps, creating: boolean): Promise<{ ok: true; fields: WebhookChanges } | { ok: false; response: Response }> {
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  if (!body.ok) return { ok: false, response: apiError(body.status, body.code, body.error) };
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return { ok: false, response: badHost() };
  const rules = destinationRules(deps, base, request, server);
  const leave = await deps.webhookLeave();
  const parsed = parseWebhookFields(body.value, { ownHosts: rules.ownHosts, isBlocked: rules.isBlocked, leave }, creating);
  if (!parsed.ok) return { ok: false, response: "malformed" in parsed ? apiError(400, "bad_request", parsed.malformed) : fieldErrors(parsed.problems) };
  // A name is judged by what it resolves to as well, as the sender will judge it.
  const named = parsed.fields.url === undefined ? null : await checkWebhookName(parsed.fields.url, leave);
  if (named !== null && !named.ok) return { ok: false, response: fieldErrors([{ code: named.code, field: "url", error: named.error }]) };
  return parsed;
}

const webhookId = (raw: string): number | null => (/^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null);
const noWebhook = (raw: string) => apiError(404, "not_found", `no webhook ${raw}`);

export async function handleCreateWebhook(request: Request, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await requireAdmin(request, server, deps, ADMIN_ONLY);
  if (!auth.ok) return auth.response;
  const parsed = await bodyFields(request, server, deps, true);
  if (!parsed.ok) return parsed.response;
  const f = parsed.fields;
  const made = await written(deps, "adding a webhook", () => deps.events.createWebhook({ url: f.url!, events: f.events!, linkId: f.linkId ?? null, tag: f.tag ?? null, secret: newSecret(), createdAt: deps.now() }));
  if (!made.ok) return made.response;
  const { secret, ...created } = made.value;
  await deps.webhooksChanged();
  // The host only: a webhook's path is often its credential (Slack's, n8n's), and logs travel further than the database.
  logAction(deps.log, auth.principal, "webhook-create", String(created.id), `ok ${new URL(created.url).host} ${created.events.join(",")}`);
  // New: nothing waits and nothing was tried yet.
  return json(201, { success: true, data: { ...webhookJson({ ...created, pending: 0, lastDelivery: null }), secret } });
}

export async function handleListWebhooks(request: Request, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await requireAdmin(request, server, deps, ADMIN_ONLY);
  if (!auth.ok) return auth.response;
  return json(200, { success: true, data: { webhooks: (await deps.events.webhooks()).map(webhookJson) } });
}

export async function handleGetWebhook(request: Request, raw: string, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await requireAdmin(request, server, deps, ADMIN_ONLY);
  if (!auth.ok) return auth.response;
  const id = webhookId(raw);
  const found = id === null ? null : await deps.events.webhook(id);
  return found === null ? noWebhook(raw) : json(200, { success: true, data: webhookJson(found) });
}

export async function handlePatchWebhook(request: Request, raw: string, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await requireAdmin(request, server, deps, ADMIN_ONLY);
  if (!auth.ok) return auth.response;
  const id = webhookId(raw);
  if (id === null) return noWebhook(raw);
  const parsed = await bodyFields(request, server, deps, false);
  if (!parsed.ok) return parsed.response;
  const updated = await written(deps, "changing a webhook", () => deps.events.updateWebhook(id, parsed.fields));
  if (!updated.ok) return updated.response;
  if (!updated.value) return noWebhook(raw);
  await deps.webhooksChanged();
  logAction(deps.log, auth.principal, "webhook-update", String(id), `ok ${Object.keys(parsed.fields).filter((k) => k !== "disabledReason").join(",")}`);
  return json(200, { success: true, data: webhookJson((await deps.events.webhook(id))!) });
}

export async function handleDeleteWebhook(request: Request, raw: string, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await requireAdmin(request, server, deps, ADMIN_ONLY);
  if (!auth.ok) return auth.response;
  const id = webhookId(raw);
  if (id === null) return noWebhook(raw);
  const removed = await written(deps, "deleting a webhook", () => deps.events.removeWebhook(id));
  if (!removed.ok) return removed.response;
  if (!removed.value) return noWebhook(raw);
  await deps.webhooksChanged();
  logAction(deps.log, auth.principal, "webhook-delete", String(id), "ok");
  return json(200, { success: true, data: { id, deleted: true } });
}

export async function handleDeliveries(request: Request, raw: string, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await requireAdmin(request, server, deps, ADMIN_ONLY);
  if (!auth.ok) return auth.response;
  const id = webhookId(raw);
  if (id === null || (await deps.events.webhook(id)) === null) return noWebhook(raw);
  const query = new URL(request.url).searchParams;
  const before = query.get("before");
  if (before !== null && webhookId(before) === null) return apiError(400, "bad_request", "before must be a delivery's id", "cursor");
  const limitText = query.get("limit");
  const limit = limitText === null ? DELIVERY_PAGE : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) return apiError(400, "bad_request", "limit must be 1 to 200", "limit");
  const page = await deps.events.deliveries(id, before === null ? null : Number(before), limit);
  return json(200, { success: true, data: { deliveries: page.map(deliveryJson), nextBefore: page.length === limit ? page[page.length - 1]!.id : null } });
}

export async function handleRedeliver(request: Request, rawWebhook: string, rawDelivery: string, server: PeerServer, deps: WebhooksDeps & { pokeDelivery: () => void }): Promise<Response> {
  const auth = await requireAdmin(request, server, deps, ADMIN_ONLY);
  if (!auth.ok) return auth.response;
  const id = webhookId(rawWebhook);
  const deliveryId = webhookId(rawDelivery);
  if (id === null || deliveryId === null) return apiError(404, "not_found", `no delivery ${rawDelivery} of webhook ${rawWebhook}`);
  const queued = await written(deps, "queueing a redelivery", () => deps.events.redeliver(id, deliveryId, deps.now()));
  if (!queued.ok) return queued.response;
  const again = queued.value;
  if (again === null) return apiError(404, "not_found", `no delivery ${rawDelivery} of webhook ${rawWebhook}`);
  deps.pokeDelivery();
  logAction(deps.log, auth.principal, "webhook-redeliver", String(id), `ok ${again.messageId}`);
  return json(202, { success: true, data: deliveryJson(again) });
}
