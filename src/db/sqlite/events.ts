// Events in SQLite (the EventStore of src/events/store.ts), and the outbox insert that a link's
// write and a batch of visits make in their own transactions. One process owns the file: the
// claims only keep its own sends apart.

import type { Database } from "bun:sqlite";
import { EXPIRY_MARK_EVERY_MS, type EventStore, type OpenClicks } from "../../events/store.ts";
import type { EventType, OutboxEvent } from "../../events/types.ts";
import type { Synchronous } from "../../util/maybe.ts";
import {
  CLAIM_SQL, DEFAULT_DOMAIN_NAME_SQL, DELIVERY_COLUMNS, DUE_SQL, EVENTS_PAGE_SQL, eventValues, EXPIRED_SQL, FINISH_SQL, groupTags, OPEN_BUNDLES_SQL, PRUNE_PAGE, PRUNE_SQL, toDelivery, toEvent, toSummary, toWebhook,
  WEBHOOK_COLUMNS, WEBHOOK_SUMMARY_SQL, webhookColumns,
} from "../shared/event-rows.ts";

/** Writes events inside the caller's transaction. */
export function outboxWriter(db: Database): (events: readonly OutboxEvent[]) => void {
  const insert = db.query<void, ReturnType<typeof eventValues>>("INSERT INTO events (type, link_seq, tags, at, data) VALUES (?, ?, ?, ?, ?)");
  return (events) => {
    for (const e of events) insert.run(...eventValues(e));
  };
}

