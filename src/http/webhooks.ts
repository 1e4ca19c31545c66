// /api/webhooks (README: Webhooks): admins only, since a webhook hears about every link. The
// secret is answered once, by the create; never listed, never logged.

import type { Config } from "../config.ts";
import type { Blocklist } from "../links/blocklist.ts";
import type { EventStore } from "../events/store.ts";
import { parseWebhookFields } from "../events/webhook-fields.ts";
import { newSecret } from "../events/signing.ts";
import type { Delivery, WebhookSummary } from "../events/types.ts";
import type { WebhookUrlRules } from "../events/addresses.ts";
import { isoTime } from "../util/day.ts";
import { requirePrincipal, type AuthDeps, type Principal } from "./auth.ts";
import { logAction } from "./audit.ts";
import { mediaType, MAX_BODY_BYTES, readBodyText } from "./form-body.ts";
import { destinationRules } from "./destination-rules.ts";
import { publicBase, type PeerServer } from "./request-origin.ts";
import { apiError, badHost, fieldErrors, json } from "./responses.ts";
import type { WebhookJson, DeliveryJson } from "../api/types.ts";
import type { ClickRecorder } from "../visits/recorder.ts";
import { retryWhileBusy, storageUnavailable } from "./write-retry.ts";

export type WebhooksDeps = AuthDeps & {
  config: Pick<Config, "host" | "port" | "allowLoopbackDestinations" | "webhookAllowPrivate" | "baseUrl">;
  blocklist: () => Blocklist;
  events: EventStore;
  /** told when webhooks changed here: the answer waits until the next change writes their events */
  webhooksChanged: () => Promise<void>;
  recorder: Pick<ClickRecorder, "hurry">;
};

/** A write of the click thread's connection, which does not wait for SQLite's write lock (write-retry.ts); a refused one is a 503. */
async function written<T>(deps: WebhooksDeps, what: string, write: () => T | Promise<T>): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
  try {
    return { ok: true, value: await retryWhileBusy(write, deps.recorder.hurry) };
  } catch (err) {
    return { ok: false, response: storageUnavailable(err, deps.log, what) };
  }
}

const DELIVERY_PAGE = 50;

export function webhookJson(w: WebhookSummary): WebhookJson {
  return {
    id: w.id, url: w.url, events: w.events, linkId: w.linkId, tag: w.tag, enabled: w.enabled, disabledReason: w.disabledReason, createdAt: isoTime(w.createdAt)!,
    pending: w.pending, lastDelivery: w.lastDelivery === null ? null : { at: isoTime(w.lastDelivery.at)!, state: w.lastDelivery.state, responseCode: w.lastDelivery.responseCode },
  };
}

export function deliveryJson(d: Delivery): DeliveryJson {
  return {
    id: d.id, messageId: d.messageId, type: d.type, createdAt: isoTime(d.createdAt)!, state: d.state, attempts: d.attempts, lastAttemptAt: isoTime(d.lastAttemptAt),
    nextAttemptAt: d.state === "pending" ? isoTime(d.nextAt) : null, responseCode: d.responseCode, error: d.error,
  };
}

/** The admin asking, or the answer refusing them. */
async function admin(request: Request, server: PeerServer, deps: WebhooksDeps): Promise<{ ok: true; principal: Principal } | { ok: false; response: Response }> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth;
  if (auth.principal.scope !== "admin") return { ok: false, response: apiError(403, "admin_only", "webhooks need an admin: they hear about every link") };
  return auth;
}

async function readJson(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  if (mediaType(request) !== "application/json") return { ok: false, response: apiError(415, "unsupported_media_type", "send application/json") };
  const body = await readBodyText(request, MAX_BODY_BYTES);
  if (!body.ok) return { ok: false, response: apiError(body.status, body.code, body.error) };
  try {
    return { ok: true, value: JSON.parse(body.text) };
  } catch {
    return { ok: false, response: apiError(400, "bad_request", "the body is not JSON") };
  }
}

function urlRules(request: Request, server: PeerServer, deps: WebhooksDeps): WebhookUrlRules | null {
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return null;
  const rules = destinationRules(deps, base, request, server);
  return { ownHosts: rules.ownHosts, isBlocked: rules.isBlocked, allowPrivate: deps.config.webhookAllowPrivate };
}

const changed = (deps: WebhooksDeps) => deps.webhooksChanged();

const webhookId = (raw: string): number | null => (/^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null);
const noWebhook = (raw: string) => apiError(404, "not_found", `no webhook ${raw}`);

export async function handleCreateWebhook(request: Request, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const rules = urlRules(request, server, deps);
  if (rules === null) return badHost();
  const parsed = parseWebhookFields(body.value, rules, true);
  if (!parsed.ok) return "malformed" in parsed ? apiError(400, "bad_request", parsed.malformed) : fieldErrors(parsed.problems);
  const f = parsed.fields;
  const made = await written(deps, "adding a webhook", () => deps.events.createWebhook({ url: f.url!, events: f.events!, linkId: f.linkId ?? null, tag: f.tag ?? null, secret: newSecret(), createdAt: deps.now() }));
  if (!made.ok) return made.response;
  const created = made.value;
  await changed(deps);
  // The host only: a webhook's path is often its credential (Slack's, n8n's), and logs travel further than the database.
  logAction(deps.log, auth.principal, "webhook-create", String(created.id), `ok ${new URL(created.url).host} ${created.events.join(",")}`);
  const summary = (await deps.events.webhook(created.id))!;
  return json(201, { success: true, data: { ...webhookJson(summary), secret: created.secret } });
}

export async function handleListWebhooks(request: Request, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  return json(200, { success: true, data: { webhooks: (await deps.events.webhooks()).map(webhookJson) } });
}

export async function handleGetWebhook(request: Request, raw: string, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const id = webhookId(raw);
  const found = id === null ? null : await deps.events.webhook(id);
  return found === null ? noWebhook(raw) : json(200, { success: true, data: webhookJson(found) });
}

export async function handlePatchWebhook(request: Request, raw: string, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const id = webhookId(raw);
  if (id === null) return noWebhook(raw);
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const rules = urlRules(request, server, deps);
  if (rules === null) return badHost();
  const parsed = parseWebhookFields(body.value, rules, false);
  if (!parsed.ok) return "malformed" in parsed ? apiError(400, "bad_request", parsed.malformed) : fieldErrors(parsed.problems);
  const updated = await written(deps, "changing a webhook", () => deps.events.updateWebhook(id, parsed.fields));
  if (!updated.ok) return updated.response;
  if (!updated.value) return noWebhook(raw);
  await changed(deps);
  logAction(deps.log, auth.principal, "webhook-update", String(id), `ok ${Object.keys(parsed.fields).filter((k) => k !== "disabledReason").join(",")}`);
  return json(200, { success: true, data: webhookJson((await deps.events.webhook(id))!) });
}

export async function handleDeleteWebhook(request: Request, raw: string, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const id = webhookId(raw);
  if (id === null) return noWebhook(raw);
  const removed = await written(deps, "deleting a webhook", () => deps.events.removeWebhook(id));
  if (!removed.ok) return removed.response;
  if (!removed.value) return noWebhook(raw);
  await changed(deps);
  logAction(deps.log, auth.principal, "webhook-delete", String(id), "ok");
  return json(200, { success: true, data: { id, deleted: true } });
}

export async function handleDeliveries(request: Request, raw: string, server: PeerServer, deps: WebhooksDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
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
  const auth = await admin(request, server, deps);
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
