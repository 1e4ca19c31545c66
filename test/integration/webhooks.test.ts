// Webhooks (#25) end to end: the real service posting to a real receiver on a loopback address
// (test/support/webhook-receiver.ts, which checks every signature with the Standard Webhooks
// project's own library). Every event type with the data docs/webhooks.md documents, the link, tag and
// type filters, order per endpoint, a 410 that disables, retries (a 500, a 429 with Retry-After),
// redelivery from the log, who may manage webhooks and where they may post, a kill -9 mid-delivery
// that loses nothing, two PostgreSQL instances that share the sending without sending anything
// twice, and a receiver that never answers holding up only its own webhook. Runs on SQLite and on
// PostgreSQL (SHORTENER_TEST_ENGINE=postgres); nothing here waits on a time, only on what arrived.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLink, onPostgres, startServer, type RunningServer } from "../support/server.ts";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { click, drained, UA } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";
import { sharedPostgres } from "../support/postgres.ts";
import { startReceiver, type Received, type Receiver } from "../support/webhook-receiver.ts";

// The receivers live on 127.0.0.7; the clicks come from a "visitor" behind the test as a proxy, so
// that an address the payloads must not carry is known.
const ARGS = ["--webhook-allow-private", "--trust-proxy", "127.0.0.1", "--create-rate-limit", "0"];
const VISITOR = "8.8.8.8";
const ALL_TYPES = ["link.created", "link.updated", "link.deleted", "link.gone", "link.clicks", "link.milestone"];
const NO_ANSWER = () => new Promise<Response>(() => {});

let server: RunningServer;
/** Started without --webhook-allow-private. */
let strict: RunningServer;
let key: string;

beforeAll(async () => {
  [server, strict] = await Promise.all([startServer({ args: ARGS }), startServer()]);
  key = makeKey(server.dbPath, "admin");
}, 30_000);
afterAll(async () => {
  await Promise.all([server?.dispose(), strict?.dispose()]);
});

/** POST /api/webhooks posting to the receiver, which then checks signatures with its secret. */
async function hook(base: string, k: string, receiver: Receiver, body: Record<string, unknown>): Promise<{ id: number; secret: string }> {
  const r = await api(base, k, "POST", "/api/webhooks", { url: receiver.url, ...body });
  if (r.status !== 201) throw new Error(`webhook: ${r.status} ${JSON.stringify(r.body)}`);
  receiver.setSecret(r.body.data.secret);
  return { id: r.body.data.id, secret: r.body.data.secret };
}

async function unhook(ids: number[]): Promise<void> {
  for (const id of ids) await api(server.url, key, "DELETE", `/api/webhooks/${id}`);
}

