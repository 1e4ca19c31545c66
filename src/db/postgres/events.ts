// Events in PostgreSQL (the EventStore of src/events/store.ts), shared by every instance: the
// fan-out and the expiry sweep lock their mark row, so one instance at a time does each; a
// webhook's head delivery is claimed by one conditional UPDATE (a lease), so exactly one instance
// sends it, and nobody sends the next before it is done (order per webhook). A lease of an
// instance that died runs out and the delivery is sent again (at least once).

import type { TransactionSQL } from "bun";
import { type Claimed, EXPIRY_MARK_EVERY_MS, type EventStore, type OpenClicks } from "../../events/store.ts";
import type { Delivery, EventType, OutboxEvent, StoredEvent, Webhook, WebhookWithSecret } from "../../events/types.ts";
import {
  CLAIM_SQL, DEFAULT_DOMAIN_NAME_SQL, DELIVERY_COLUMNS, DUE_SQL, EVENTS_PAGE_SQL, eventValues, EXPIRED_SQL, FINISH_SQL, groupTags, OPEN_BUNDLES_SQL, PRUNE_PAGE, PRUNE_SQL, toDelivery, toEvent, toSummary, toWebhook,
  WEBHOOK_COLUMNS, WEBHOOK_SUMMARY_SQL, webhookColumns, webhookSelect,
} from "../shared/event-rows.ts";
import { num, numbered, type Pg } from "./connect.ts";

/** Writes events inside the caller's transaction. */
export async function writeEventsIn(tx: TransactionSQL, sql: Pg, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map(eventValues);
  await tx`
    INSERT INTO events (type, link_seq, tags, at, data)
    SELECT * FROM unnest(${sql.array(rows.map((r) => r[0]), "TEXT")}::text[], ${sql.array(rows.map((r) => r[1]), "INT8")}::int8[],
                         ${sql.array(rows.map((r) => r[2]), "TEXT")}::text[], ${sql.array(rows.map((r) => r[3]), "INT8")}::int8[], ${sql.array(rows.map((r) => r[4]), "TEXT")}::text[])`;
}

const DUE = numbered(DUE_SQL);
const CLAIM = numbered(CLAIM_SQL);
const FINISH = numbered(FINISH_SQL);
const PRUNE = numbered(PRUNE_SQL);
const EXPIRED = numbered(EXPIRED_SQL);
const EVENTS_PAGE = numbered(EVENTS_PAGE_SQL);

/** `joinable`: a link.clicks bundle of the fan-out, which later clicks join until it is first sent (never a redelivery). */
function insertDelivery(tx: TransactionSQL | Pg, d: { webhookId: number; messageId: string; type: string; createdAt: number; body: string; clicks: number }, joinable: boolean) {
  return tx`INSERT INTO webhook_deliveries (webhook_id, message_id, type, created_at, body, clicks, next_at, joinable)
     VALUES (${d.webhookId}, ${d.messageId}, ${d.type}, ${d.createdAt}, ${d.body}, ${d.clicks}, ${d.createdAt}, ${joinable ? 1 : 0}) RETURNING id`;
}

