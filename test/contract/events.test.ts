// The events' port (EventStore of src/events/store.ts) on both engines: webhooks and their
// summaries, the outbox and its fan-out (each event taken once, also by two instances at once),
// the queue's due heads, claims and leases (one winner), finish, redeliver, the delivery log's
// pages and pruning, the expiry sweep and its mark; and that a link's insert, edit and delete
// write their events in their own transaction (nothing when the write is refused or fails).

import { expect, test } from "bun:test";
import { planFanOut } from "../../src/events/fan-out.ts";
import type { AttemptResult, Claimed, EventStore, ExpiredLink, FanOutInput, NewWebhook } from "../../src/events/store.ts";
import type { EventLinkRef } from "../../src/events/payloads.ts";
import type { EventType, OutboxEvent } from "../../src/events/types.ts";
import type { Link } from "../../src/links/link.ts";
import { forEachEngine, NOW } from "../support/contract-suite.ts";
import type { OpenedEngine } from "../support/engines.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const LEASE = 30_000;

const hookOf = (o: Partial<NewWebhook> = {}): NewWebhook => ({ url: "https://hooks.example.com/a", events: ["link.created"], linkSeq: null, tag: null, secret: SECRET, createdAt: NOW, ...o });
/** An event whose payload names `id`; `of`: the stored link it is of (by its seq), none by default. */
const ev = (type: EventType, id: string, tags: string[] | null = [], at = NOW, of: EventLinkRef | null = null): OutboxEvent =>
  ({ type, linkSeq: of?.seq ?? null, linkId: of?.id ?? null, tags, at, data: JSON.stringify({ id }) });
/** A link.clicks event of a stored link: the fan-out names its clicks by the id read back by the seq. */
const clicksOf = (of: EventLinkRef, n: number, at = NOW): OutboxEvent => ({
  type: "link.clicks", linkSeq: of.seq, linkId: of.id, tags: null, at, data: JSON.stringify({ clicks: Array.from({ length: n }, () => ({ timestamp: new Date(at).toISOString() })), omitted: 0 }),
});
const plan = (now = NOW) => (input: FanOutInput) => planFanOut(input, now);
const result = (o: Partial<AttemptResult> & Pick<AttemptResult, "state">): AttemptResult => ({ at: NOW, nextAt: NOW, responseCode: 204, error: null, disable: null, ...o });
/** The link ids in the deliveries' bodies, oldest first. */
const linkIdsOf = async (e: EventStore, webhookId: number, bodies: Map<number, string>) =>
  [...(await e.deliveries(webhookId, null, 1_000))].reverse().map((d) => JSON.parse(bodies.get(d.id)!).data.id);

/** A link stored under `id` (what an event's or a webhook's seq names), as the events see it. */
async function storedLink(db: OpenedEngine, id: string, o: { tags?: string[]; expiresAt?: number } = {}, now = NOW): Promise<EventLinkRef> {
  const seq = await db.adapters.links.insert(id, { url: `https://example.com/${id}`, ...o }, now);
  if (typeof seq !== "number") throw new Error(`link ${id}: ${seq}`);
  return { seq, id };
}