/** The statements and transactions the methods share, prepared once per connection. */
function prepare(db: Database) {
  return {
    db,
    write: outboxWriter(db),
    summaries: db.query<Record<string, unknown>, []>(`${WEBHOOK_SUMMARY_SQL} ORDER BY w.id`),
    summary: db.query<Record<string, unknown>, [number]>(`${WEBHOOK_SUMMARY_SQL} WHERE w.id = ?`),
    enabled: db.query<Record<string, unknown>, []>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE enabled = 1`),
    eventsPage: db.query<Record<string, unknown>, [number]>(EVENTS_PAGE_SQL),
    tagsBySeq: db.query<{ link_seq: number; tag: string }, [string]>("SELECT link_seq, tag FROM link_tags WHERE link_seq IN (SELECT value FROM json_each(?)) ORDER BY tag"),
    mark: db.query<{ value: number }, [string]>("SELECT value FROM event_marks WHERE name = ?"),
    setMark: db.query<void, [number, string]>("UPDATE event_marks SET value = ? WHERE name = ?"),
    deliveryById: db.query<Record<string, unknown>, [number, number]>(`SELECT ${DELIVERY_COLUMNS}, body FROM webhook_deliveries WHERE id = ? AND webhook_id = ?`),
    insertDelivery: db.query<{ id: number }, [number, string, string, number, string, number, number, number]>(
      "INSERT INTO webhook_deliveries (webhook_id, message_id, type, created_at, body, clicks, next_at, joinable) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    ),
    expired: db.query<{ seq: number; id: string; expires_at: number }, [number, number]>(EXPIRED_SQL),
  };
}

type Prepared = ReturnType<typeof prepare>;

export function sqliteEvents(db: Database): Synchronous<EventStore> {
  const s = prepare(db);
  const fanOut = db.transaction((plan: Parameters<EventStore["fanOut"]>[0], limit: number) => fanOutPage(s, plan, limit));
  const sweep = db.transaction((now: number, announce: Parameters<EventStore["sweepExpired"]>[1]) => sweepPage(s, now, announce));
  return {
    createWebhook: (w) => createWebhook(db, w),
    webhooks: () => s.summaries.all().map(toSummary),
    webhook(id) {
      const row = s.summary.get(id);
      return row ? toSummary(row) : null;
    },
    updateWebhook: (id, c) => updateWebhook(db, id, c),
    // The webhook only: its delivery log (up to a week of bodies) goes by prune(), a page at a
    // time, rather than in one long write on the click thread's connection.
    removeWebhook: (id) => db.query<void, [number]>("DELETE FROM webhooks WHERE id = ?").run(id).changes > 0,
    deliveries: (webhookId, before, limit) => deliveries(db, webhookId, before, limit),
    redeliver: (webhookId, deliveryId, now) => redeliver(s, webhookId, deliveryId, now),
    wantedTypes: () => wantedTypes(db),
    hasEvents: () => db.query<{ one: number }, []>("SELECT 1 AS one FROM events LIMIT 1").get() !== null,
    append(events) {
      db.transaction(() => s.write(events)).immediate();
    },
    fanOut: (plan, limit) => fanOut.immediate(plan, limit),
    due: (now) => db.query<{ id: number; type: EventType }, [number]>(DUE_SQL).all(now).map((r) => ({ webhookId: r.id, type: r.type })),
    claim: (webhookId, now, leaseMs) => claim(db, webhookId, now, leaseMs),
    finish: (d, r, lease) => finish(db, d, r, lease),
    sweepExpired(now, announce) {
      // A read first: a tick with nothing expired takes no write lock (the mark moves once a minute).
      const after = s.mark.get("expiry")!.value;
      if (now - after < EXPIRY_MARK_EVERY_MS && s.expired.get(after, now) === null) return 0;
      return sweep.immediate(now, announce);
    },
    prune(before) {
      // In pages, each its own short write.
      const page = db.query<void, [number]>(PRUNE_SQL);
      while (page.run(before).changes === PRUNE_PAGE);
    },
  };
}

type Store = Synchronous<EventStore>;

// Events fanned out are deleted: the outbox holds only what is still to be fanned out.
function fanOutPage(s: Prepared, plan: Parameters<EventStore["fanOut"]>[0], limit: number): number {
  const { db } = s;
  const events = s.eventsPage.all(limit).map(toEvent);
  if (events.length === 0) return 0;
  const webhooks = s.enabled.all().map(toWebhook);
  const untagged = [...new Set(events.filter((e) => e.tags === null && e.linkSeq !== null).map((e) => e.linkSeq!))];
  const tagsOf =
    webhooks.some((w) => w.tag !== null) && untagged.length > 0
      ? groupTags(s.tagsBySeq.all(JSON.stringify(untagged)), (r) => r.link_seq)
      : new Map<number, string[]>();
  const open = new Map<number, OpenClicks>();
  for (const r of db.query<{ id: number; webhook_id: number; body: string; clicks: number }, []>(OPEN_BUNDLES_SQL).all()) open.set(r.webhook_id, { id: r.id, webhookId: r.webhook_id, body: r.body, clicks: r.clicks });
  const defaultDomain = db.query<{ name: string }, []>(DEFAULT_DOMAIN_NAME_SQL).get()?.name ?? null;
  const planned = plan({ events, webhooks, tagsOf, open, defaultDomain });
  for (const d of planned.inserts) s.insertDelivery.get(d.webhookId, d.messageId, d.type, d.createdAt, d.body, d.clicks, d.createdAt, d.type === "link.clicks" ? 1 : 0);
  for (const g of planned.grown) db.query<void, [string, number, number]>("UPDATE webhook_deliveries SET body = ?, clicks = ? WHERE id = ?").run(g.body, g.clicks, g.id);
  db.query<void, [number]>("DELETE FROM events WHERE seq <= ?").run(events[events.length - 1]!.seq);
  return events.length;
}

function sweepPage(s: Prepared, now: number, announce: Parameters<EventStore["sweepExpired"]>[1]): number {
  const after = s.mark.get("expiry")!.value;
  if (now <= after) return 0;
  const rows = s.expired.all(after, now);
  if (rows.length > 0) {
    const tags = groupTags(s.db.query<{ link_seq: number; tag: string }, [string]>("SELECT link_seq, tag FROM link_tags WHERE link_seq IN (SELECT value FROM json_each(?)) ORDER BY tag").all(JSON.stringify(rows.map((r) => r.seq))), (r) => r.link_seq);
    s.write(announce(rows.map((r) => ({ seq: r.seq, id: r.id, tags: tags.get(r.seq) ?? [], expiresAt: r.expires_at }))));
  }
  s.setMark.run(now, "expiry");
  return rows.length;
}

function createWebhook(db: Database, w: Parameters<Store["createWebhook"]>[0]): ReturnType<Store["createWebhook"]> {
  const { id } = db.query<{ id: number }, [string, string, number | null, string | null, string, number]>(
    "INSERT INTO webhooks (url, events, link_seq, tag, secret, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
  ).get(w.url, w.events.join(" "), w.linkSeq, w.tag, w.secret, w.createdAt)!;
  // Read back: its link's id is joined by the seq (a RETURNING names only the new row).
  return toWebhook(db.query<Record<string, unknown>, [number]>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?`).get(id)!);
}