export function postgresEvents(sql: Pg): EventStore {
  return {
    createWebhook: (w) => createWebhook(sql, w),
    webhooks: async () => (await sql.unsafe(`${WEBHOOK_SUMMARY_SQL} ORDER BY w.id`)).map(toSummary),
    async webhook(id) {
      const [row] = await sql.unsafe(`${WEBHOOK_SUMMARY_SQL} WHERE w.id = $1`, [id]);
      return row ? toSummary(row) : null;
    },
    updateWebhook: (id, c) => updateWebhook(sql, id, c),
    // The webhook only: its delivery log goes by prune(), a page at a time.
    removeWebhook: async (id) => (await sql`DELETE FROM webhooks WHERE id = ${id} RETURNING id`).length > 0,
    async deliveries(webhookId, before, limit) {
      const rows = await sql.unsafe(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, [webhookId, before ?? Number.MAX_SAFE_INTEGER, limit]);
      return rows.map(toDelivery);
    },
    redeliver: (webhookId, deliveryId, now) => redeliver(sql, webhookId, deliveryId, now),
    wantedTypes: () => wantedTypes(sql),
    hasEvents: async () => (await sql`SELECT 1 FROM events LIMIT 1`).length > 0,
    append: (events) => sql.begin((tx) => writeEventsIn(tx, sql, events)),
    fanOut: (plan, limit) => sql.begin((tx) => fanOutPage(sql, tx, plan, limit)),
    async due(now) {
      const rows = await sql.unsafe(DUE, [now]);
      return rows.map((r: { id: string; type: EventType }) => ({ webhookId: num(r.id), type: r.type }));
    },
    claim: (webhookId, now, leaseMs) => claim(sql, webhookId, now, leaseMs),
    async finish(d, r, lease) {
      await sql.begin(async (tx) => {
        await tx.unsafe(FINISH, [r.state, r.at, r.nextAt, r.responseCode, r.error, d.id, d.webhookId, lease ?? null]);
        if (r.disable !== null) await tx`UPDATE webhooks SET enabled = 0, disabled_reason = ${r.disable} WHERE id = ${d.webhookId}`;
      });
    },
    sweepExpired: (now, announce) => sweepExpired(sql, now, announce),
    async prune(before) {
      // In pages, each its own short statement.
      while ((await sql.unsafe(PRUNE, [before])).count === PRUNE_PAGE);
    },
  };
}

async function createWebhook(sql: Pg, w: Parameters<EventStore["createWebhook"]>[0]): Promise<WebhookWithSecret> {
  // Read back in the same statement: its link's id is joined by the seq.
  const [row] = await sql.unsafe(
    `WITH made AS (INSERT INTO webhooks (url, events, link_seq, tag, secret, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *)
     SELECT ${webhookSelect("made")} FROM made`,
    [w.url, w.events.join(" "), w.linkSeq, w.tag, w.secret, w.createdAt],
  );
  return toWebhook(row);
}

async function updateWebhook(sql: Pg, id: number, c: Parameters<EventStore["updateWebhook"]>[1]): Promise<boolean> {
  const sets = webhookColumns(c);
  if (sets.length === 0) return (await sql`SELECT 1 FROM webhooks WHERE id = ${id}`).length > 0;
  const rows = await sql.unsafe(`UPDATE webhooks SET ${sets.map(([c], i) => `${c} = $${i + 1}`).join(", ")} WHERE id = $${sets.length + 1} RETURNING id`, [...sets.map(([, v]) => v), id]);
  return rows.length > 0;
}