forEachEngine("events: webhooks", (db) => {
  const events = () => db().storage.events;

  test("createWebhook answers it with its secret; the list and webhook(id) leave the secret out and summarize the queue", async () => {
    const e = events();
    const abc = await storedLink(db(), "abc");
    const a = await e.createWebhook(hookOf({ events: ["link.created", "link.clicks"], linkSeq: abc.seq }));
    const b = await e.createWebhook(hookOf({ url: "https://hooks.example.com/b", events: ["link.deleted"], tag: "red", createdAt: NOW + 1 }));
    expect(a).toEqual({
      id: a.id, url: "https://hooks.example.com/a", events: ["link.created", "link.clicks"], linkSeq: abc.seq, linkId: "abc", tag: null, secret: SECRET, enabled: true, disabledReason: null, createdAt: NOW,
    });
    expect(b).toMatchObject({ linkSeq: null, linkId: null });
    expect(b.id).toBeGreaterThan(a.id);
    const { secret: _a, ...listedA } = a;
    const { secret: _b, ...listedB } = b;
    expect(await e.webhooks()).toEqual([{ ...listedA, pending: 0, lastDelivery: null }, { ...listedB, pending: 0, lastDelivery: null }]);
    expect(await e.webhook(b.id)).toEqual({ ...listedB, pending: 0, lastDelivery: null });
    expect(await e.webhook(b.id + 1000)).toBeNull();
    expect(JSON.stringify(await e.webhooks())).not.toContain("whsec_");
  });

  test("updateWebhook changes the fields given and only those; false for an unknown webhook", async () => {
    const e = events();
    const a = await e.createWebhook(hookOf());
    const other = await e.createWebhook(hookOf({ url: "https://hooks.example.com/other" }));
    const abc = await storedLink(db(), "abc");
    expect(await e.updateWebhook(a.id, { url: "https://hooks.example.com/new", events: ["link.gone", "link.milestone"], linkSeq: abc.seq, tag: "red" })).toBe(true);
    expect(await e.webhook(a.id)).toMatchObject({ url: "https://hooks.example.com/new", events: ["link.gone", "link.milestone"], linkSeq: abc.seq, linkId: "abc", tag: "red", enabled: true, disabledReason: null });
    expect(await e.updateWebhook(a.id, { enabled: false, disabledReason: "disabled by an admin" })).toBe(true);
    expect(await e.webhook(a.id)).toMatchObject({ url: "https://hooks.example.com/new", tag: "red", enabled: false, disabledReason: "disabled by an admin" });
    expect(await e.updateWebhook(a.id, { linkSeq: null, tag: null, enabled: true, disabledReason: null })).toBe(true);
    expect(await e.webhook(a.id)).toMatchObject({ linkSeq: null, linkId: null, tag: null, enabled: true, disabledReason: null, events: ["link.gone", "link.milestone"] });
    expect(await e.webhook(other.id)).toMatchObject({ url: "https://hooks.example.com/other", events: ["link.created"], enabled: true });
    expect(await e.updateWebhook(a.id, {})).toBe(true);
    expect(await e.updateWebhook(other.id + 1000, {})).toBe(false);
    expect(await e.updateWebhook(other.id + 1000, { url: "https://hooks.example.com/x" })).toBe(false);
  });

  test("removeWebhook: the webhook goes at once, its deliveries with the next prune (in pages), no other's; false the second time", async () => {
    const e = events();
    const a = await e.createWebhook(hookOf());
    const b = await e.createWebhook(hookOf({ url: "https://hooks.example.com/b" }));
    await e.append([ev("link.created", "x"), ev("link.created", "y")]);
    await e.fanOut(plan(), 100);
    expect(await e.deliveries(a.id, null, 10)).toHaveLength(2);
    expect(await e.removeWebhook(a.id)).toBe(true);
    expect(await e.webhook(a.id)).toBeNull();
    expect(await e.due(NOW)).toEqual([{ webhookId: b.id, type: "link.created" }]); // the removed one's queue is not sent
    await e.prune(NOW - 7 * 24 * 3_600_000);
    expect(await db().stored.get("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?", a.id)).toEqual({ n: 0 });
    expect(await e.deliveries(b.id, null, 10)).toHaveLength(2);
    expect(await e.removeWebhook(a.id)).toBe(false);
    expect((await e.webhooks()).map((w) => w.id)).toEqual([b.id]);
  });

  test("wantedTypes: what the enabled webhooks want, together; a disabled one's not", async () => {
    const e = events();
    expect(await e.wantedTypes()).toEqual([]);
    await e.createWebhook(hookOf({ events: ["link.created", "link.clicks"] }));
    const b = await e.createWebhook(hookOf({ events: ["link.clicks", "link.gone"] }));
    const c = await e.createWebhook(hookOf({ events: ["link.milestone"] }));
    await e.updateWebhook(c.id, { enabled: false, disabledReason: "the receiver answered 410 Gone" });
    expect([...(await e.wantedTypes())].sort()).toEqual(["link.clicks", "link.created", "link.gone"]);
    await e.updateWebhook(b.id, { enabled: false });
    await e.updateWebhook(c.id, { enabled: true });
    expect([...(await e.wantedTypes())].sort()).toEqual(["link.clicks", "link.created", "link.milestone"]);
  });

  test("append, then fanOut: the plan reads the events as written, in order; deliveries are written and the events taken, once", async () => {
    const e = events();
    const all = await e.createWebhook(hookOf({ events: ["link.created", "link.deleted", "link.milestone"] }));
    const created = await e.createWebhook(hookOf({ events: ["link.created"] }));
    const disabled = await e.createWebhook(hookOf({ events: ["link.created"] }));
    await e.updateWebhook(disabled.id, { enabled: false });
    expect(await e.hasEvents()).toBe(false);
    const [la, lb, lc] = [await storedLink(db(), "a"), await storedLink(db(), "b"), await storedLink(db(), "c")];
    const written = [ev("link.created", "a", ["red", "x"], NOW + 1, la), ev("link.deleted", "b", [], NOW + 2, lb), { ...ev("link.milestone", "c", null, NOW + 3, lc), data: '{"id":"c","milestone":10}' }];
    await e.append(written);
    expect(await e.hasEvents()).toBe(true);
    let input: FanOutInput | null = null;
    expect(await e.fanOut((i) => ((input = i), planFanOut(i, NOW + 10)), 100)).toBe(3);
    const seen = input!;
    expect(seen.events.map(({ seq: _, linkDomain: __, ...rest }) => rest)).toEqual(written);
    expect(seen.events.map((x) => x.linkDomain)).toEqual(["", "", ""]); // each link's stored domain, read back by its seq: the default's
    expect(seen.events.map((x) => x.seq)).toEqual([...seen.events.map((x) => x.seq)].sort((p, q) => p - q));
    expect(seen.webhooks.map((w) => w.id)).toEqual([all.id, created.id]); // enabled ones
    expect(seen.open.size).toBe(0);
    expect(await e.hasEvents()).toBe(false);
    expect(await db().stored.get("SELECT COUNT(*) AS n FROM events")).toEqual({ n: 0 });
    const log = [...(await e.deliveries(all.id, null, 10))].reverse();
    expect(log.map((d) => [d.type, d.state, d.attempts, d.createdAt, d.nextAt])).toEqual([
      ["link.created", "pending", 0, NOW + 10, NOW + 10], ["link.deleted", "pending", 0, NOW + 10, NOW + 10], ["link.milestone", "pending", 0, NOW + 10, NOW + 10],
    ]);
    expect((await e.deliveries(created.id, null, 10)).map((d) => d.type)).toEqual(["link.created"]);
    expect(await e.deliveries(disabled.id, null, 10)).toEqual([]);
    expect((await e.webhook(all.id))!.pending).toBe(3);
    // Nothing left: a second fan-out writes nothing.
    expect(await e.fanOut(plan(), 100)).toBe(0);
    expect(await e.deliveries(all.id, null, 10)).toHaveLength(3);
  });

  test("a tag webhook: events written without tags (clicks, milestones) are matched by their link's stored tags", async () => {
    const e = events();
    const t1 = await storedLink(db(), "t1", { tags: ["red", "blue"] });
    const t2 = await storedLink(db(), "t2", { tags: ["blue"] });
    const red = await e.createWebhook(hookOf({ events: ["link.created", "link.milestone"], tag: "red" }));
    await e.append([ev("link.milestone", "t1", null, NOW, t1), ev("link.milestone", "t2", null, NOW, t2), ev("link.created", "t3", ["red"]), ev("link.created", "t1", [], NOW, t1)]);
    let input: FanOutInput | null = null;
    await e.fanOut((i) => ((input = i), planFanOut(i, NOW)), 100);
    expect([...(input!.tagsOf.get(t1.seq) ?? [])].sort()).toEqual(["blue", "red"]);
    expect(input!.tagsOf.get(t2.seq)).toEqual(["blue"]);
    const log = [...(await e.deliveries(red.id, null, 10))].reverse();
    expect(log.map((d) => d.type)).toEqual(["link.milestone", "link.created"]);
  });

  test("a link webhook hears its link's events by seq, each read back with the link's id; another link's, or one of no link, not", async () => {
    const e = events();
    const [mine, other] = [await storedLink(db(), "mine"), await storedLink(db(), "other")];
    const hook = await e.createWebhook(hookOf({ events: ["link.updated", "link.clicks"], linkSeq: mine.seq }));
    await e.append([ev("link.updated", "mine", [], NOW, mine), ev("link.updated", "other", [], NOW, other), ev("link.updated", "none"), clicksOf(mine, 2), clicksOf(other, 1)]);
    let input: FanOutInput | null = null;
    await e.fanOut((i) => ((input = i), planFanOut(i, NOW)), 100);
    expect(input!.events.map((x) => [x.linkSeq, x.linkId])).toEqual([[mine.seq, "mine"], [other.seq, "other"], [null, null], [mine.seq, "mine"], [other.seq, "other"]]);
    const bodies = (await e.deliveries(hook.id, null, 10)).reverse().map((d) => d.type);
    expect(bodies).toEqual(["link.updated", "link.clicks"]);
    const clicks = JSON.parse((await db().stored.get<{ body: string }>("SELECT body FROM webhook_deliveries WHERE webhook_id = ? AND type = 'link.clicks'", hook.id))!.body);
    expect(clicks.data.clicks.map((c: { id: string }) => c.id)).toEqual(["mine", "mine"]);
  });

  test("a deleted link's webhook and events still name it (its retired id, by the seq it had); the webhook hears nothing of links made later", async () => {
    const e = events();
    const gone = await storedLink(db(), "gone");
    const hook = await e.createWebhook(hookOf({ events: ["link.created", "link.deleted"], linkSeq: gone.seq }));
    expect(await db().adapters.links.remove("gone", NOW, (before) => [ev("link.deleted", "gone", before.tags, NOW, before)])).toBe(true);
    expect(await e.webhook(hook.id)).toMatchObject({ linkSeq: gone.seq, linkId: "gone" });
    const later = await storedLink(db(), "later");
    await e.append([ev("link.created", "later", [], NOW, later)]);
    let input: FanOutInput | null = null;
    await e.fanOut((i) => ((input = i), planFanOut(i, NOW)), 100);
    expect(input!.events.map((x) => [x.type, x.linkSeq, x.linkId])).toEqual([["link.deleted", gone.seq, "gone"], ["link.created", later.seq, "later"]]);
    expect(input!.webhooks.map((w) => [w.id, w.linkSeq, w.linkId])).toEqual([[hook.id, gone.seq, "gone"]]);
    expect((await e.deliveries(hook.id, null, 10)).map((d) => d.type)).toEqual(["link.deleted"]);
  });

  test("fanOut takes at most `limit` events a call, oldest first", async () => {
    const e = events();
    const a = await e.createWebhook(hookOf());
    await e.append(["e1", "e2", "e3", "e4", "e5"].map((id) => ev("link.created", id)));
    const taken = [];
    for (let i = 0; i < 4; i++) taken.push(await e.fanOut(plan(), 2));
    expect(taken).toEqual([2, 2, 1, 0]);
    const bodies = new Map<number, string>();
    for (const r of await db().stored.all<{ id: number; body: string }>("SELECT id, body FROM webhook_deliveries")) bodies.set(r.id, r.body);
    expect(await linkIdsOf(e, a.id, bodies)).toEqual(["e1", "e2", "e3", "e4", "e5"]);
  });

  test("clicks join the webhook's newest unsent link.clicks delivery; once it is claimed, they start another", async () => {
    const e = events();
    const a = await e.createWebhook(hookOf({ events: ["link.clicks"] }));
    const [x, y, z, w] = [await storedLink(db(), "x"), await storedLink(db(), "y"), await storedLink(db(), "z"), await storedLink(db(), "w")];
    await e.append([clicksOf(x, 2)]);
    await e.fanOut(plan(), 100);
    await e.append([clicksOf(y, 1)]);
    let input: FanOutInput | null = null;
    await e.fanOut((i) => ((input = i), planFanOut(i, NOW)), 100);
    expect([...input!.open.values()].map((o) => [o.webhookId, o.clicks])).toEqual([[a.id, 2]]);
    expect(await e.deliveries(a.id, null, 10)).toHaveLength(1);
    const claimed = (await e.claim(a.id, NOW, LEASE))!;
    expect(JSON.parse(claimed.body).data.clicks.map((c: { id: string }) => c.id)).toEqual(["x", "x", "y"]);
    await e.append([clicksOf(z, 1)]);
    await e.fanOut((i) => ((input = i), planFanOut(i, NOW)), 100);
    expect(input!.open.size).toBe(0);
    expect(await e.deliveries(a.id, null, 10)).toHaveLength(2);
    // And after an attempt (pending again, nothing claimed), it is not reopened either.
    await e.finish(claimed.delivery, result({ state: "pending", responseCode: 500, error: "answered 500", nextAt: NOW + 10_000 }));
    await e.append([clicksOf(w, 1)]);
    await e.fanOut((i) => ((input = i), planFanOut(i, NOW)), 100);
    expect([...input!.open.values()].map((o) => o.id)).not.toContain(claimed.delivery.id);
  });

  test("a redelivered link.clicks message is never joined by new clicks: a receiver de-duplicating by webhook-id would drop them", async () => {
    const e = events();
    const a = await e.createWebhook(hookOf({ events: ["link.clicks"] }));
    const [x, y] = [await storedLink(db(), "x"), await storedLink(db(), "y")];
    await e.append([clicksOf(x, 1)]);
    await e.fanOut(plan(), 100);
    const sent = (await e.claim(a.id, NOW, LEASE))!;
    await e.finish(sent.delivery, result({ state: "delivered" }));
    const again = (await e.redeliver(a.id, sent.delivery.id, NOW + 1_000))!;
    await e.append([clicksOf(y, 1)]);
    let input: FanOutInput | null = null;
    await e.fanOut((i) => ((input = i), planFanOut(i, NOW)), 100);
    expect(input!.open.size).toBe(0);
    const copy = (await e.claim(a.id, NOW + 1_000, LEASE))!;
    expect([copy.delivery.id, copy.body]).toEqual([again.id, sent.body]);
    await e.finish(copy.delivery, result({ state: "delivered" }));
    const fresh = (await e.claim(a.id, NOW + 2_000, LEASE))!;
    expect(fresh.delivery.messageId).not.toBe(sent.delivery.messageId);
    expect(JSON.parse(fresh.body).data.clicks.map((c: { id: string }) => c.id)).toEqual(["y"]);
  });

  test("two instances fanning out at once take each event exactly once", async () => {
    const a = events();
    const b = (await db().reopen()).storage.events;
    const hook = await a.createWebhook(hookOf());
    const ids = Array.from({ length: 120 }, (_, i) => `c${i}`);
    await a.append(ids.map((id) => ev("link.created", id)));
    let total = 0;
    for (let round = 0; round < 20; round++) {
      const taken = await Promise.all([a.fanOut(plan(), 25), b.fanOut(plan(), 25), a.fanOut(plan(), 25), b.fanOut(plan(), 25)]);
      total += taken.reduce((n, x) => n + x, 0);
      if (taken.every((x) => x === 0)) break;
    }
    expect(total).toBe(ids.length);
    const bodies = await db().stored.all<{ body: string }>("SELECT body FROM webhook_deliveries WHERE webhook_id = ?", hook.id);
    expect(bodies.map((r) => JSON.parse(r.body).data.id).sort()).toEqual([...ids].sort());
    expect(await a.hasEvents()).toBe(false);
  });

  test("due and claim: the head is due from its nextAt; claimed, it is not claimed again until its lease runs out", async () => {
    const e = events();
    const a = await e.createWebhook(hookOf({ events: ["link.created", "link.updated"] }));
    expect(await e.due(NOW)).toEqual([]);
    expect(await e.claim(a.id, NOW, LEASE)).toBeNull();
    await e.append([ev("link.created", "first"), ev("link.updated", "second")]);
    await e.fanOut(plan(NOW), 100);
    expect(await e.due(NOW - 1)).toEqual([]);
    expect(await e.claim(a.id, NOW - 1, LEASE)).toBeNull();
    expect(await e.due(NOW)).toEqual([{ webhookId: a.id, type: "link.created" }]);
    const claimed = (await e.claim(a.id, NOW, LEASE))!;
    expect(claimed.delivery).toMatchObject({ webhookId: a.id, type: "link.created", state: "pending", attempts: 0 });
    expect(JSON.parse(claimed.body)).toEqual({ type: "link.created", timestamp: new Date(NOW).toISOString(), data: { id: "first" } });
    expect(claimed.webhook).toMatchObject({ id: a.id, secret: SECRET, url: "https://hooks.example.com/a" });
    // Held: neither it nor the one behind it (order per webhook).
    expect(await e.due(NOW)).toEqual([]);
    expect(await e.claim(a.id, NOW, LEASE)).toBeNull();
    expect(await e.claim(a.id, NOW + LEASE - 1, LEASE)).toBeNull();
    // The lease ran out (the instance died mid-send): the same head again.
    expect(await e.due(NOW + LEASE)).toEqual([{ webhookId: a.id, type: "link.created" }]);
    const again = (await e.claim(a.id, NOW + LEASE, LEASE))!;
    expect(again.delivery.id).toBe(claimed.delivery.id);
    await e.finish(again.delivery, result({ state: "delivered", at: NOW + LEASE }));
    // Finished: the next head, at once.
    expect(await e.due(NOW + LEASE)).toEqual([{ webhookId: a.id, type: "link.updated" }]);
    const next = (await e.claim(a.id, NOW + LEASE, LEASE))!;
    expect(JSON.parse(next.body).data.id).toBe("second");
  });

  test("finish with a lease that ran out and was taken by another claim changes nothing: that claim's send decides", async () => {
    const e = events();
    const a = await e.createWebhook(hookOf());
    await e.append([ev("link.created", "x")]);
    await e.fanOut(plan(), 100);
    const first = (await e.claim(a.id, NOW, LEASE))!;
    const second = (await e.claim(a.id, NOW + LEASE + 1, LEASE))!; // the first's lease ran out: another instance claims
    expect(second.delivery.id).toBe(first.delivery.id);
    await e.finish(second.delivery, result({ state: "delivered" }), second.lease);
    // The first send ends late, failed: it must not put the delivered message back to pending.
    await e.finish(first.delivery, result({ state: "pending", responseCode: 500, error: "answered 500", nextAt: NOW + 10_000 }), first.lease);
    const [d] = await e.deliveries(a.id, null, 1);
    expect([d!.state, d!.attempts]).toEqual(["delivered", 1]);
  });

  test("a disabled webhook's head is neither due nor claimed", async () => {
    const e = events();
    const a = await e.createWebhook(hookOf());
    await e.append([ev("link.created", "x")]);
    await e.fanOut(plan(), 100);
    await e.updateWebhook(a.id, { enabled: false, disabledReason: "disabled by an admin" });
    expect(await e.due(NOW)).toEqual([]);
    expect(await e.claim(a.id, NOW, LEASE)).toBeNull();
  });

  test("claims of the same webhook from two instances at once: exactly one wins", async () => {
    const a = events();
    const b = (await db().reopen()).storage.events;
    const hook = await a.createWebhook(hookOf());
    await a.append([ev("link.created", "x"), ev("link.created", "y")]);
    await a.fanOut(plan(), 100);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).claim(hook.id, NOW, LEASE)));
    const winners = claims.filter((c): c is Claimed => c !== null);
    expect(winners).toHaveLength(1);
    expect(JSON.parse(winners[0]!.body).data.id).toBe("x");
  });

  test("finish: pending with its next attempt, delivered (the next head moves up), failed with the webhook disabled", async () => {
    const e = events();
    const a = await e.createWebhook(hookOf());
    await e.append([ev("link.created", "x"), ev("link.created", "y")]);
    await e.fanOut(plan(), 100);
    const first = (await e.claim(a.id, NOW, LEASE))!;
    await e.finish(first.delivery, result({ state: "pending", at: NOW, nextAt: NOW + 10_000, responseCode: 500, error: "answered 500" }));
    const [, pending] = await e.deliveries(a.id, null, 10);
    expect(pending).toMatchObject({ id: first.delivery.id, state: "pending", attempts: 1, firstAttemptAt: NOW, lastAttemptAt: NOW, nextAt: NOW + 10_000, responseCode: 500, error: "answered 500" });
    // The summary carries the last attempt's error: the dashboard's "Failing" and its reason.
    expect((await e.webhook(a.id))!.lastDelivery).toEqual({ at: NOW, state: "pending", responseCode: 500, error: "answered 500" });
    expect(await e.webhook(a.id)).toMatchObject({ pending: 2 });
    expect(await e.due(NOW + 9_999)).toEqual([]);
    expect(await e.due(NOW + 10_000)).toEqual([{ webhookId: a.id, type: "link.created" }]);
    const second = (await e.claim(a.id, NOW + 10_000, LEASE))!;
    expect(second.delivery).toMatchObject({ id: first.delivery.id, attempts: 1, firstAttemptAt: NOW });
    await e.finish(second.delivery, result({ state: "delivered", at: NOW + 10_000, responseCode: 200 }));
    const [, delivered] = await e.deliveries(a.id, null, 10);
    expect(delivered).toMatchObject({ state: "delivered", attempts: 2, firstAttemptAt: NOW, lastAttemptAt: NOW + 10_000, responseCode: 200, error: null });
    expect(await e.webhook(a.id)).toMatchObject({ pending: 1, lastDelivery: { at: NOW + 10_000, state: "delivered", responseCode: 200, error: null } });
    const third = (await e.claim(a.id, NOW + 10_000, LEASE))!;
    expect(JSON.parse(third.body).data.id).toBe("y");
    await e.finish(third.delivery, result({ state: "failed", at: NOW + 20_000, responseCode: 410, error: "answered 410", disable: "the receiver answered 410 Gone" }));
    expect((await e.deliveries(a.id, null, 1))[0]).toMatchObject({ state: "failed", attempts: 1, responseCode: 410 });
    expect(await e.webhook(a.id)).toMatchObject({ enabled: false, disabledReason: "the receiver answered 410 Gone", pending: 0, lastDelivery: { state: "failed", responseCode: 410, error: "answered 410" } });
    expect(await e.wantedTypes()).toEqual([]);
  });

  test("redeliver: the same message (id, type, body) as a new delivery, queued behind what is waiting; null for another webhook's or none", async () => {
    const e = events();
    const a = await e.createWebhook(hookOf());
    const b = await e.createWebhook(hookOf({ url: "https://hooks.example.com/b" }));
    await e.append([ev("link.created", "x")]);
    await e.fanOut(plan(), 100);
    const sent = (await e.claim(a.id, NOW, LEASE))!;
    await e.finish(sent.delivery, result({ state: "delivered" }));
    await e.append([ev("link.created", "y")]);
    await e.fanOut(plan(), 100);
    const again = (await e.redeliver(a.id, sent.delivery.id, NOW + 5_000))!;
    expect(again).toMatchObject({ webhookId: a.id, messageId: sent.delivery.messageId, type: "link.created", state: "pending", attempts: 0, createdAt: NOW + 5_000, nextAt: NOW + 5_000, firstAttemptAt: null, responseCode: null });
    const log = await e.deliveries(a.id, null, 10);
    expect(log.map((d) => d.id)).toEqual([again.id, ...log.slice(1).map((d) => d.id)]);
    expect(again.id).toBeGreaterThan(Math.max(...log.slice(1).map((d) => d.id)));
    // y first, then the redelivery, with the very bytes that were signed before.
    expect(JSON.parse((await e.claim(a.id, NOW + 5_000, LEASE))!.body).data.id).toBe("y");
    const [ySent] = await e.deliveries(a.id, again.id, 1);
    await e.finish(ySent!, result({ state: "delivered" }));
    const redelivered = (await e.claim(a.id, NOW + 5_000, LEASE))!;
    expect(redelivered.delivery.id).toBe(again.id);
    expect(redelivered.body).toBe(sent.body);
    expect(await e.redeliver(b.id, sent.delivery.id, NOW)).toBeNull();
    expect(await e.redeliver(a.id, again.id + 1000, NOW)).toBeNull();
  });

  test("deliveries: newest first, in pages below `before`, one webhook's only", async () => {
    const e = events();
    const a = await e.createWebhook(hookOf());
    const b = await e.createWebhook(hookOf({ url: "https://hooks.example.com/b" }));
    await e.append(["1", "2", "3", "4", "5"].map((id) => ev("link.created", id)));
    await e.fanOut(plan(), 100);
    const all = await e.deliveries(a.id, null, 100);
    expect(all).toHaveLength(5);
    const ids = all.map((d) => d.id);
    expect(ids).toEqual([...ids].sort((p, q) => q - p));
    const pages: number[][] = [];
    let before: number | null = null;
    for (;;) {
      const page = await e.deliveries(a.id, before, 2);
      if (page.length === 0) break;
      pages.push(page.map((d) => d.id));
      before = page.at(-1)!.id;
    }
    expect(pages).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    expect((await e.deliveries(b.id, null, 100)).map((d) => d.webhookId)).toEqual([b.id, b.id, b.id, b.id, b.id]);
    expect(await e.deliveries(a.id + b.id + 1000, null, 100)).toEqual([]);
  });

  test("sweepExpired: links that expired after the mark and by now, each once, with their tags; the mark moves to now", async () => {
    const e = events();
    const links = db().adapters.links;
    const mark = async () => (await db().stored.get<{ value: number }>("SELECT value FROM event_marks WHERE name = 'expiry'"))!.value;
    const M = await mark(); // set when the schema was made
    await storedLink(db(), "before", { expiresAt: M - 1_000 }, M - 10_000);
    const first = await storedLink(db(), "first", { expiresAt: M + 1_000, tags: ["red", "blue"] }, M - 10_000);
    const second = await storedLink(db(), "second", { expiresAt: M + 2_000 }, M - 10_000);
    const later = await storedLink(db(), "later", { expiresAt: M + 5_000 }, M - 10_000);
    await storedLink(db(), "never", {}, M - 10_000);
    const announced: ExpiredLink[][] = [];
    const announce = (ls: ExpiredLink[]) => {
      announced.push([...ls].sort((p, q) => p.id.localeCompare(q.id)));
      return ls.map((l): OutboxEvent => ({ type: "link.gone", linkSeq: l.seq, linkId: l.id, tags: l.tags, at: l.expiresAt, data: JSON.stringify({ id: l.id, reason: "expired" }) }));
    };
    expect(await e.sweepExpired(M + 3_000, announce)).toBe(2);
    expect(announced).toEqual([[{ ...first, tags: ["blue", "red"], expiresAt: M + 1_000 }, { ...second, tags: [], expiresAt: M + 2_000 }]]);
    expect(await mark()).toBe(M + 3_000);
    expect(await db().stored.all("SELECT type, link_seq, tags, at FROM events ORDER BY link_seq")).toEqual([
      { type: "link.gone", link_seq: first.seq, tags: "blue red", at: M + 1_000 },
      { type: "link.gone", link_seq: second.seq, tags: "", at: M + 2_000 },
    ]);
    // Again at the same time, or earlier: nothing.
    expect(await e.sweepExpired(M + 3_000, announce)).toBe(0);
    expect(await e.sweepExpired(M, announce)).toBe(0);
    expect(await mark()).toBe(M + 3_000);
    // Later: only what expired since.
    expect(await e.sweepExpired(M + 10_000, announce)).toBe(1);
    expect(announced.at(-1)).toEqual([{ ...later, tags: [], expiresAt: M + 5_000 }]);
    expect(await mark()).toBe(M + 10_000);
    // Nothing expired: the mark still moves on (at least once a minute), announcing nothing.
    expect(await e.sweepExpired(M + 10_000 + 3_600_000, announce)).toBe(0);
    expect(await mark()).toBe(M + 10_000 + 3_600_000);
    expect(announced).toHaveLength(2);
    expect(await db().stored.get("SELECT COUNT(*) AS n FROM events")).toEqual({ n: 3 });
  });

  test("prune forgets deliveries made before the cut that are no longer pending, and keeps the rest", async () => {
    const e = events();
    const a = await e.createWebhook(hookOf());
    const OLD = NOW - 8 * 86_400_000;
    await e.append(["delivered", "failed", "pending"].map((id) => ev("link.created", id)));
    await e.fanOut(plan(OLD), 100);
    await e.append([ev("link.created", "recent")]);
    await e.fanOut(plan(NOW), 100);
    const [recent, pending, failed, delivered] = await e.deliveries(a.id, null, 10);
    await e.finish(delivered!, result({ state: "delivered", at: OLD }));
    await e.finish(failed!, result({ state: "failed", at: OLD, responseCode: 500 }));
    await e.finish(pending!, result({ state: "pending", at: OLD, nextAt: NOW + 10_000, responseCode: 500 }));
    await e.finish(recent!, result({ state: "delivered", at: NOW }));
    await e.prune(OLD); // strictly before the cut: none of these
    expect(await e.deliveries(a.id, null, 10)).toHaveLength(4);
    await e.prune(OLD + 1);
    expect((await e.deliveries(a.id, null, 10)).map((d) => d.id)).toEqual([recent!.id, pending!.id]);
    await e.prune(NOW + 1);
    expect((await e.deliveries(a.id, null, 10)).map((d) => d.id)).toEqual([pending!.id]);
  });
});

