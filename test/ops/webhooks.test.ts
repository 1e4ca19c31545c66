// The webhook operations (src/ops/webhooks) in process, on a temp SQLite file: admins and the
// operator may, nobody and a create key may not (the refusal's code, nothing written, nothing told);
// every field problem at once, a private receiver refused where the service would not post to it.
// No receiver is ever sent to: the addresses are 127.0.0.1, and nothing here delivers.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createWebhook } from "../../src/ops/webhooks/create.ts";
import { getWebhook, listWebhooks } from "../../src/ops/webhooks/list.ts";
import { changeWebhook } from "../../src/ops/webhooks/change.ts";
import { removeWebhook } from "../../src/ops/webhooks/remove.ts";
import { listDeliveries, redeliver } from "../../src/ops/webhooks/deliveries.ts";
import type { ReceiverRules, WebhooksDeps } from "../../src/ops/webhooks/access.ts";
import { OPERATOR } from "../../src/auth/policy.ts";
import { adminKey, allowedActors, keptLog, refusedActors, tempStorage, type Opened } from "./support.ts";

const RECEIVER = "http://127.0.0.1:9/hook";
let opened: Opened;
let told: number;
let deps: WebhooksDeps & { rules: ReceiverRules; log: ReturnType<typeof keptLog>; pokeDelivery: () => void };

beforeEach(async () => {
  opened = await tempStorage();
  told = 0;
  deps = {
    events: opened.storage.events, links: opened.storage.links, log: keptLog(), now: () => 5_000,
    webhooksChanged: async () => void told++,
    rules: { ownHosts: ["s.example.org"], isBlocked: () => false, leave: async () => ({ allowPrivate: true, why: "" }) },
    pokeDelivery: () => {},
  };
});
afterEach(() => opened.dispose());

const fields = { url: RECEIVER, events: ["link.deleted", "link.created"] };

describe("who may", () => {
  test.each(allowedActors)("%s adds, reads, changes and removes a webhook; each change is told and logged", async (_, actor) => {
    const made = await createWebhook(actor, { fields }, deps);
    if (!made.ok) throw new Error(made.problem.message);
    expect([made.value.secret.startsWith("whsec_"), made.value.events, made.value.pending, made.value.lastDelivery]).toEqual([true, ["link.created", "link.deleted"], 0, null]);
    const id = made.value.id;
    const listed = await listWebhooks(actor, null, deps);
    expect(listed.ok && listed.value.map((w) => w.id)).toEqual([id]);
    const changed = await changeWebhook(actor, { id, fields: { enabled: false, tag: "news" } }, deps);
    expect(changed.ok && [changed.value.enabled, changed.value.tag]).toEqual([false, "news"]);
    const got = await getWebhook(actor, { id }, deps);
    expect(got.ok && got.value.enabled).toBe(false);
    const page = await listDeliveries(actor, { webhookId: id, before: null, limit: null }, deps);
    expect(page.ok && page.value).toEqual({ deliveries: [], nextBefore: null });
    const removed = await removeWebhook(actor, { id }, deps);
    expect(removed.ok && removed.value).toEqual({ id, deleted: true });
    expect(told).toBe(3);
    expect(deps.log.actions()).toEqual([
      { key: actor.name, action: "webhook-create", id: String(id), result: "ok 127.0.0.1:9 link.created,link.deleted" },
      { key: actor.name, action: "webhook-update", id: String(id), result: "ok tag,enabled" },
      { key: actor.name, action: "webhook-delete", id: String(id), result: "ok" },
    ]);
  });

  test.each(refusedActors)("%s may do nothing with webhooks (%s), and nothing is written or told", async (_, actor, code) => {
    const kept = await createWebhook(adminKey, { fields }, deps);
    const id = kept.ok ? kept.value.id : 0;
    const before = deps.log.lines.length;
    const outcomes = [
      await createWebhook(actor, { fields }, deps),
      await listWebhooks(actor, null, deps),
      await getWebhook(actor, { id }, deps),
      await changeWebhook(actor, { id, fields: { enabled: false } }, deps),
      await listDeliveries(actor, { webhookId: id, before: null, limit: null }, deps),
      await redeliver(actor, { webhookId: id, deliveryId: 1 }, deps),
      await removeWebhook(actor, { id }, deps),
    ];
    expect(outcomes.map((o) => (o.ok ? "done" : o.problem.code))).toEqual(Array(7).fill(code));
    expect((await deps.events.webhooks()).map((w) => [w.id, w.enabled])).toEqual([[id, true]]);
    expect([told, deps.log.lines.length]).toEqual([1, before]);
  });
});