/** The delivery log of a webhook, newest first. */
async function deliveries(base: string, k: string, webhookId: number): Promise<any[]> {
  const r = await api(base, k, "GET", `/api/webhooks/${webhookId}/deliveries`);
  if (r.status !== 200) throw new Error(`deliveries: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.deliveries;
}

/** The link an event is about (link.clicks: its first click's). */
function subject(r: Received): string | undefined {
  const data = r.body?.data;
  return data?.link?.id ?? data?.id ?? data?.clicks?.[0]?.id;
}

const created = (r: Receiver) => r.ofType("link.created").map(subject);

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
}

async function clicks(id: string, n: number, headers: Record<string, string>, query = ""): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await click(server.url, `${id}${query}`, headers);
    await res.arrayBuffer();
    if (res.status !== 302) throw new Error(`click on ${id} answered ${res.status}`);
  }
}

describe("what webhooks hear", () => {
  test("every event type arrives signed with its documented data; the link, tag and type filters hold", async () => {
    const all = startReceiver();
    const one = startReceiver();
    const tagged = startReceiver();
    const deletes = startReceiver();
    const hooks: number[] = [];
    try {
      hooks.push((await hook(server.url, key, all, { events: ALL_TYPES })).id);
      hooks.push((await hook(server.url, key, tagged, { events: ["link.created", "link.updated", "link.clicks", "link.milestone"], tag: "launch" })).id);
      const deletesHook = (await hook(server.url, key, deletes, { events: ["link.deleted"] })).id;
      hooks.push(deletesHook);

      await madeLink(server.url, key, "ev-one", { tags: ["launch"] });
      // A link webhook names a link that exists: added once ev-one is made, it hears what follows.
      // Fan-out matches the webhooks there are when it reads an event, so ev-one's link.created is
      // waited for (fanned out to every webhook) first: otherwise the new one may hear it too.
      await eventually(async () => all.received.some((r) => r.type === "link.created" && subject(r) === "ev-one"), (ok) => ok, 15_000);
      hooks.push((await hook(server.url, key, one, { events: ["link.created", "link.updated"], linkId: "ev-one" })).id);
      await madeLink(server.url, key, "ev-other");
      await madeLink(server.url, key, "ev-limit", { max_clicks: 2 });
      await madeLink(server.url, key, "ev-expires", { expires_at: new Date(Date.now() + 3_000).toISOString() });
      expect((await api(server.url, key, "PATCH", "/api/links/ev-one", { url: "https://example.com/ev-one-moved", tags: ["launch", "spring"] })).status).toBe(200);
      // Ten clicks on ev-one (a milestone): eight from a visitor with a referrer and a campaign, a
      // direct one, and a crawler; two on ev-limit reach its limit.
      const visitor = { "user-agent": UA.chromeWindows, referer: "https://news.example.org/a", "x-forwarded-for": VISITOR };
      await clicks("ev-one", 8, visitor, "?utm_source=news&utm_medium=email&utm_campaign=spring");
      await clicks("ev-one", 1, { "user-agent": UA.firefoxLinux, "x-forwarded-for": VISITOR });
      await clicks("ev-one", 1, { "user-agent": UA.googlebot, "x-forwarded-for": VISITOR });
      await clicks("ev-limit", 2, { "user-agent": UA.safariIphone, "x-forwarded-for": VISITOR });
      await drained(server.url);
      expect((await api(server.url, key, "PATCH", "/api/links/ev-other", { disabled: true })).status).toBe(200);
      expect((await api(server.url, key, "DELETE", "/api/links/ev-other")).status).toBe(200);
      // ev-expires expires while nobody looks: the sweep finds it.
      await eventually(async () => all.ofType("link.gone").map((r) => r.body.data), (g) => g.some((d) => d.id === "ev-expires"), 15_000);
      // The last change of all: every event before it was fanned out before it, and each webhook
      // gets its deliveries in order, so what a webhook has by the time this arrives is all it gets.
      expect((await api(server.url, key, "PATCH", "/api/links/ev-one", { maxClicks: 1000 })).status).toBe(200);
      const fence = (r: Received) => r.type === "link.updated" && r.body.data.changed.includes("maxClicks");
      for (const receiver of [all, one, tagged]) await eventually(async () => receiver.received.some(fence), (ok) => ok, 15_000);
      await eventually(async () => deletes.received.length, (n) => n >= 1, 15_000);

      for (const receiver of [all, one, tagged, deletes]) {
        expect(receiver.received.map((r) => r.verified)).toEqual(receiver.received.map(() => "ok"));
        for (const r of receiver.received) {
          expect(Object.keys(r.body).sort()).toEqual(["data", "timestamp", "type"]);
          expect(Number.isNaN(Date.parse(r.body.timestamp))).toBe(false);
        }
        // Nothing was sent twice to a receiver that answered at once.
        expect(new Set(receiver.received.map((r) => r.id)).size).toBe(receiver.received.length);
      }

      // The webhook of every type.
      const ofLink = (type: string, id: string) => all.ofType(type).filter((r) => subject(r) === id);
      expect(created(all).sort()).toEqual(["ev-expires", "ev-limit", "ev-one", "ev-other"]);
      expect(ofLink("link.created", "ev-one")[0]!.body.data).toEqual({
        link: {
          id: "ev-one", domain: null, shortUrl: null, originalUrl: "https://example.com/ev-one", createdAt: expect.any(String), expiresAt: null, maxClicks: null,
          disabled: false, tags: ["launch"], title: null, owner: expect.anything(), totalClicks: 0, humanClicks: 0,
        },
      });
      expect(ofLink("link.created", "ev-limit")[0]!.body.data.link.maxClicks).toBe(2);
      expect(ofLink("link.created", "ev-expires")[0]!.body.data.link.expiresAt).toEqual(expect.any(String));
      const updates = all.ofType("link.updated").map((r) => ({ id: r.body.data.link.id, changed: [...r.body.data.changed].sort() }));
      expect(updates).toEqual([
        { id: "ev-one", changed: ["tags", "url"] },
        { id: "ev-other", changed: ["disabled"] },
        { id: "ev-one", changed: ["maxClicks"] },
      ]);
      const moved = ofLink("link.updated", "ev-one")[0]!.body.data.link;
      expect([moved.originalUrl, moved.tags]).toEqual(["https://example.com/ev-one-moved", ["launch", "spring"]]);
      expect(ofLink("link.updated", "ev-other")[0]!.body.data.link.disabled).toBe(true);
      expect(all.ofType("link.deleted").map((r) => r.body.data.link.id)).toEqual(["ev-other"]);
      expect(all.ofType("link.gone").map((r) => r.body.data).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        { id: "ev-expires", domain: null, reason: "expired" },
        { id: "ev-limit", domain: null, reason: "click_limit" },
        { id: "ev-other", domain: null, reason: "disabled" },
      ]);
      expect(all.ofType("link.milestone").map((r) => r.body.data)).toEqual([{ id: "ev-one", domain: null, milestone: 10, totalClicks: 10 }]);

      // The clicks: bundled, every field the stats page shows of a visit, and no address.
      const clicked = all.ofType("link.clicks").flatMap((r) => r.body.data.clicks);
      expect(clicked.filter((c: any) => c.id === "ev-one").length).toBe(10);
      expect(clicked.filter((c: any) => c.id === "ev-limit").length).toBe(2);
      for (const c of clicked) {
        expect(Object.keys(c).sort()).toEqual(["browser", "country", "device", "domain", "id", "isBot", "os", "referrer", "timestamp", "utmCampaign", "utmMedium", "utmSource"]);
      }
      expect(clicked.filter((c: any) => c.id === "ev-one" && c.utmSource === "news")).toHaveLength(8);
      expect(clicked.find((c: any) => c.utmSource === "news")).toMatchObject({
        browser: "Chrome", os: "Windows", device: "desktop", country: "US", referrer: "news.example.org", isBot: false, utmMedium: "email", utmCampaign: "spring",
      });
      expect(clicked.find((c: any) => c.browser === "Firefox")).toMatchObject({ referrer: "Direct", utmSource: null, isBot: false });
      expect(clicked.filter((c: any) => c.isBot).length).toBe(1);
      for (const r of all.received) {
        expect(keysOf(r.body).filter((k) => /ip|addr/i.test(k))).toEqual([]);
        expect(JSON.stringify(r.body)).not.toContain(VISITOR);
      }

      // linkId ev-one: that link's changes, nothing of the others.
      expect(one.received.map((r) => [r.type, subject(r)])).toEqual([
        ["link.updated", "ev-one"],
        ["link.updated", "ev-one"],
      ]);
      // tag launch: only ev-one (its clicks too, whose tags are read when they are fanned out).
      expect([...new Set(tagged.received.map(subject))]).toEqual(["ev-one"]);
      expect([...new Set(tagged.received.map((r) => r.type))].sort()).toEqual(["link.clicks", "link.created", "link.milestone", "link.updated"]);
      expect(tagged.ofType("link.clicks").flatMap((r) => r.body.data.clicks.map((c: any) => c.id))).toEqual(Array(10).fill("ev-one"));
      // link.deleted only: its one event, and its log holds nothing else.
      expect(deletes.received.map((r) => [r.type, subject(r)])).toEqual([["link.deleted", "ev-other"]]);
      expect((await deliveries(server.url, key, deletesHook)).map((d) => d.type)).toEqual(["link.deleted"]);
    } finally {
      await unhook(hooks);
      for (const r of [all, one, tagged, deletes]) r.stop();
    }
  }, 45_000);

  test("one endpoint gets a link's updates and its delete in the order they happened; the webhook still names the deleted link and hears nothing new", async () => {
    const receiver = startReceiver();
    await madeLink(server.url, key, "ev-order");
    // Not link.created: the link is made before its webhook, whose fan-out may still meet that event.
    const { id } = await hook(server.url, key, receiver, { events: ["link.updated", "link.deleted"], linkId: "ev-order" });
    try {
      const tags = ["a", "b", "c", "d", "e"];
      for (const tag of tags) expect((await api(server.url, key, "PATCH", "/api/links/ev-order", { tags: [tag] })).status).toBe(200);
      expect((await api(server.url, key, "DELETE", "/api/links/ev-order")).status).toBe(200);
      const got = await eventually(async () => receiver.received, (r) => r.length >= 6, 15_000);
      expect(got.map((r) => r.type)).toEqual([...tags.map(() => "link.updated"), "link.deleted"]);
      expect(got.filter((r) => r.type === "link.updated").map((r) => r.body.data.link.tags)).toEqual(tags.map((t) => [t]));
      expect(got.map((r) => r.verified)).toEqual(got.map(() => "ok"));
      // Deleted: the webhook shows the link's id still (its retired id, by the seq it had), in the list too.
      const kept = await api(server.url, key, "GET", `/api/webhooks/${id}`);
      expect([kept.status, kept.body.data.linkId]).toEqual([200, "ev-order"]);
      const listed = await api(server.url, key, "GET", "/api/webhooks");
      expect(listed.body.data.webhooks.find((w: any) => w.id === id).linkId).toBe("ev-order");
      // A link made after it (another id: a deleted link's id is never given again) is none of its business;
      // the fence: a webhook of every link hears that link's creation, so it was fanned out.
      const fence = startReceiver();
      const all = await hook(server.url, key, fence, { events: ["link.created"] });
      try {
        await madeLink(server.url, key, "ev-order-next");
        await eventually(async () => created(fence), (c) => c.includes("ev-order-next"), 15_000);
        expect((await deliveries(server.url, key, id)).map((d) => d.type)).toEqual(["link.deleted", ...tags.map(() => "link.updated")]);
      } finally {
        await unhook([all.id]);
        fence.stop();
      }
    } finally {
      await unhook([id]);
      receiver.stop();
    }
  }, 20_000);
});

describe("a webhook's first event", () => {
  test("a change made right after a webhook is added is heard, every time (the delivery thread's older report of what is wanted once undid it)", async () => {
    const receiver = startReceiver();
    expect((await createLink(server.url, { url: "https://example.com/race", custom_url: "race" }, { authorization: `Bearer ${key}` })).status).toBe(201);
    try {
      for (let i = 0; i < 40; i++) {
        const { id } = await hook(server.url, key, receiver, { events: ["link.updated"], linkId: "race" });
        expect((await api(server.url, key, "PATCH", "/api/links/race", { tags: [`round${i}`] })).status).toBe(200);
        // Written with the edit or never: fanned out into the log once the delivery thread runs. It
        // starts on demand with the webhook (and stops after the delete): on a loaded machine its
        // start took more than 5 s once (round 37 of 40, the compiled binary on PostgreSQL).
        const log = await eventually(() => deliveries(server.url, key, id), (l) => l.length > 0, 20_000);
        expect({ round: i, logged: log.length }).toEqual({ round: i, logged: 1 });
        expect((await api(server.url, key, "DELETE", `/api/webhooks/${id}`)).status).toBe(200);
      }
    } finally {
      receiver.stop();
    }
  }, 120_000);
});

describe("failures and retries", () => {
  test("a 410 disables the webhook: nothing more is sent until it is enabled again", async () => {
    const gone = startReceiver();
    const witness = startReceiver();
    gone.answer(() => new Response(null, { status: 410 }));
    const { id } = await hook(server.url, key, gone, { events: ["link.created"] });
    const other = await hook(server.url, key, witness, { events: ["link.created"] });
    try {
      await madeLink(server.url, key, "gone-a");
      const disabled = await eventually(() => api(server.url, key, "GET", `/api/webhooks/${id}`), (r) => r.body.data?.enabled === false, 15_000);
      expect(disabled.body.data).toMatchObject({ enabled: false, disabledReason: "the receiver answered 410 Gone", lastDelivery: { state: "failed", responseCode: 410 } });
      expect((await deliveries(server.url, key, id))[0]).toMatchObject({ state: "failed", attempts: 1, responseCode: 410 });

      gone.answer(() => new Response(null, { status: 204 }));
      await madeLink(server.url, key, "gone-b");
      // The witness heard of gone-b: it was fanned out, and not to the disabled webhook.
      await eventually(async () => created(witness), (c) => c.includes("gone-b"), 15_000);
      expect(created(witness)).toContain("gone-b");
      expect(gone.received.map(subject)).toEqual(["gone-a"]);
      expect((await deliveries(server.url, key, id)).length).toBe(1);

      const enabled = await api(server.url, key, "PATCH", `/api/webhooks/${id}`, { enabled: true });
      expect(enabled.status).toBe(200);
      expect(enabled.body.data).toMatchObject({ enabled: true, disabledReason: null });
      await madeLink(server.url, key, "gone-c");
      await eventually(async () => gone.received.length, (n) => n >= 2, 15_000);
      expect(gone.received.map(subject)).toEqual(["gone-a", "gone-c"]);
      expect(gone.received.map((r) => r.verified)).toEqual(["ok", "ok"]);
    } finally {
      await unhook([id, other.id]);
      gone.stop();
      witness.stop();
    }
  }, 45_000);

  test("a 500 is tried again with the same webhook-id; a 429 with Retry-After too", async () => {
    const failing = startReceiver();
    const limited = startReceiver();
    failing.answer((_, n) => new Response(null, { status: n === 0 ? 500 : 204 }));
    limited.answer((_, n) => (n === 0 ? new Response(null, { status: 429, headers: { "Retry-After": "1" } }) : new Response(null, { status: 204 })));
    // A tag filter: a link webhook could only be added once its link exists, after its creation.
    const f = await hook(server.url, key, failing, { events: ["link.created"], tag: "retried" });
    const l = await hook(server.url, key, limited, { events: ["link.created"], tag: "retried" });
    try {
      await madeLink(server.url, key, "retried", { tags: ["retried"] });
      // After the 500 (the first retry is ~10 s away): the log says so and when it goes again.
      const first = await eventually(() => deliveries(server.url, key, f.id), (d) => d[0]?.attempts === 1, 15_000);
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({ type: "link.created", state: "pending", attempts: 1, responseCode: 500, error: "answered 500" });
      expect(Date.parse(first[0].nextAttemptAt)).toBeGreaterThan(Date.parse(first[0].lastAttemptAt));

      for (const [receiver, webhookId] of [[limited, l.id], [failing, f.id]] as const) {
        await eventually(async () => receiver.received.length, (n) => n >= 2, 30_000);
        expect(receiver.received.length).toBe(2);
        expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
        expect(receiver.received.map((r) => [r.type, subject(r), r.verified])).toEqual([
          ["link.created", "retried", "ok"],
          ["link.created", "retried", "ok"],
        ]);
        const log = await eventually(() => deliveries(server.url, key, webhookId), (d) => d[0]?.state === "delivered", 5_000);
        expect(log).toHaveLength(1);
        expect(log[0]).toMatchObject({ messageId: receiver.received[0]!.id, state: "delivered", attempts: 2, responseCode: 204, error: null, nextAttemptAt: null });
      }
    } finally {
      await unhook([f.id, l.id]);
      failing.stop();
      limited.stop();
    }
  }, 60_000);

  test("redeliver from the log sends the same message again", async () => {
    const receiver = startReceiver();
    const { id } = await hook(server.url, key, receiver, { events: ["link.created"], tag: "again" });
    try {
      await madeLink(server.url, key, "again", { tags: ["again"] });
      const [sent] = await eventually(() => deliveries(server.url, key, id), (d) => d[0]?.state === "delivered", 15_000);
      expect(receiver.received.map((r) => r.id)).toEqual([sent.messageId]);
      const redo = await api(server.url, key, "POST", `/api/webhooks/${id}/deliveries/${sent.id}/redeliver`);
      expect(redo.status).toBe(202);
      expect(redo.body.data).toMatchObject({ messageId: sent.messageId, type: "link.created", state: "pending", attempts: 0 });
      expect(redo.body.data.id).not.toBe(sent.id);
      await eventually(async () => receiver.received.length, (n) => n >= 2, 15_000);
      expect(receiver.received.map((r) => [r.id, r.verified])).toEqual([
        [sent.messageId, "ok"],
        [sent.messageId, "ok"],
      ]);
      expect(receiver.received[1]!.body).toEqual(receiver.received[0]!.body);
      const log = await eventually(() => deliveries(server.url, key, id), (d) => d.every((x) => x.state === "delivered"), 5_000);
      expect(log.map((d) => [d.id, d.messageId, d.state])).toEqual([
        [redo.body.data.id, sent.messageId, "delivered"],
        [sent.id, sent.messageId, "delivered"],
      ]);
    } finally {
      await unhook([id]);
      receiver.stop();
    }
  }, 30_000);
});

describe("managing webhooks", () => {
  test("admins only; the secret is answered once and never listed, logged or put in the delivery log", async () => {
    const creator = makeKey(server.dbPath, "creator", "create");
    const receiver = startReceiver();
    const { id, secret } = await hook(server.url, key, receiver, { events: ["link.created"], tag: "hush" });
    try {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      await madeLink(server.url, key, "hush", { tags: ["hush"] });
      const [sent] = await eventually(() => deliveries(server.url, key, id), (d) => d[0]?.state === "delivered", 15_000);
      const routes: [string, string, unknown?][] = [
        ["POST", "/api/webhooks", { url: receiver.url, events: ["link.created"] }],
        ["GET", "/api/webhooks"],
        ["GET", `/api/webhooks/${id}`],
        ["PATCH", `/api/webhooks/${id}`, { enabled: false }],
        ["DELETE", `/api/webhooks/${id}`],
        ["GET", `/api/webhooks/${id}/deliveries`],
        ["POST", `/api/webhooks/${id}/deliveries/${sent.id}/redeliver`],
      ];
      for (const [method, path, body] of routes) {
        const anonymous = await api(server.url, null, method, path, body);
        expect({ route: `${method} ${path}`, status: anonymous.status, success: anonymous.body.success }).toEqual({ route: `${method} ${path}`, status: 401, success: false });
        const notAdmin = await api(server.url, creator, method, path, body);
        expect({ route: `${method} ${path}`, status: notAdmin.status, code: notAdmin.body.code }).toEqual({ route: `${method} ${path}`, status: 403, code: "admin_only" });
      }
      // None of that changed anything.
      const list = await api(server.url, key, "GET", "/api/webhooks");
      expect(list.body.data.webhooks.map((w: any) => [w.url, w.enabled])).toEqual([
        [receiver.url, true],
      ]);
      expect(receiver.received.length).toBe(1);
      expect((await deliveries(server.url, key, id)).length).toBe(1);

      const answers = [
        list,
        await api(server.url, key, "GET", `/api/webhooks/${id}`),
        await api(server.url, key, "PATCH", `/api/webhooks/${id}`, { tag: "hush" }),
        await api(server.url, key, "GET", `/api/webhooks/${id}/deliveries`),
        await api(server.url, key, "POST", `/api/webhooks/${id}/deliveries/${sent.id}/redeliver`),
      ];
      const bare = secret.slice("whsec_".length);
      for (const a of answers) {
        expect(a.status).toBeLessThan(300);
        const text = JSON.stringify(a.body);
        expect(text).not.toContain("secret");
        expect(text).not.toContain(bare);
      }
      await eventually(async () => receiver.received.length, (n) => n >= 2, 15_000);
      expect(receiver.received.map((r) => r.verified)).toEqual(["ok", "ok"]);
      expect(server.output()).toContain("webhook-create");
      expect(server.output()).not.toContain(bare);
    } finally {
      await unhook([id]);
      receiver.stop();
    }
  }, 30_000);

  test("a link webhook names a link that exists: none by that id, or a deleted one's, is refused (400 on linkId), on POST and PATCH", async () => {
    await madeLink(server.url, key, "hook-gone");
    expect((await api(server.url, key, "DELETE", "/api/links/hook-gone")).status).toBe(200);
    const receiver = startReceiver();
    const body = { url: receiver.url, events: ["link.created"] };
    for (const linkId of ["no-such-link", "hook-gone"]) {
      const r = await api(server.url, key, "POST", "/api/webhooks", { ...body, linkId });
      expect({ linkId, status: r.status, body: r.body }).toEqual({
        linkId, status: 400, body: { success: false, error: `no link with the id ${linkId}`, code: "bad_request", field: "linkId", errors: [{ code: "bad_request", field: "linkId", error: `no link with the id ${linkId}` }] },
      });
    }
    const made = await api(server.url, key, "POST", "/api/webhooks", body);
    expect(made.status).toBe(201);
    try {
      const moved = await api(server.url, key, "PATCH", `/api/webhooks/${made.body.data.id}`, { linkId: "no-such-link", enabled: false });
      expect([moved.status, moved.body.code, moved.body.field]).toEqual([400, "bad_request", "linkId"]);
      // Nothing was written: neither a webhook nor the change.
      const list = await api(server.url, key, "GET", "/api/webhooks");
      expect(list.body.data.webhooks.map((w: any) => [w.id, w.linkId, w.enabled])).toEqual([[made.body.data.id, null, true]]);
    } finally {
      await unhook([made.body.data.id]);
      receiver.stop();
    }
  }, 30_000);

  test("where a webhook may post: no private address without --webhook-allow-private, the link rules, known event types", async () => {
    const strictKey = makeKey(strict.dbPath, "admin");
    const refused = async (base: string, k: string, body: Record<string, unknown>) => {
      const r = await api(base, k, "POST", "/api/webhooks", { events: ["link.created"], ...body });
      return { url: body.url, status: r.status, code: r.body.code, field: r.body.field };
    };
    const receiver = startReceiver();
    try {
      // Finding 7 of #33: NAT64's local-use /48 carrying 127.0.0.1, 192.0.0.0/24 and the documentation ranges too.
      const special = ["http://[64:ff9b:1::7f00:1]/", "http://192.0.0.1/", "http://192.0.2.1/", "http://198.51.100.1/", "http://203.0.113.1/", "http://[2001:db8::1]/", "http://[3fff::1]/"];
      for (const url of [receiver.url, "http://10.0.0.5/", "http://192.168.1.2/hook", "http://[::1]/", "http://nas.local/hook", ...special]) {
        expect(await refused(strict.url, strictKey, { url })).toEqual({ url, status: 400, code: "url_private", field: "url" });
      }
      // The rules of a link's destination, on both services.
      for (const [base, k] of [[strict.url, strictKey], [server.url, key]] as const) {
        expect(await refused(base, k, { url: "ftp://hooks.example.com/x" })).toEqual({ url: "ftp://hooks.example.com/x", status: 400, code: "url_scheme", field: "url" });
        expect(await refused(base, k, { url: `${base}/hook` })).toEqual({ url: `${base}/hook`, status: 400, code: "url_self", field: "url" });
        for (const events of [[], ["link.exploded"], ["link.created", "link.exploded"], "link.created"]) {
          expect({ events, ...(await refused(base, k, { url: "https://hooks.example.com/x", events })) }).toEqual({
            events, url: "https://hooks.example.com/x", status: 400, code: "events_invalid", field: "events",
          });
        }
      }
      // A public address is taken; it cannot be moved to a private one afterwards.
      const made = await api(strict.url, strictKey, "POST", "/api/webhooks", { url: "https://hooks.example.com/x", events: ["link.created"] });
      expect(made.status).toBe(201);
      const moved = await api(strict.url, strictKey, "PATCH", `/api/webhooks/${made.body.data.id}`, { url: "http://10.0.0.5/" });
      expect([moved.status, moved.body.code]).toEqual([400, "url_private"]);
      const list = await api(strict.url, strictKey, "GET", "/api/webhooks");
      expect(list.body.data.webhooks.map((w: any) => w.url)).toEqual(["https://hooks.example.com/x"]);
    } finally {
      receiver.stop();
    }
  }, 30_000);
});

describe("staying whole", () => {
  test("kill -9 mid-delivery: after a restart every event arrives, none twice under another id", async () => {
    const receiver = startReceiver();
    receiver.answer(NO_ANSWER);
    const first = await startServer({ args: ARGS });
    let second: RunningServer | null = null;
    try {
      const k = makeKey(first.dbPath, "admin");
      await hook(first.url, k, receiver, { events: ["link.created"] });
      const before = ["kill-0", "kill-1", "kill-2", "kill-3", "kill-4", "kill-5"];
      for (const id of before) await madeLink(first.url, k, id);
      await eventually(async () => receiver.received.length, (n) => n >= 1, 15_000);
      // One at a time per webhook: the rest wait behind the one being held.
      expect(receiver.received.map(subject)).toEqual(["kill-0"]);
      first.proc.kill(9);
      await first.proc.exited;
      receiver.answer(() => new Response(null, { status: 204 }));
      second = await startServer({ dir: first.dir, args: ARGS });
      await madeLink(second.url, k, "kill-after");
      const everyLink = [...before, "kill-after"];
      // On PostgreSQL the killed instance's claim holds for LEASE_MS (30 s) first.
      await eventually(async () => receiver.unique().map(subject), (u) => u.length >= everyLink.length, onPostgres ? 60_000 : 20_000, 200);
      const unique = receiver.unique();
      expect(unique.map((r) => r.type)).toEqual(everyLink.map(() => "link.created"));
      expect(unique.map(subject).sort()).toEqual(everyLink.sort());
      // The held message came again under its own webhook-id (at least once), nothing else twice.
      expect(receiver.received.filter((r) => r.id === receiver.received[0]!.id).length).toBe(2);
      expect(receiver.received.length).toBe(everyLink.length + 1);
      expect(receiver.received.every((r) => r.verified === "ok")).toBe(true);
    } finally {
      await second?.dispose();
      await first.dispose();
      receiver.stop();
    }
  }, onPostgres ? 100_000 : 45_000);

  test.skipIf(!onPostgres)("two PostgreSQL instances share the sending: every event once", async () => {
    const database = await (await sharedPostgres()).createDatabase();
    const receiver = startReceiver();
    const pair = await Promise.all([0, 1].map(() => startServer({ database, args: ARGS })));
    try {
      const k = makeKey(database, "admin");
      await hook(pair[0]!.url, k, receiver, { events: ["link.created"] });
      // The other instance learns that link.created is wanted by its poll: until then its links make
      // no event. Probe it until one of its links arrives.
      let probes = 0;
      await eventually(
        async () => {
          await madeLink(pair[1]!.url, k, `probe-${probes++}`);
          return created(receiver);
        },
        (c) => c.some((id) => id?.startsWith("probe-")),
        15_000,
        200,
      );
      const ids = Array.from({ length: 30 }, (_, i) => `pair-${i}`);
      await Promise.all(ids.map((id, i) => madeLink(pair[i % 2]!.url, k, id)));
      await eventually(async () => created(receiver).filter((id) => id?.startsWith("pair-")), (c) => c.length >= ids.length, 30_000, 200);
      expect(created(receiver).filter((id) => id?.startsWith("pair-")).sort()).toEqual([...ids].sort());
      // Each webhook-id exactly once, though both instances were sending.
      const seen = receiver.received.map((r) => r.id);
      expect(seen.length - new Set(seen).size).toBe(0);
      expect(receiver.received.every((r) => r.verified === "ok")).toBe(true);
    } finally {
      await Promise.all(pair.map((s) => s.dispose()));
      await (await sharedPostgres()).dropDatabase(database);
      receiver.stop();
    }
  }, 60_000);

  test("a receiver that never answers holds up only its own webhook", async () => {
    const hanging = startReceiver();
    const normal = startReceiver();
    // Its requests stay open until the service gives up on them (15 s) and hangs up.
    const held: AbortSignal[] = [];
    hanging.answer((request) => {
      held.push(request.signal);
      return NO_ANSWER();
    });
    const a = await hook(server.url, key, hanging, { events: ["link.created"] });
    const b = await hook(server.url, key, normal, { events: ["link.created"] });
    try {
      await madeLink(server.url, key, "slow-0");
      await eventually(async () => hanging.received.length, (n) => n >= 1, 15_000);
      const ids = ["slow-0", "slow-1", "slow-2", "slow-3", "slow-4"];
      for (const id of ids.slice(1)) await madeLink(server.url, key, id);
      await eventually(async () => created(normal), (c) => c.length >= ids.length, 15_000);
      expect(created(normal)).toEqual(ids);
      // All that while the first request to the hanging receiver was open: its own queue waits
      // behind it, the other's did not.
      expect(held.map((signal) => signal.aborted)).toEqual([false]);
      expect(hanging.received.map(subject)).toEqual(["slow-0"]);
      expect((await api(server.url, key, "GET", `/api/webhooks/${a.id}`)).body.data.pending).toBe(ids.length);
    } finally {
      await unhook([a.id, b.id]);
      hanging.stop();
      normal.stop();
    }
  }, 30_000);
});