forEachEngine("events: a link's writes and their events, in one transaction", (db) => {
  const outbox = () => db().stored.all<{ type: string; link_seq: number | null; data: string }>("SELECT type, link_seq, data FROM events ORDER BY seq");
  /** An event of the link `of` (its seq is what is stored), saying `note`. */
  const named = (type: EventType, of: EventLinkRef | null, note: string): OutboxEvent => ({ type, linkSeq: of?.seq ?? null, linkId: of?.id ?? null, tags: [], at: NOW, data: JSON.stringify({ note }) });
  /** SQLite's adapters throw rather than reject: both read as a rejection. */
  const attempt = (f: () => unknown) => (async () => f())();

  test("insert writes its events, made with the seq it gave the link; refused as taken or retired, it writes none", async () => {
    const links = db().adapters.links;
    const created = (note: string) => (seq: number) => [named("link.created", { seq, id: "k" }, note)];
    const seq = await links.insert("k", { url: "https://example.com/" }, NOW, created("first"));
    expect(typeof seq).toBe("number");
    expect(await links.insert("k", { url: "https://example.com/other" }, NOW, created("taken"))).toBe("taken");
    expect(await links.remove("k", NOW)).toBe(true);
    expect(await links.insert("k", { url: "https://example.com/again" }, NOW, created("retired"))).toBe("retired");
    expect((await outbox()).map(({ type, link_seq, data }) => ({ type, seq: Number(link_seq), data }))).toEqual([{ type: "link.created", seq: Number(seq), data: '{"note":"first"}' }]);
  });

  test("update hands its events the link after and before the change and the fields named; none for no such link; failing, it changes nothing", async () => {
    const links = db().adapters.links;
    const u = await storedLink(db(), "u", { tags: ["red"] });
    const calls: [Link, Link, readonly string[]][] = [];
    expect(await links.update("u", { url: "https://example.com/new", tags: ["blue"] }, (after, before, changed) => (calls.push([after, before, changed]), [named("link.updated", after, "edit")]))).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toMatchObject({ id: "u", url: "https://example.com/new", tags: ["blue"] });
    expect(calls[0]![1]).toMatchObject({ id: "u", seq: u.seq, url: "https://example.com/u", tags: ["red"] });
    expect(calls[0]![2]).toEqual(["url", "tags"]);
    expect(await links.update("nope", { url: "https://example.com/x" }, () => (calls.push([] as never), [named("link.updated", null, "none")]))).toBe(false);
    expect(calls).toHaveLength(1);
    await expect(attempt(() => links.update("u", { url: "https://example.com/failed" }, () => { throw new Error("boom"); }))).rejects.toThrow("boom");
    expect(await links.read("u")).toMatchObject({ url: "https://example.com/new" });
    expect(await outbox()).toEqual([{ type: "link.updated", link_seq: u.seq, data: '{"note":"edit"}' }]);
  });

  test("remove hands its events the link it deletes; none for no such link; failing, the link stays", async () => {
    const links = db().adapters.links;
    const r = await storedLink(db(), "r", { tags: ["red"] });
    await expect(attempt(() => links.remove("r", NOW, () => { throw new Error("boom"); }))).rejects.toThrow("boom");
    expect(await links.read("r")).toMatchObject({ id: "r", url: "https://example.com/r" });
    const seen: Link[] = [];
    expect(await links.remove("r", NOW, (before) => (seen.push(before), [named("link.deleted", before, "gone")]))).toBe(true);
    expect(seen.map((l) => [l.seq, l.id, l.url, l.tags])).toEqual([[r.seq, "r", "https://example.com/r", ["red"]]]);
    expect(await links.read("r")).toBeNull();
    expect(await links.remove("r", NOW, () => [named("link.deleted", r, "again")])).toBe(false);
    expect(await outbox()).toEqual([{ type: "link.deleted", link_seq: r.seq, data: '{"note":"gone"}' }]);
  });
});
