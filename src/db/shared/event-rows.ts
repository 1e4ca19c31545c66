// How both engines' event rows read as the domain's shapes (src/events/types.ts), and the SQL both
// run alike. PostgreSQL's int8 columns arrive as strings: every number goes through num().

import type { WebhookChanges } from "../../events/store.ts";
import type { Delivery, DeliveryState, EventType, OutboxEvent, StoredEvent, WebhookSummary, WebhookWithSecret } from "../../events/types.ts";

const num = (v: unknown): number => (typeof v === "number" ? v : Number(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));

/**
 * The id of the link whose seq `seq` (an SQL expression) is: the link's, or a deleted link's retired
 * id, so that a webhook or an event of a deleted link still names it (docs/webhooks.md: Webhooks,
 * "Events"). Both are found by index: links by their key, retired ids by their unique seq.
 */
const linkIdOf = (seq: string) => `COALESCE((SELECT id FROM links WHERE seq = ${seq}), (SELECT id FROM retired_ids WHERE seq = ${seq}))`;

/** The stored domain of the link whose seq `seq` is ('' the default's), a deleted link's from its retired id. */
const linkDomainOf = (seq: string) => `COALESCE((SELECT domain FROM links WHERE seq = ${seq}), (SELECT domain FROM retired_ids WHERE seq = ${seq}))`;

/** The default domain's name when a row names it (else --base-url's host, or none: src/events/event-domains.ts). */
export const DEFAULT_DOMAIN_NAME_SQL = "SELECT name FROM domains WHERE is_default = 1";

/** A webhook row's columns, `w` the webhooks table's name in the query, with its link's id read back by the seq. */
export const webhookSelect = (w: string) =>
  ["id", "url", "events", "link_seq", `${linkIdOf(`${w}.link_seq`)} AS link_id`, "tag", "secret", "enabled", "disabled_reason", "created_at"]
    .map((c) => (c.includes(" AS ") ? c : `${w}.${c}`)).join(", ");
export const WEBHOOK_COLUMNS = webhookSelect("webhooks");
/** With the list's summary: deliveries waiting, and the last one tried. */
export const WEBHOOK_SUMMARY_SQL = `
  SELECT ${webhookSelect("w")},
    (SELECT COUNT(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.state = 'pending') AS pending,
    l.last_attempt_at AS last_at, l.state AS last_state, l.response_code AS last_code, l.error AS last_error
  FROM webhooks w
  LEFT JOIN webhook_deliveries l ON l.id = (SELECT MAX(id) FROM webhook_deliveries x WHERE x.webhook_id = w.id AND x.attempts > 0)`;
export const DELIVERY_COLUMNS = "id, webhook_id, message_id, type, created_at, state, attempts, first_attempt_at, last_attempt_at, next_at, response_code, error";

// The queue's rules, once for both engines (PostgreSQL's through numbered(): ?1 is $1).

/** A webhook's head: its oldest pending delivery (order per webhook: nothing is sent past it). */
const HEAD_OF = (webhook: string) => `(SELECT id FROM webhook_deliveries WHERE webhook_id = ${webhook} AND state = 'pending' ORDER BY id LIMIT 1)`;
/** ?1 now: enabled webhooks whose head is due and not claimed, with its type. */
export const DUE_SQL = `SELECT w.id, d.type FROM webhooks w JOIN webhook_deliveries d ON d.id = ${HEAD_OF("w.id")}
  WHERE w.enabled = 1 AND d.next_at <= ?1 AND d.claimed_until <= ?1`;
/**
 * ?1 webhook, ?2 lease ms, ?3 now: claims the head if it is due and free. PostgreSQL re-checks the
 * WHERE on the row after waiting for its lock: of two instances claiming at once, one gets it.
 */
export const CLAIM_SQL = `UPDATE webhook_deliveries SET claimed_until = ?3 + ?2
  WHERE id = ${HEAD_OF("?1")} AND state = 'pending' AND next_at <= ?3 AND claimed_until <= ?3
  RETURNING ${DELIVERY_COLUMNS}, body`;
/** ?1 state, ?2 at, ?3 next at, ?4 response code, ?5 error, ?6 delivery, ?7 webhook, ?8 lease or NULL: an attempt, recorded only while its claim holds. */
export const FINISH_SQL = `UPDATE webhook_deliveries SET state = ?1, attempts = attempts + 1, first_attempt_at = COALESCE(first_attempt_at, ?2), last_attempt_at = ?2,
    next_at = ?3, response_code = ?4, error = ?5, claimed_until = 0
  WHERE id = ?6 AND webhook_id = ?7 AND (CAST(?8 AS BIGINT) IS NULL OR claimed_until = ?8)`;