function updateWebhook(db: Database, id: number, c: Parameters<Store["updateWebhook"]>[1]): boolean {
  const sets = webhookColumns(c);
  if (sets.length === 0) return db.query<{ n: number }, [number]>("SELECT COUNT(*) AS n FROM webhooks WHERE id = ?").get(id)!.n > 0;
  return db.query<void, (string | number | null)[]>(`UPDATE webhooks SET ${sets.map(([c]) => `${c} = ?`).join(", ")} WHERE id = ?`).run(...sets.map(([, v]) => v), id).changes > 0;
}

function deliveries(db: Database, webhookId: number, before: number | null, limit: number): ReturnType<Store["deliveries"]> {
  return db.query<Record<string, unknown>, [number, number, number]>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ? AND id < ? ORDER BY id DESC LIMIT ?`)
    .all(webhookId, before ?? Number.MAX_SAFE_INTEGER, limit).map(toDelivery);
}

function redeliver(s: Prepared, webhookId: number, deliveryId: number, now: number): ReturnType<Store["redeliver"]> {
  const old = s.deliveryById.get(deliveryId, webhookId);
  if (!old) return null;
  // Not joinable: a copy carries what its message carried, and nothing else.
  const { id } = s.insertDelivery.get(webhookId, old.message_id as string, old.type as string, now, old.body as string, Number(old.clicks ?? 0), now, 0)!;
  return toDelivery(s.deliveryById.get(id, webhookId)!);
}

function wantedTypes(db: Database): EventType[] {
  const types = new Set<string>();
  for (const r of db.query<{ events: string }, []>("SELECT events FROM webhooks WHERE enabled = 1").all()) for (const t of r.events.split(" ")) types.add(t);
  return [...types] as EventType[];
}

function claim(db: Database, webhookId: number, now: number, leaseMs: number): ReturnType<Store["claim"]> {
  const row = db.query<Record<string, unknown>, [number, number, number]>(CLAIM_SQL).get(webhookId, leaseMs, now);
  if (!row) return null;
  const hook = db.query<Record<string, unknown>, [number]>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ? AND enabled = 1`).get(webhookId);
  if (!hook) return null;
  return { delivery: toDelivery(row), body: row.body as string, webhook: toWebhook(hook), lease: now + leaseMs };
}

function finish(db: Database, ...[d, r, lease]: Parameters<Store["finish"]>): void {
  db.transaction(() => {
    db.query<void, (string | number | null)[]>(FINISH_SQL).run(r.state, r.at, r.nextAt, r.responseCode, r.error, d.id, d.webhookId, lease ?? null);
    if (r.disable !== null) db.query<void, [string, number]>("UPDATE webhooks SET enabled = 0, disabled_reason = ? WHERE id = ?").run(r.disable, d.webhookId);
  }).immediate();
}

/** At start: what a process killed mid-send had claimed is free again (one process owns the file). */
export function releaseClaims(db: Database): void {
  db.run("UPDATE webhook_deliveries SET claimed_until = 0 WHERE state = 'pending' AND claimed_until <> 0");
}
