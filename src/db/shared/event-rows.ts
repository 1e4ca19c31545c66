// How both engines' event rows read as the domain's shapes (src/events/types.ts), and the SQL both
// run alike. PostgreSQL's int8 columns arrive as strings: every number goes through num().

import type { WebhookChanges } from "../../events/store.ts";
import type { Delivery, DeliveryState, EventType, StoredEvent, WebhookSummary, WebhookWithSecret } from "../../events/types.ts";

const num = (v: unknown): number => (typeof v === "number" ? v : Number(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));

export const WEBHOOK_COLUMNS = "id, url, events, link_id, tag, secret, enabled, disabled_reason, created_at";
/** With the list's summary: deliveries waiting, and the last one tried. */
export const WEBHOOK_SUMMARY_SQL = `
  SELECT ${WEBHOOK_COLUMNS.split(", ").map((c) => `w.${c}`).join(", ")},
    (SELECT COUNT(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.state = 'pending') AS pending,
    l.last_attempt_at AS last_at, l.state AS last_state, l.response_code AS last_code
  FROM webhooks w
  LEFT JOIN webhook_deliveries l ON l.id = (SELECT MAX(id) FROM webhook_deliveries x WHERE x.webhook_id = w.id AND x.attempts > 0)`;
export const DELIVERY_COLUMNS = "id, webhook_id, message_id, type, created_at, state, attempts, first_attempt_at, last_attempt_at, next_at, response_code, error";

export function toWebhook(r: Record<string, unknown>): WebhookWithSecret {
  return {
    id: num(r.id), url: r.url as string, events: (r.events as string).split(" ").filter(Boolean) as EventType[], linkId: (r.link_id as string | null) ?? null,
    tag: (r.tag as string | null) ?? null, secret: r.secret as string, enabled: num(r.enabled) === 1, disabledReason: (r.disabled_reason as string | null) ?? null,
    createdAt: num(r.created_at),
  };
}

export function toSummary(r: Record<string, unknown>): WebhookSummary {
  const { secret: _, ...webhook } = toWebhook(r);
  const lastAt = numOrNull(r.last_at);
  return { ...webhook, pending: num(r.pending), lastDelivery: lastAt === null ? null : { at: lastAt, state: r.last_state as DeliveryState, responseCode: numOrNull(r.last_code) } };
}

export function toDelivery(r: Record<string, unknown>): Delivery {
  return {
    id: num(r.id), webhookId: num(r.webhook_id), messageId: r.message_id as string, type: r.type as EventType, createdAt: num(r.created_at),
    state: r.state as DeliveryState, attempts: num(r.attempts), firstAttemptAt: numOrNull(r.first_attempt_at), lastAttemptAt: numOrNull(r.last_attempt_at),
    nextAt: num(r.next_at), responseCode: numOrNull(r.response_code), error: (r.error as string | null) ?? null,
  };
}

export function toEvent(r: Record<string, unknown>): StoredEvent {
  return {
    seq: num(r.seq), type: r.type as EventType, linkId: (r.link_id as string | null) ?? null, tags: r.tags === null ? null : (r.tags as string).split(" ").filter(Boolean),
    at: num(r.at), data: r.data as string,
  };
}

/** The outbox row's columns: type, link_id, tags, at, data. */
export function eventValues(e: { type: string; linkId: string | null; tags: readonly string[] | null; at: number; data: string }): [string, string | null, string | null, number, string] {
  return [e.type, e.linkId, e.tags === null ? null : e.tags.join(" "), e.at, e.data];
}

/** The columns a webhook's change sets, and their values (both engines' UPDATE). */
export function webhookColumns(c: WebhookChanges): [string, string | number | null][] {
  const sets: [string, string | number | null][] = [];
  if (c.url !== undefined) sets.push(["url", c.url]);
  if (c.events !== undefined) sets.push(["events", c.events.join(" ")]);
  if (c.linkId !== undefined) sets.push(["link_id", c.linkId]);
  if (c.tag !== undefined) sets.push(["tag", c.tag]);
  if (c.enabled !== undefined) sets.push(["enabled", c.enabled ? 1 : 0]);
  if (c.disabledReason !== undefined) sets.push(["disabled_reason", c.disabledReason]);
  return sets;
}