async function redeliver(sql: Pg, webhookId: number, deliveryId: number, now: number): Promise<Delivery | null> {
  const [old] = await sql`SELECT message_id, type, body, clicks FROM webhook_deliveries WHERE id = ${deliveryId} AND webhook_id = ${webhookId}`;
  if (!old) return null;
  const [{ id }] = await insertDelivery(sql, { webhookId, messageId: old.message_id, type: old.type, createdAt: now, body: old.body, clicks: num(old.clicks) }, false);
  const [row] = await sql.unsafe(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1`, [id]);
  return toDelivery(row);
}

async function wantedTypes(sql: Pg): Promise<EventType[]> {
  const types = new Set<string>();
  for (const r of await sql`SELECT events FROM webhooks WHERE enabled = 1`) for (const t of (r.events as string).split(" ")) types.add(t);
  return [...types] as EventType[];
}

async function fanOutPage(sql: Pg, tx: TransactionSQL, plan: Parameters<EventStore["fanOut"]>[0], limit: number): Promise<number> {
  // Another instance is fanning out: it takes these events, and this one goes on to sending.
  if ((await tx`SELECT value FROM event_marks WHERE name = 'events' FOR UPDATE SKIP LOCKED`).length === 0) return 0;
  const events: StoredEvent[] = (await tx.unsafe(EVENTS_PAGE, [limit])).map(toEvent);
  if (events.length === 0) return 0;
  const webhooks: Webhook[] = (await tx.unsafe(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE enabled = 1`)).map(toWebhook);
  const untagged = [...new Set(events.filter((e) => e.tags === null && e.linkSeq !== null).map((e) => e.linkSeq!))];
  const tagsOf =
    webhooks.some((w) => w.tag !== null) && untagged.length > 0
      ? groupTags((await tx`SELECT link_seq, tag FROM link_tags WHERE link_seq = ANY(${sql.array(untagged, "INT8")}) ORDER BY tag`) as { link_seq: string; tag: string }[], (r) => num(r.link_seq))
      : new Map<number, string[]>();
  // Locked: an instance claiming one of these for sending waits, then finds it grown.
  const open = new Map<number, OpenClicks>();
  for (const r of await tx.unsafe(`${OPEN_BUNDLES_SQL} FOR UPDATE OF d`)) {
    open.set(num(r.webhook_id), { id: num(r.id), webhookId: num(r.webhook_id), body: r.body, clicks: num(r.clicks) });
  }
  const defaultDomain = ((await tx.unsafe(DEFAULT_DOMAIN_NAME_SQL)) as { name: string }[])[0]?.name ?? null;
  const planned = plan({ events, webhooks, tagsOf, open, defaultDomain });
  // One statement for the page (a backlog of a bulk import's link.created is thousands of rows).
  const rows = planned.inserts;
  if (rows.length > 0) {
    await tx`
      INSERT INTO webhook_deliveries (webhook_id, message_id, type, created_at, body, clicks, next_at, joinable)
      SELECT w, m, t, c, b, n, c, j FROM unnest(${sql.array(rows.map((d) => d.webhookId), "INT8")}::int8[], ${sql.array(rows.map((d) => d.messageId), "TEXT")}::text[],
                                         ${sql.array(rows.map((d) => d.type), "TEXT")}::text[], ${sql.array(rows.map((d) => d.createdAt), "INT8")}::int8[],
                                         ${sql.array(rows.map((d) => d.body), "TEXT")}::text[], ${sql.array(rows.map((d) => d.clicks), "INT8")}::int8[],
                                         ${sql.array(rows.map((d) => (d.type === "link.clicks" ? 1 : 0)), "INT2")}::int2[])
        WITH ORDINALITY AS v(w, m, t, c, b, n, j, o)
      ORDER BY o`;
  }
  for (const g of planned.grown) await tx`UPDATE webhook_deliveries SET body = ${g.body}, clicks = ${g.clicks} WHERE id = ${g.id}`;
  await tx`DELETE FROM events WHERE seq = ANY(${sql.array(events.map((e) => e.seq), "INT8")})`;
  return events.length;
}

async function claim(sql: Pg, webhookId: number, now: number, leaseMs: number): Promise<Claimed | null> {
  const [row] = await sql.unsafe(CLAIM, [webhookId, leaseMs, now]);
  if (!row) return null;
  const [hook] = await sql.unsafe(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1 AND enabled = 1`, [webhookId]);
  if (!hook) return null;
  return { delivery: toDelivery(row), body: row.body as string, webhook: toWebhook(hook), lease: now + leaseMs };
}

async function sweepExpired(sql: Pg, now: number, announce: Parameters<EventStore["sweepExpired"]>[1]): Promise<number> {
  // A read first: a tick with nothing expired locks nothing (the mark moves once a minute).
  const [peek] = await sql`SELECT value FROM event_marks WHERE name = 'expiry'`;
  if (now - num(peek.value) < EXPIRY_MARK_EVERY_MS && (await sql.unsafe(`${EXPIRED} LIMIT 1`, [num(peek.value), now])).length === 0) return 0;
  return sql.begin(async (tx) => {
    const [mark] = await tx`SELECT value FROM event_marks WHERE name = 'expiry' FOR UPDATE`;
    const after = num(mark.value);
    if (now <= after) return 0;
    const rows = await tx.unsafe(EXPIRED, [after, now]);
    if (rows.length > 0) {
      const tags = groupTags((await tx`SELECT link_seq, tag FROM link_tags WHERE link_seq = ANY(${sql.array(rows.map((r: { seq: string }) => num(r.seq)), "INT8")}) ORDER BY tag`) as { link_seq: string; tag: string }[], (r) => num(r.link_seq));
      await writeEventsIn(tx, sql, announce(rows.map((r: { seq: string; id: string; expires_at: string }) => ({ seq: num(r.seq), id: r.id, tags: tags.get(num(r.seq)) ?? [], expiresAt: num(r.expires_at) }))));
    }
    await tx`UPDATE event_marks SET value = ${now} WHERE name = 'expiry'`;
    return rows.length;
  });
}