/** Each enabled webhook's newest delivery, when later clicks may still join it: a fan-out bundle never sent nor claimed. */
export const OPEN_BUNDLES_SQL = `SELECT d.id, d.webhook_id, d.body, d.clicks FROM webhooks w
  JOIN webhook_deliveries d ON d.id = (SELECT MAX(id) FROM webhook_deliveries WHERE webhook_id = w.id)
  WHERE w.enabled = 1 AND d.joinable = 1 AND d.state = 'pending' AND d.attempts = 0 AND d.claimed_until = 0`;
/** Deliveries one prune statement deletes at most: a week of a busy webhook's log is gigabytes. */
export const PRUNE_PAGE = 1_000;
/** ?1 cut: a page of the log past its 7 days (no longer pending), or of removed webhooks. */
export const PRUNE_SQL = `DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries
  WHERE (created_at < ?1 AND state <> 'pending') OR webhook_id NOT IN (SELECT id FROM webhooks) LIMIT ${PRUNE_PAGE})`;
/** The outbox's oldest events (?1 of them), each with its link's id and stored domain read back by the seq. */
export const EVENTS_PAGE_SQL = `SELECT seq, type, link_seq, ${linkIdOf("events.link_seq")} AS link_id, ${linkDomainOf("events.link_seq")} AS link_domain, tags, at, data FROM events ORDER BY seq LIMIT ?1`;
/** ?1 mark, ?2 now: links that expired since the mark. */
export const EXPIRED_SQL = "SELECT seq, id, expires_at FROM links WHERE expires_at > ?1 AND expires_at <= ?2";

/** Rows of (key, tag) as each key's tags. */
export function groupTags<R extends { tag: string }, K>(rows: Iterable<R>, keyOf: (row: R) => K): Map<K, string[]> {
  const out = new Map<K, string[]>();
  for (const r of rows) {
    const key = keyOf(r);
    const list = out.get(key);
    if (list) list.push(r.tag);
    else out.set(key, [r.tag]);
  }
  return out;
}

export function toWebhook(r: Record<string, unknown>): WebhookWithSecret {
  return {
    id: num(r.id), url: r.url as string, events: (r.events as string).split(" ").filter(Boolean) as EventType[], linkSeq: numOrNull(r.link_seq), linkId: (r.link_id as string | null) ?? null,
    tag: (r.tag as string | null) ?? null, secret: r.secret as string, enabled: num(r.enabled) === 1, disabledReason: (r.disabled_reason as string | null) ?? null,
    createdAt: num(r.created_at),
  };
}

export function toSummary(r: Record<string, unknown>): WebhookSummary {
  const { secret: _, ...webhook } = toWebhook(r);
  const lastAt = numOrNull(r.last_at);
  return { ...webhook, pending: num(r.pending), lastDelivery: lastAt === null ? null : { at: lastAt, state: r.last_state as DeliveryState, responseCode: numOrNull(r.last_code), error: (r.last_error as string | null) ?? null } };
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
    seq: num(r.seq), type: r.type as EventType, linkSeq: numOrNull(r.link_seq), linkId: (r.link_id as string | null) ?? null, linkDomain: (r.link_domain as string | null) ?? null,
    tags: r.tags === null ? null : (r.tags as string).split(" ").filter(Boolean),
    at: num(r.at), data: r.data as string,
  };
}

/** The outbox row's columns: type, link_seq, tags, at, data (the link's id is not stored: it is read back by the seq). */
export function eventValues(e: Pick<OutboxEvent, "type" | "linkSeq" | "tags" | "at" | "data">): [string, number | null, string | null, number, string] {
  return [e.type, e.linkSeq, e.tags === null ? null : e.tags.join(" "), e.at, e.data];
}

/** The columns a webhook's change sets, and their values (both engines' UPDATE). */
export function webhookColumns(c: WebhookChanges): [string, string | number | null][] {
  const sets: [string, string | number | null][] = [];
  if (c.url !== undefined) sets.push(["url", c.url]);
  if (c.events !== undefined) sets.push(["events", c.events.join(" ")]);
  if (c.linkSeq !== undefined) sets.push(["link_seq", c.linkSeq]);
  if (c.tag !== undefined) sets.push(["tag", c.tag]);
  if (c.enabled !== undefined) sets.push(["enabled", c.enabled ? 1 : 0]);
  if (c.disabledReason !== undefined) sets.push(["disabled_reason", c.disabledReason]);
  return sets;
}