describe("a webhook's link", () => {
  test("named by its id, stored by its seq: added, changed to another and cleared (every link); the audit line names linkId", async () => {
    const one = await opened.storage.links.create({ url: "https://example.com/one", alias: "one" }, 5_000);
    const two = await opened.storage.links.create({ url: "https://example.com/two", alias: "two" }, 5_000);
    const made = await createWebhook(OPERATOR, { fields: { ...fields, linkId: "one" } }, deps);
    if (!made.ok) throw new Error(made.problem.message);
    expect([made.value.linkId, made.value.linkSeq]).toEqual(["one", one.seq]);
    const changed = await changeWebhook(OPERATOR, { id: made.value.id, fields: { linkId: "two", tag: "news" } }, deps);
    expect(changed.ok && [changed.value.linkId, changed.value.linkSeq, changed.value.tag]).toEqual(["two", two.seq, "news"]);
    const cleared = await changeWebhook(OPERATOR, { id: made.value.id, fields: { linkId: null } }, deps);
    expect(cleared.ok && [cleared.value.linkId, cleared.value.linkSeq]).toEqual([null, null]);
    expect(deps.log.actions().map((a) => (a as { result: string }).result).slice(1)).toEqual(["ok linkId,tag", "ok linkId"]);
  });

  test("a deleted link's webhook still names it (by its retired id); a change of another field keeps its link", async () => {
    await opened.storage.links.create({ url: "https://example.com/old", alias: "old" }, 5_000);
    const made = await createWebhook(OPERATOR, { fields: { ...fields, linkId: "old" } }, deps);
    const id = made.ok ? made.value.id : 0;
    expect(await opened.storage.links.remove("old", 5_000)).toBe(true);
    const got = await getWebhook(OPERATOR, { id }, deps);
    expect(got.ok && got.value.linkId).toBe("old");
    const listed = await listWebhooks(OPERATOR, null, deps);
    expect(listed.ok && listed.value.map((w) => w.linkId)).toEqual(["old"]);
    // Another field changed: the link stays.
    const changed = await changeWebhook(OPERATOR, { id, fields: { tag: "news" } }, deps);
    expect(changed.ok && changed.value.linkId).toBe("old");
  });
});

describe("what is refused", () => {
  test("every field problem at once, with the API's field names", async () => {
    const made = await createWebhook(OPERATOR, { fields: { url: "ftp://x", events: ["nope"], tag: "a b" } }, deps);
    expect(made.ok ? null : made.problem.fields?.map((f) => [f.code, f.field])).toEqual([["url_scheme", "url"], ["events_invalid", "events"], ["tags_invalid", "tag"]]);
    expect(await deps.events.webhooks()).toEqual([]);
  });

  test("a link filter must name an existing link: one of no link (never made, or deleted) is a field problem on linkId, and nothing is written", async () => {
    await opened.storage.links.create({ url: "https://example.com/gone", alias: "gone" }, 5_000);
    expect(await opened.storage.links.remove("gone", 5_000)).toBe(true);
    const made = await createWebhook(OPERATOR, { fields: { ...fields, linkId: "nope" } }, deps);
    const deleted = await createWebhook(OPERATOR, { fields: { ...fields, linkId: "gone" } }, deps);
    for (const refused of [made, deleted]) expect(refused.ok ? null : [refused.problem.code, refused.problem.field]).toEqual(["bad_request", "linkId"]);
    expect(made.ok ? null : made.problem.fields).toEqual([{ code: "bad_request", field: "linkId", error: "no link with the id nope" }]);
    // A request with malformed fields is answered those: the link is looked up only for one otherwise well formed.
    const both = await createWebhook(OPERATOR, { fields: { url: "ftp://x", events: ["link.created"], linkId: "nope" } }, deps);
    expect(both.ok ? null : both.problem.fields?.map((f) => f.field)).toEqual(["url"]);
    expect(await deps.events.webhooks()).toEqual([]);
    // A change too: the webhook keeps the link it had.
    await opened.storage.links.create({ url: "https://example.com/kept", alias: "kept" }, 5_000);
    const kept = await createWebhook(OPERATOR, { fields: { ...fields, linkId: "kept" } }, deps);
    const id = kept.ok ? kept.value.id : 0;
    const changed = await changeWebhook(OPERATOR, { id, fields: { linkId: "nope" } }, deps);
    expect(changed.ok ? null : [changed.problem.code, changed.problem.field, changed.problem.message]).toEqual(["bad_request", "linkId", "no link with the id nope"]);
    expect(await deps.events.webhook(id)).toMatchObject({ linkId: "kept" });
  });

  test("a private receiver where the service would not post to one: url_private, saying why", async () => {
    deps.rules = { ...deps.rules, leave: async () => ({ allowPrivate: false, why: "set --webhook-allow-private" }) };
    const made = await createWebhook(OPERATOR, { fields }, deps);
    expect(made.ok ? null : [made.problem.code, made.problem.field, made.problem.message.includes("--webhook-allow-private")]).toEqual(["url_private", "url", true]);
  });

  test("a webhook or a delivery that is not there is not_found; a bad page is bad_request", async () => {
    const made = await createWebhook(OPERATOR, { fields }, deps);
    const id = made.ok ? made.value.id : 0;
    const outcomes = [
      await getWebhook(OPERATOR, { id: 99 }, deps),
      await changeWebhook(OPERATOR, { id: 99, fields: { enabled: true } }, deps),
      await removeWebhook(OPERATOR, { id: 99 }, deps),
      await redeliver(OPERATOR, { webhookId: id, deliveryId: 7 }, deps),
      await listDeliveries(OPERATOR, { webhookId: 99, before: null, limit: null }, deps),
      await listDeliveries(OPERATOR, { webhookId: id, before: "x", limit: null }, deps),
      await listDeliveries(OPERATOR, { webhookId: id, before: null, limit: "201" }, deps),
    ];
    expect(outcomes.map((o) => (o.ok ? "done" : `${o.problem.code} ${o.problem.field ?? ""}`.trim()))).toEqual(["not_found", "not_found", "not_found", "not_found", "not_found", "bad_request cursor", "bad_request limit"]);
  });
});
