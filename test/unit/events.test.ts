// Webhooks and the live view (src/events): the Standard Webhooks signature (the published test
// vector, and the standardwebhooks library's verify), the retry schedule and Retry-After, the
// fan-out's filters and click bundles, where a webhook may post, the events a recorded batch
// writes, the dispatcher with an injected clock over a real SQLite file and a real receiver, and
// the live view's streams, their bounds and their framing.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { newMessageId, newSecret, signedHeaders } from "../../src/events/signing.ts";
import { nextAttempt, retryAfterMs, RETRY_FOR_MS } from "../../src/events/backoff.ts";
import { envelope, MAX_CLICKS, planFanOut } from "../../src/events/fan-out.ts";
import { checkWebhookUrl } from "../../src/events/webhook-url.ts";
import { linkClicks, linkGone, linkMilestone, milestonesCrossed } from "../../src/events/payloads.ts";
import { batchEvents, ITEMIZED_PER_BATCH } from "../../src/events/batch-events.ts";
import { createEventWants, wantsRefresher } from "../../src/events/wants.ts";
import { CLICKS_EVERY_MS, createDispatcher, type Dispatcher } from "../../src/events/dispatcher.ts";
import { httpSender } from "../../src/events/sender.ts";
import { createLiveHub, MAX_BUFFERED_BYTES, MAX_STREAMS, MAX_STREAMS_PER_ADDRESS, type LiveHub } from "../../src/events/live-hub.ts";
import type { LiveVisit } from "../../src/events/live.ts";
import type { EventStore, OpenClicks } from "../../src/events/store.ts";
import { EVENT_TYPES, type EventType, type OutboxEvent, type StoredEvent, type Webhook, type WebhookWithSecret } from "../../src/events/types.ts";
import { openEvents } from "../../src/db/open-storage.ts";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import { sqliteLinks } from "../../src/db/sqlite/links.ts";
import { isoTime } from "../../src/util/day.ts";
import type { Visit } from "../../src/visits/visit.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { eventually } from "../support/eventually.ts";

const T = Date.parse("2026-11-23T12:00:00.000Z");
const SECOND = 1_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;

/** Each link id its own seq, as a database numbers its links: what events and webhooks are matched by. */
const seqs = new Map<string, number>();
const seqOf = (id: string): number => seqs.get(id) ?? seqs.set(id, 100 + seqs.size).get(id)!;
const ref = (id: string) => ({ seq: seqOf(id), id });

const visit = (linkId: string, o: Partial<Visit> = {}): Visit => ({
  linkSeq: seqOf(linkId), linkId, ts: T, browser: "Chrome", os: "Linux", device: "desktop", country: "DE", referrer: "Direct",
  utmSource: null, utmMedium: null, utmCampaign: null, isBot: false, visitor: null, ...o,
});

describe("signing", () => {
  test("the Standard Webhooks specification's test vector gives its published signature", () => {
    const headers = signedHeaders("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
    expect(headers).toEqual({
      "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "webhook-timestamp": "1614265330",
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    });
  });

  test("newSecret is whsec_ and the base64 of 32 random bytes; what it signs verifies with standardwebhooks, and a changed body or another secret does not", () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(newSecret()).not.toBe(secret);
    const body = JSON.stringify({ type: "link.created", timestamp: isoTime(T), data: { link: { id: "abc" } } });
    // The library checks the timestamp against its own clock (5 minutes either way): signed now.
    const headers = signedHeaders(secret, newMessageId(), Math.floor(Date.now() / 1000), body);
    expect(new StandardWebhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new StandardWebhook(secret).verify(body.replace("abc", "abd"), headers)).toThrow();
    expect(() => new StandardWebhook(newSecret()).verify(body, headers)).toThrow();
  });

  test("message ids: msg_ and letters and digits only (no '.', which separates the signed content), each new", () => {
    const ids = Array.from({ length: 2_000 }, newMessageId);
    for (const id of ids) {
      expect(id).toMatch(/^msg_[A-Za-z0-9]{22}$/);
      expect(id.includes(".")).toBe(false);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("backoff", () => {
  const GAPS = [10 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];

  test("after the 1st, 2nd, … failure: about 10 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, then 10 h again; jitter within ±20 %", () => {
    for (const [i, gap] of [...GAPS, 10 * HOUR].entries()) {
      const attempts = i + 1;
      expect({ attempts, at: nextAttempt(attempts, T, T, 0.5, null)! - T }).toEqual({ attempts, at: gap });
      expect({ attempts, at: nextAttempt(attempts, T, T, 0, null)! - T }).toEqual({ attempts, at: Math.round(gap * 0.8) });
      const high = nextAttempt(attempts, T, T, 0.999, null)! - T;
      expect(high).toBeGreaterThan(gap * 1.19);
      expect(high).toBeLessThan(gap * 1.2);
    }
  });

  test("never past 24 hours after the first attempt, and null once they are over", () => {
    expect(nextAttempt(8, T, T + 20 * HOUR, 0.999, null)).toBe(T + RETRY_FOR_MS);
    expect(nextAttempt(1, T, T + RETRY_FOR_MS - 1, 0.5, null)).toBe(T + RETRY_FOR_MS);
    expect(nextAttempt(9, T, T + RETRY_FOR_MS, 0.5, null)).toBeNull();
    expect(nextAttempt(2, T, T + 25 * HOUR, 0.5, null)).toBeNull();
    expect(RETRY_FOR_MS).toBe(24 * HOUR);
  });

  test("Retry-After in seconds or as an HTTP date, in ms from now; unreadable or absent: null", () => {
    expect(retryAfterMs("120", T)).toBe(120_000);
    expect(retryAfterMs(" 7 ", T)).toBe(7_000);
    expect(retryAfterMs("0", T)).toBe(0);
    expect(retryAfterMs(new Date(T + 90_000).toUTCString(), T)).toBe(90_000);
    expect(retryAfterMs(new Date(T - 90_000).toUTCString(), T)).toBe(0);
    expect(retryAfterMs("soon", T)).toBeNull();
    expect(retryAfterMs(null, T)).toBeNull();
  });

  test("a Retry-After replaces the gap (no jitter), is capped at 6 hours, and still ends with the day", () => {
    expect(nextAttempt(1, T, T, 0.999, 120_000)).toBe(T + 120_000);
    expect(nextAttempt(4, T, T, 0, 120_000)).toBe(T + 120_000);
    expect(nextAttempt(1, T, T, 0.5, 86_400_000)).toBe(T + 6 * HOUR);
    expect(nextAttempt(5, T, T + 23 * HOUR, 0.5, 6 * HOUR)).toBe(T + RETRY_FOR_MS);
  });
});

describe("fan-out", () => {
  const NOW = T + MINUTE;
  let seq = 0;
  const hook = (id: number, o: Partial<Webhook> = {}): Webhook => ({
    id, url: `https://hooks.example.com/${id}`, events: [...EVENT_TYPES], linkSeq: null, linkId: null, tag: null, enabled: true, disabledReason: null, createdAt: T, ...o,
  });
  /** A webhook of the one link `linkId`. */
  const of = (linkId: string): Partial<Webhook> => ({ linkSeq: seqOf(linkId), linkId });
  const event = (type: EventType, linkId: string, tags: string[] | null = null, at = T, linkSeq = seqOf(linkId)): StoredEvent =>
    ({ seq: ++seq, type, linkSeq, linkId, linkDomain: "", tags, at, data: JSON.stringify({ id: linkId, n: seq }) });
  /** A link.clicks event of n itemized clicks and `omitted` counted ones. */
  const clicks = (linkId: string, n: number, at = T, omitted = 0): StoredEvent => ({
    seq: ++seq, type: "link.clicks", linkSeq: seqOf(linkId), linkId, linkDomain: "", tags: null, at, data: JSON.stringify({ clicks: Array.from({ length: n }, (_, i) => ({ timestamp: isoTime(at), i })), omitted }),
  });
  /** `tagsOf`: link ids and their tags now (read by the links' seqs). */
  const plan = (events: StoredEvent[], webhooks: Webhook[], o: { tagsOf?: [string, string[]][]; open?: OpenClicks[] } = {}) =>
    planFanOut({ events, webhooks, tagsOf: new Map((o.tagsOf ?? []).map(([id, tags]) => [seqOf(id), tags])), open: new Map((o.open ?? []).map((x) => [x.webhookId, x])), defaultDomain: null }, NOW);
  const body = (d: { body: string }) => JSON.parse(d.body);
  /** A stored, still open link.clicks delivery of n clicks of link "z". */
  const openBundle = (webhookId: number, n: number): OpenClicks => ({
    id: 40 + webhookId, webhookId, clicks: n, body: envelope("link.clicks", T - SECOND, { clicks: Array.from({ length: n }, () => ({ id: "z", timestamp: isoTime(T - SECOND) })) }),
  });

  test("a webhook hears only the types it wants; each delivery is the event's envelope, made now, with a message id of its own", () => {
    const created = event("link.created", "a");
    const deleted = event("link.deleted", "a");
    const updated = event("link.updated", "a");
    const { inserts, grown } = plan([created, deleted, updated], [hook(1, { events: ["link.created"] }), hook(2, { events: ["link.deleted", "link.milestone"] })]);
    expect(grown).toEqual([]);
    expect(inserts.map((d) => [d.webhookId, d.type])).toEqual([[1, "link.created"], [2, "link.deleted"]]);
    expect(body(inserts[0]!)).toEqual({ type: "link.created", timestamp: isoTime(T), data: JSON.parse(created.data) });
    expect(inserts.every((d) => d.createdAt === NOW && d.clicks === 0 && /^msg_/.test(d.messageId))).toBe(true);
    expect(inserts[0]!.messageId).not.toBe(inserts[1]!.messageId);
  });

  test("a webhook for one link hears only that link's events", () => {
    const { inserts } = plan([event("link.created", "a"), event("link.created", "b"), event("link.updated", "a")], [hook(1, of("a"))]);
    expect(inserts.map((d) => [d.type, body(d).data.id])).toEqual([["link.created", "a"], ["link.updated", "a"]]);
  });

  test("a webhook for one link matches it by seq, not by id: another link of the same id (another domain's) is not it", () => {
    const elsewhere = seqOf("a") + 1_000;
    const { inserts } = plan([event("link.updated", "a", null, T, elsewhere), clicks("a", 1), event("link.updated", "a")], [hook(1, of("a"))]);
    expect(inserts.map((d) => [d.type, JSON.parse(d.body).data.n ?? null])).toEqual([["link.clicks", null], ["link.updated", seq]]);
  });

  test("a webhook for one tag: the event's own tags decide, and for events written without them (clicks, milestones) the link's tags now", () => {
    const events = [
      event("link.created", "a", ["red", "x"]), // tagged red
      event("link.created", "b", ["blue"]),
      event("link.created", "f", []), // untagged then, though tagged red now: the event's tags decide
      event("link.milestone", "c"), // read at fan-out: red
      event("link.milestone", "d"), // read at fan-out: blue
      event("link.milestone", "e"), // no tags known
    ];
    const { inserts } = plan(events, [hook(1, { tag: "red" })], { tagsOf: [["c", ["red"]], ["d", ["blue"]], ["f", ["red"]]] });
    expect(inserts.map((d) => body(d).data.id)).toEqual(["a", "c"]);
  });

  test("clicks are bundled per webhook: one delivery carrying every click, each with its link's id, timed by the last event", () => {
    const { inserts, grown } = plan([clicks("a", 2, T), clicks("b", 3, T + SECOND)], [hook(1, { events: ["link.clicks"] }), hook(2, { events: ["link.clicks", "link.created"] })]);
    expect(grown).toEqual([]);
    expect(inserts.map((d) => [d.webhookId, d.type, d.clicks])).toEqual([[1, "link.clicks", 5], [2, "link.clicks", 5]]);
    const b = body(inserts[0]!);
    expect(b.type).toBe("link.clicks");
    expect(b.timestamp).toBe(isoTime(T + SECOND));
    expect(Object.keys(b.data)).toEqual(["clicks"]); // nothing omitted: no omitted counts
    expect(b.data.clicks.map((c: { id: string }) => c.id)).toEqual(["a", "a", "b", "b", "b"]);
    expect(b.data.clicks[0]).toEqual({ id: "a", domain: null, timestamp: isoTime(T), i: 0 });
  });

  test("every link's payload names its domain beside its id: another domain's by its name, the default's by a row's name, else --base-url's host, else null", () => {
    const on = (e: StoredEvent, linkDomain: string): StoredEvent => ({ ...e, linkDomain });
    const linkData = (id: string) => JSON.stringify({ link: { id, shortUrl: null, tags: [] } });
    const events = [
      { ...on(event("link.created", "a"), "b.example"), data: linkData("a") },
      on(event("link.milestone", "b"), "b.example"),
      on(event("link.gone", "c"), ""),
      on(clicks("d", 1), "b.example"),
      on(clicks("e", 1), ""),
    ];
    const hooks = [hook(1)];
    const planned = (defaultDomain: string | null, baseHost: string | null) =>
      planFanOut({ events, webhooks: hooks, tagsOf: new Map(), open: new Map(), defaultDomain }, NOW, baseHost).inserts.map(body);
    const [created, milestone, gone, bundle] = planned("a.example", "base.example");
    expect(created!.data.link).toEqual({ id: "a", domain: "b.example", shortUrl: null, tags: [] });
    expect(milestone!.data).toMatchObject({ id: "b", domain: "b.example" });
    expect(gone!.data).toMatchObject({ id: "c", domain: "a.example" }); // a domain row names the default
    expect(bundle!.data.clicks.map((c: { id: string; domain: string }) => [c.id, c.domain])).toEqual([["d", "b.example"], ["e", "a.example"]]);
    expect(planned(null, "base.example")[2]!.data.domain).toBe("base.example"); // no row: --base-url's host
    expect(planned(null, null)[2]!.data.domain).toBeNull(); // neither: no name known
  });

  test("clicks counted past a delivery's itemized ones are keyed by id on the default domain, id@domain on another", () => {
    const on = (e: StoredEvent, linkDomain: string): StoredEvent => ({ ...e, linkDomain });
    const { inserts } = plan([on(clicks("same", MAX_CLICKS, T), ""), on(clicks("same", 2, T, 1), "b.example")], [hook(1, { events: ["link.clicks"] })]);
    expect(body(inserts[0]!).data.omitted).toEqual({ "same@b.example": 3 });
    const both = plan([on(clicks("same", MAX_CLICKS, T, 4), ""), on(clicks("same", 1, T), "b.example")], [hook(1, { events: ["link.clicks"] })]);
    expect(body(both.inserts[0]!).data.omitted).toEqual({ same: 4, "same@b.example": 1 });
  });

  test("clicks join a webhook's open bundle from before (grown, not inserted)", () => {
    const { inserts, grown } = plan([clicks("a", 2)], [hook(1, { events: ["link.clicks"] })], { open: [openBundle(1, 1)] });
    expect(inserts).toEqual([]);
    expect(grown.map((g) => [g.id, g.clicks])).toEqual([[41, 3]]);
    expect(body(grown[0]!).data.clicks.map((c: { id: string }) => c.id)).toEqual(["z", "a", "a"]);
  });

  test(`a bundle itemizes at most MAX_CLICKS (${MAX_CLICKS}) clicks and counts the rest per link in omitted`, () => {
    const webhooks = [hook(1, { events: ["link.clicks"] })];
    const fresh = plan([clicks("a", 600), clicks("b", 600), clicks("a", 0, T, 7)], webhooks);
    expect(fresh.inserts.map((d) => d.clicks)).toEqual([MAX_CLICKS]);
    const data = body(fresh.inserts[0]!).data;
    expect(data.clicks).toHaveLength(MAX_CLICKS);
    expect(data.clicks.filter((c: { id: string }) => c.id === "b")).toHaveLength(400);
    expect(data.omitted).toEqual({ b: 200, a: 7 });
    // An open bundle one short of full: one more itemized, the other counted.
    const over = plan([clicks("a", 2, T, 3)], webhooks, { open: [openBundle(1, MAX_CLICKS - 1)] });
    expect(over.inserts).toEqual([]);
    expect(over.grown.map((g) => g.clicks)).toEqual([MAX_CLICKS]);
    expect(body(over.grown[0]!).data.omitted).toEqual({ a: 4 });
    // Counts from before are kept and added to.
    const again = plan([clicks("a", 1)], webhooks, { open: [{ ...over.grown[0]!, webhookId: 1 }] });
    expect(body(again.grown[0]!).data.omitted).toEqual({ a: 5 });
    expect(again.grown[0]!.clicks).toBe(MAX_CLICKS);
  });

  test("any other event closes the bundle, so that nothing is sent out of order", () => {
    const webhooks = [hook(1, { events: ["link.clicks", "link.created"] })];
    const { inserts } = plan([clicks("a", 1), event("link.created", "a"), clicks("a", 2)], webhooks);
    expect(inserts.map((d) => [d.type, d.clicks])).toEqual([["link.clicks", 1], ["link.created", 0], ["link.clicks", 2]]);
    // An open bundle from before: the clicks after the event do not join it.
    const after = plan([event("link.created", "a"), clicks("a", 2)], webhooks, { open: [openBundle(1, 1)] });
    expect(after.inserts.map((d) => [d.type, d.clicks])).toEqual([["link.created", 0], ["link.clicks", 2]]);
    expect(after.grown.every((g) => g.clicks === 1)).toBe(true);
  });

  test("a disabled webhook gets nothing", () => {
    const { inserts, grown } = plan([event("link.created", "a"), clicks("a", 3)], [hook(1, { enabled: false, disabledReason: "the receiver answered 410 Gone" })]);
    expect(inserts).toEqual([]);
    expect(grown).toEqual([]);
  });
});

describe("addresses", () => {
  const rules = (allowPrivate: boolean) => ({ ownHosts: ["sho.rt"], leave: { allowPrivate, why: "reached only with --webhook-allow-private" }, isBlocked: () => false });
  const PRIVATE = [
    "10.0.0.1", "10.255.255.254", "172.16.0.1", "172.31.255.254", "192.168.1.1", "100.64.0.1", "100.127.255.254", "127.0.0.1", "127.8.9.10",
    "169.254.169.254", "0.0.0.0", "[::1]", "[::]", "[fc00::1]", "[fd12:3456::1]", "[fe80::1]", "[febf::1]", "[::ffff:10.0.0.1]", "[::ffff:127.0.0.1]",
    "[::ffff:192.168.0.1]", "printer.local", "nas.lan", "api.internal", "router.home.arpa", "localhost",
    // Finding 7 of #33: NAT64's local-use /48 carrying 127.0.0.1, 192.0.0.0/24 and the documentation ranges
    "[64:ff9b:1::7f00:1]", "[64:ff9b:1::808:808]", "192.0.0.1", "192.0.0.170", "192.0.2.10", "198.51.100.7", "203.0.113.99", "[2001:db8::1]", "[3fff::1]",
    "localhost.", "app.localhost",
  ];
  const PUBLIC = ["hooks.example.com", "93.184.216.34", "192.0.0.9", "[64:ff9b::808:808]", "172.15.255.254", "172.32.0.1", "100.63.255.254", "100.128.0.1", "192.169.0.1", "11.0.0.1", "[2606:4700:4700::1111]", "[::ffff:8.8.8.8]", "local.example.com"];

  test("loopback, private, shared and link-local addresses, and local names, are refused unless private ones are allowed", () => {
    for (const host of PRIVATE) {
      const url = `http://${host}:8080/hook`;
      expect({ url, verdict: checkWebhookUrl(url, rules(false)) }).toMatchObject({ url, verdict: { ok: false, code: "url_private" } });
      expect({ url, verdict: checkWebhookUrl(url, rules(true)) }).toMatchObject({ url, verdict: { ok: true } });
    }
  });

  test("public addresses and names are accepted", () => {
    for (const host of PUBLIC) {
      const url = `https://${host}/hook`;
      expect({ url, verdict: checkWebhookUrl(url, rules(false)) }).toMatchObject({ url, verdict: { ok: true } });
    }
  });

  test("the other URL rules still hold: not a URL, another scheme, the service's own host", () => {
    expect(checkWebhookUrl(42, rules(true))).toMatchObject({ ok: false, code: "url_invalid" });
    expect(checkWebhookUrl("ftp://hooks.example.com/", rules(true))).toMatchObject({ ok: false });
    expect(checkWebhookUrl("https://sho.rt/hook", rules(true))).toMatchObject({ ok: false });
    expect(checkWebhookUrl("https://blocked.example.com/", { ...rules(true), isBlocked: (u: string) => u.includes("blocked") })).toMatchObject({ ok: false, code: "url_blocked" });
  });
});

describe("events of a recorded batch", () => {
  test("milestonesCrossed: the powers of ten from 10 that the total passed", () => {
    expect(milestonesCrossed(0, 9)).toEqual([]);
    expect(milestonesCrossed(9, 10)).toEqual([10]);
    expect(milestonesCrossed(10, 99)).toEqual([]);
    expect(milestonesCrossed(10, 10)).toEqual([]);
    expect(milestonesCrossed(5, 1_000)).toEqual([10, 100, 1_000]);
    expect(milestonesCrossed(999, 1_000_001)).toEqual([1_000, 10_000, 100_000, 1_000_000]);
  });

  const ALL = createEventWants(["link.clicks", "link.milestone", "link.gone"]);

  test("clicks per link first, then each link's milestones and its click limit", () => {
    const visits = [visit("a"), visit("b", { browser: "Firefox" }), visit("a", { isBot: true })];
    const out = batchEvents(ALL, visits, [{ linkSeq: seqOf("a"), linkId: "a", added: 2, total: 10, maxClicks: 10 }, { linkSeq: seqOf("b"), linkId: "b", added: 1, total: 1, maxClicks: null }], T);
    expect(out).toEqual([
      linkClicks(ref("a"), [visits[0]!, visits[2]!], 0, T),
      linkClicks(ref("b"), [visits[1]!], 0, T),
      linkMilestone(ref("a"), 10, 10, T),
      linkGone(ref("a"), "click_limit", null, T),
    ]);
    expect(out.map((e) => [e.linkSeq, e.linkId])).toEqual([[seqOf("a"), "a"], [seqOf("b"), "b"], [seqOf("a"), "a"], [seqOf("a"), "a"]]);
    const data = JSON.parse(out[0]!.data);
    expect(data.omitted).toBe(0);
    expect(data.clicks).toHaveLength(2);
    expect(data.clicks[1]).toMatchObject({ browser: "Chrome", isBot: true, timestamp: isoTime(T) });
    expect(data.clicks[1]).not.toHaveProperty("visitor");
  });

  test(`a batch itemizes ITEMIZED_PER_BATCH (${ITEMIZED_PER_BATCH}) clicks in all and counts the rest per link`, () => {
    const visits = [...Array.from({ length: 80 }, () => visit("a")), ...Array.from({ length: 50 }, () => visit("b")), ...Array.from({ length: 5 }, () => visit("c"))];
    const out = batchEvents(ALL, visits, [], T).map((e) => ({ id: e.linkId, ...JSON.parse(e.data) }));
    expect(out.map((e) => [e.id, e.clicks.length, e.omitted])).toEqual([["a", 80, 0], ["b", 20, 30], ["c", 0, 5]]);
  });

  test("link.gone (click_limit) exactly when the total reaches the limit: not before, not again after", () => {
    const gone = (added: number, total: number) => batchEvents(ALL, [], [{ linkSeq: seqOf("a"), linkId: "a", added, total, maxClicks: 5 }], T).filter((e) => e.type === "link.gone");
    expect(gone(1, 4)).toEqual([]); // below
    expect(gone(1, 5)).toEqual([linkGone(ref("a"), "click_limit", null, T)]); // reached
    expect(gone(3, 7)).toEqual([linkGone(ref("a"), "click_limit", null, T)]); // passed in one batch
    expect(gone(1, 6)).toEqual([]); // already gone before this batch
    expect(gone(2, 7)).toEqual([]);
  });

  test("nothing that no webhook wants: none at all, or only the wanted types", () => {
    const visits = [visit("a")];
    const totals = [{ linkSeq: seqOf("a"), linkId: "a", added: 1, total: 10, maxClicks: 10 }];
    expect(batchEvents(createEventWants([]), visits, totals, T)).toEqual([]);
    expect(batchEvents(createEventWants(["link.created", "link.deleted"]), visits, totals, T)).toEqual([]);
    expect(batchEvents(createEventWants(["link.milestone"]), visits, totals, T).map((e) => e.type)).toEqual(["link.milestone"]);
    expect(batchEvents(createEventWants(["link.gone"]), visits, totals, T).map((e) => e.type)).toEqual(["link.gone"]);
    expect(batchEvents(createEventWants(["link.clicks"]), visits, totals, T).map((e) => e.type)).toEqual(["link.clicks"]);
  });
});

describe("dispatcher (an injected clock, a real SQLite file, a real receiver)", () => {
  const quiet = { info() {}, error() {} };
  type Rig = { store: EventStore; dispatcher: Dispatcher; receiver: Receiver; clock: { now: number }; hook: WebhookWithSecret };
  let dir: string;
  let close: () => Promise<void>;
  let receiver: Receiver;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "shortener-events-"));
    receiver = startReceiver();
  });
  afterEach(async () => {
    receiver.stop();
    await close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A store on a fresh file, one webhook to the receiver, and a dispatcher whose clock starts at the real time (the receiver verifies signatures against it). */
  async function rig(events: EventType[] = ["link.created", "link.updated"]): Promise<Rig> {
    const opened = await openEvents(join(dir, "s.db"), null, true);
    close = opened.close;
    const store = opened.events;
    // A whole second: Retry-After dates and webhook-timestamp are in seconds.
    const clock = { now: Math.floor(Date.now() / 1000) * 1000 };
    const hook = await store.createWebhook({ url: receiver.url, events, linkSeq: null, tag: null, secret: newSecret(), createdAt: clock.now });
    receiver.setSecret(hook.secret);
    const dispatcher = createDispatcher({ store, send: httpSender({ allowPrivate: true, userAgent: "test" }), now: () => clock.now, random: () => 0.5, log: quiet });
    return { store, dispatcher, receiver, clock, hook };
  }
  /** A link stored in the rig's file under `id`, with the seq the file gave it. */
  const storedLink = (id: string) => {
    const db = openDatabase(join(dir, "s.db"));
    try {
      const seq = sqliteLinks(db).insert(id, { url: `https://example.com/${id}` }, T);
      if (typeof seq !== "number") throw new Error(`link ${id}: ${seq}`);
      return { seq, id };
    } finally {
      db.close();
    }
  };
  const step = async (r: Rig) => {
    await r.dispatcher.tick();
    await r.dispatcher.idle();
  };
  const created = (id: string, at: number): OutboxEvent => ({ type: "link.created", linkSeq: null, linkId: null, tags: [], at, data: JSON.stringify({ link: { id } }) });
  const deliveries = async (r: Rig, webhookId = r.hook.id) => [...(await r.store.deliveries(webhookId, null, 100))].reverse();

  test("a receiver answering 500 is tried again on the schedule, never earlier, until 24 hours have passed; then the delivery fails and the webhook is disabled", async () => {
    const r = await rig();
    const T0 = r.clock.now;
    receiver.answer(() => new Response("down", { status: 500 }));
    await r.store.append([created("a", T0)]);
    await step(r);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ verified: "ok", type: "link.created", timestamp: T0 / 1000 });
    let [d] = await deliveries(r);
    expect(d).toMatchObject({ state: "pending", attempts: 1, responseCode: 500, error: "answered 500", firstAttemptAt: T0, lastAttemptAt: T0, nextAt: T0 + 10 * SECOND });
    // random() = 0.5: the gaps without jitter; the last lands on the day's end.
    const expected = [10 * SECOND, 70 * SECOND, 370 * SECOND, 2_170 * SECOND, 9_370 * SECOND, 27_370 * SECOND, 63_370 * SECOND, RETRY_FOR_MS];
    const tried: number[] = [];
    while (d!.state === "pending") {
      const sent = receiver.received.length;
      r.clock.now = d!.nextAt - 1;
      await step(r);
      expect({ at: r.clock.now - T0, sent: receiver.received.length }).toEqual({ at: r.clock.now - T0, sent }); // not yet
      r.clock.now = d!.nextAt;
      await step(r);
      expect(receiver.received).toHaveLength(sent + 1);
      tried.push(r.clock.now - T0);
      [d] = await deliveries(r);
      expect(tried.length).toBeLessThan(20);
    }
    expect(tried).toEqual(expected);
    expect(d).toMatchObject({ state: "failed", attempts: 9, firstAttemptAt: T0, lastAttemptAt: T0 + RETRY_FOR_MS, responseCode: 500 });
    // Every attempt was the same message, stamped with its own time.
    expect(new Set(receiver.received.map((x) => x.id)).size).toBe(1);
    expect(receiver.received.map((x) => x.timestamp * 1000 - T0)).toEqual([0, ...expected]);
    expect(await r.store.webhook(r.hook.id)).toMatchObject({ enabled: false, disabledReason: "deliveries failed for 24 hours", pending: 0 });
    expect(await r.store.wantedTypes()).toEqual([]);
    // Disabled: a later event is not even queued for it.
    await r.store.append([created("b", T0 + 25 * HOUR)]);
    r.clock.now = T0 + 25 * HOUR;
    await step(r);
    expect(receiver.received).toHaveLength(9);
    expect(await deliveries(r)).toHaveLength(1);
  });

  test("410 Gone disables the webhook at once", async () => {
    const r = await rig();
    receiver.answer(() => new Response(null, { status: 410 }));
    await r.store.append([created("a", r.clock.now)]);
    await step(r);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries(r))[0]).toMatchObject({ state: "failed", attempts: 1, responseCode: 410 });
    expect(await r.store.webhook(r.hook.id)).toMatchObject({ enabled: false, disabledReason: "the receiver answered 410 Gone" });
    r.clock.now += HOUR;
    await r.store.append([created("b", r.clock.now)]);
    await step(r);
    expect(receiver.received).toHaveLength(1);
  });

  test("429 with Retry-After: 120 is tried again 120 s later (not at the 10 s gap); 503 with an HTTP date at that date", async () => {
    const r = await rig();
    const T0 = r.clock.now;
    receiver.answer((_, n) =>
      n === 0 ? new Response(null, { status: 429, headers: { "Retry-After": "120" } })
      : n === 1 ? new Response(null, { status: 503, headers: { "Retry-After": new Date(T0 + 420 * SECOND).toUTCString() } })
      : new Response(null, { status: 204 }));
    await r.store.append([created("a", T0)]);
    await step(r);
    expect((await deliveries(r))[0]).toMatchObject({ state: "pending", responseCode: 429, nextAt: T0 + 120 * SECOND });
    r.clock.now = T0 + 119_999;
    await step(r);
    expect(receiver.received).toHaveLength(1);
    r.clock.now = T0 + 120 * SECOND;
    await step(r);
    expect(receiver.received).toHaveLength(2);
    expect((await deliveries(r))[0]).toMatchObject({ state: "pending", attempts: 2, responseCode: 503, nextAt: T0 + 420 * SECOND });
    r.clock.now = T0 + 420 * SECOND;
    await step(r);
    expect((await deliveries(r))[0]).toMatchObject({ state: "delivered", attempts: 3, responseCode: 204, error: null });
    expect(await r.store.webhook(r.hook.id)).toMatchObject({ enabled: true, pending: 0, lastDelivery: { at: T0 + 420 * SECOND, state: "delivered", responseCode: 204 } });
  });

  test("order per webhook: the next event waits behind a failing head, and another webhook's queue does not", async () => {
    const r = await rig();
    const other = await r.store.createWebhook({ url: receiver.url.replace("/hook", "/other"), events: ["link.created"], linkSeq: null, tag: null, secret: r.hook.secret, createdAt: r.clock.now });
    let failing = true;
    receiver.answer((request) => new Response(null, { status: failing && new URL(request.url).pathname === "/hook" ? 500 : 204 }));
    await r.store.append([created("first", r.clock.now), created("second", r.clock.now)]);
    /** The links of what reached a path, in order (each webhook's deliveries have message ids of their own). */
    const seen = async (path: string) => {
      const ids = new Set((await deliveries(r, path === "/hook" ? r.hook.id : other.id)).map((d) => d.messageId));
      return receiver.received.filter((x) => ids.has(x.id)).map((x) => x.body.data.link.id);
    };
    await step(r);
    await step(r);
    await step(r);
    // /other got both in order; /hook only its head, tried once (not due again for 10 s).
    expect(await seen("/other")).toEqual(["first", "second"]);
    expect(await seen("/hook")).toEqual(["first"]);
    expect((await deliveries(r)).map((d) => [d.state, d.attempts])).toEqual([["pending", 1], ["pending", 0]]);
    failing = false;
    r.clock.now += 10 * SECOND;
    await step(r);
    await step(r);
    expect(await seen("/hook")).toEqual(["first", "first", "second"]);
    expect((await deliveries(r)).map((d) => d.state)).toEqual(["delivered", "delivered"]);
    expect(receiver.unique()).toHaveLength(4);
  });

  test(`link.clicks goes to a webhook at most once every ${CLICKS_EVERY_MS} ms; clicks recorded meanwhile join one delivery`, async () => {
    const r = await rig(["link.clicks"]);
    const T0 = r.clock.now;
    // Stored links: a delivery names each click's link by the id read back by its seq.
    const [a, b, c] = [storedLink("a"), storedLink("b"), storedLink("c")];
    await r.store.append([linkClicks(a, [visit("a")], 0, T0)]);
    await step(r);
    expect(receiver.ofType("link.clicks").map((x) => x.body.data.clicks.length)).toEqual([1]);
    await r.store.append([linkClicks(a, [visit("a"), visit("a")], 0, T0), linkClicks(b, [visit("b")], 0, T0)]);
    await step(r);
    r.clock.now = T0 + CLICKS_EVERY_MS - 1;
    await r.store.append([linkClicks(c, [visit("c")], 0, r.clock.now)]);
    await step(r);
    expect(receiver.received).toHaveLength(1); // too soon after the first
    r.clock.now = T0 + CLICKS_EVERY_MS;
    await step(r);
    expect(receiver.ofType("link.clicks").map((x) => x.body.data.clicks.map((c: { id: string }) => c.id))).toEqual([["a"], ["a", "a", "b", "c"]]);
    expect(receiver.unique()).toHaveLength(2);
    expect((await deliveries(r)).map((d) => d.state)).toEqual(["delivered", "delivered"]);
  });
});

describe("live hub", () => {
  let hubs: LiveHub[] = [];
  afterEach(() => {
    for (const h of hubs) h.closeAll();
    hubs = [];
  });
  const hub = (onWatch: (w: { ids: string[]; all: boolean }) => void = () => {}) => {
    const h = createLiveHub(onWatch, () => T);
    hubs.push(h);
    return h;
  };
  const open = (h: LiveHub, address: string, linkId: string | null, o: { mayCount?: (id: string) => boolean | Promise<boolean> } = {}) => {
    const r = h.open({ address, linkId, ready: { linkId }, ...o });
    if (!(r instanceof Response)) throw new Error(`refused: ${r}`);
    return r;
  };
  test("after closeAll (the service stopping) no stream opens: it would hold the server's stop for good", () => {
    const h = createLiveHub(() => {});
    const s = open(h, "198.51.100.1", "a");
    h.closeAll();
    expect([h.streams(), h.open({ address: "198.51.100.1", linkId: "a", ready: {} })]).toEqual([0, "closed"]);
    expect(s.body).not.toBeNull();
  });

  const liveVisit = (n: number): LiveVisit => ({ timestamp: isoTime(T + n)!, browser: "Firefox", os: "Linux", device: "desktop", country: "DE", referrer: "Direct", isBot: n % 2 === 0 });

  type Frame = { event: string; data: unknown; raw: string };
  /** Reads a stream's frames (heartbeats left out); `next(n)` waits, at most 10 s, for n more. */
  const frames = (response: Response) => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const got: Frame[] = [];
    let taken = 0;
    const pull = async (): Promise<boolean> => {
      const r = await Promise.race([reader.read(), Bun.sleep(10_000).then(() => null)]);
      if (r === null || r.done) return false;
      text += decoder.decode(r.value, { stream: true });
      let end: number;
      while ((end = text.indexOf("\n\n")) >= 0) {
        const raw = text.slice(0, end + 2);
        text = text.slice(end + 2);
        const event = /^event: (.*)$/m.exec(raw)?.[1] ?? "";
        if (event !== "heartbeat") got.push({ event, data: JSON.parse(/^data: (.*)$/m.exec(raw)?.[1] ?? "null"), raw });
      }
      return true;
    };
    return {
      reader,
      async next(n = 1): Promise<Frame[]> {
        while (got.length < taken + n) if (!(await pull())) break;
        const out = got.slice(taken, taken + n);
        taken += out.length;
        return out;
      },
    };
  };

  test(`at most ${MAX_STREAMS_PER_ADDRESS} streams per address ("too_many" after), others unaffected; a closed stream frees its place`, async () => {
    const h = hub();
    const mine = Array.from({ length: MAX_STREAMS_PER_ADDRESS }, () => open(h, "198.51.100.1", "a"));
    expect(h.open({ address: "198.51.100.1", linkId: "b", ready: {} })).toBe("too_many");
    expect(h.open({ address: "198.51.100.2", linkId: "a", ready: {} })).toBeInstanceOf(Response);
    expect(h.streams()).toBe(MAX_STREAMS_PER_ADDRESS + 1);
    await mine[0]!.body!.cancel();
    expect(h.streams()).toBe(MAX_STREAMS_PER_ADDRESS);
    expect(h.open({ address: "198.51.100.1", linkId: "b", ready: {} })).toBeInstanceOf(Response);
  });

  test(`at most ${MAX_STREAMS} streams in all, whatever the addresses`, () => {
    const h = hub();
    for (let i = 0; i < MAX_STREAMS; i++) open(h, `10.0.${Math.floor(i / MAX_STREAMS_PER_ADDRESS)}.1`, i % 2 === 0 ? null : `l${i}`);
    expect(h.streams()).toBe(MAX_STREAMS);
    expect(h.open({ address: "203.0.113.9", linkId: "a", ready: {} })).toBe("too_many");
    expect(h.open({ address: "203.0.113.9", linkId: null, ready: {} })).toBe("too_many");
  });

  test("SSE framing: a ready event first, then a visit reaches the streams of its link and no other", async () => {
    const h = hub();
    const a = frames(open(h, "198.51.100.1", "a"));
    const a2 = frames(open(h, "198.51.100.2", "a"));
    const b = frames(open(h, "198.51.100.1", "b"));
    const all = frames(open(h, "198.51.100.3", null));
    const v1 = liveVisit(1);
    const v2 = liveVisit(2);
    h.publish({ visits: [["a", v1]], more: [], counts: [] });
    h.publish({ visits: [["b", v2], ["elsewhere", v2]], more: [], counts: [] });
    const [ready, visit] = await a.next(2);
    expect(ready!.raw).toBe('event: ready\ndata: {"linkId":"a"}\n\n');
    expect(visit!.raw).toBe(`event: visit\ndata: ${JSON.stringify({ id: "a", visit: v1 })}\n\n`);
    expect((await a2.next(2)).map((f) => [f.event, f.data])).toEqual([["ready", { linkId: "a" }], ["visit", { id: "a", visit: v1 }]]);
    // b's second frame is b's visit: a's never reached it.
    expect((await b.next(2)).map((f) => [f.event, f.data])).toEqual([["ready", { linkId: "b" }], ["visit", { id: "b", visit: v2 }]]);
    // The every-link stream gets counts, not visits: its next frame after ready is the clicks.
    h.publish({ visits: [], more: [], counts: [["a", 1, 1]] });
    expect((await all.next(2)).map((f) => [f.event, f.data])).toEqual([["ready", { linkId: null }], ["clicks", { clicks: 1, humans: 1 }]]);
  });

  test("a batch's visits of a link and its `more` count (the visits beyond those itemized) reach the link's stream as one write", async () => {
    const h = hub();
    const reader = open(h, "198.51.100.1", "a").body!.getReader();
    await reader.read(); // ready
    const v1 = liveVisit(1);
    const v2 = liveVisit(2);
    h.publish({ visits: [["a", v1], ["b", v1], ["a", v2]], more: [["a", 30, 20], ["b", 5, 5]], counts: [] });
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe(
      `event: visit\ndata: ${JSON.stringify({ id: "a", visit: v1 })}\n\n` +
        `event: visit\ndata: ${JSON.stringify({ id: "a", visit: v2 })}\n\n` +
        'event: more\ndata: {"id":"a","clicks":30,"humans":20}\n\n',
    );
  });

  test("the watched links and whether a stream watches every link are reported on each change", async () => {
    const told: { ids: string[]; all: boolean }[] = [];
    const h = hub((w) => told.push({ ids: [...w.ids].sort(), all: w.all }));
    const a = open(h, "198.51.100.1", "a");
    const b = open(h, "198.51.100.1", "b");
    const a2 = open(h, "198.51.100.1", "a");
    const all = open(h, "198.51.100.1", null);
    expect(told).toEqual([{ ids: ["a"], all: false }, { ids: ["a", "b"], all: false }, { ids: ["a", "b"], all: false }, { ids: ["a", "b"], all: true }]);
    await a.body!.cancel();
    expect(told.at(-1)).toEqual({ ids: ["a", "b"], all: true });
    await a2.body!.cancel();
    expect(told.at(-1)).toEqual({ ids: ["b"], all: true });
    await all.body!.cancel();
    await b.body!.cancel();
    expect(told.at(-1)).toEqual({ ids: [], all: false });
    expect(h.watched()).toEqual({ ids: [], all: false });
    expect(h.streams()).toBe(0);
  });

  test(`a reader that does not read is dropped once more than MAX_BUFFERED_BYTES (${MAX_BUFFERED_BYTES}) wait for it; one that reads keeps its stream`, async () => {
    const h = hub();
    open(h, "198.51.100.1", "a"); // never read
    const partial = open(h, "198.51.100.2", "a");
    const partialReader = partial.body!.getReader();
    await partialReader.read(); // the ready frame, then nothing more
    const fast = open(h, "198.51.100.3", "a");
    const reader = fast.body!.getReader();
    let bytes = 0;
    let visits = 0;
    const decoder = new TextDecoder();
    void (async () => {
      for (;;) {
        const r = await reader.read();
        if (r.done) return;
        bytes += r.value.length;
        visits += decoder.decode(r.value).split("event: visit\n").length - 1;
      }
    })();
    const round = Array.from({ length: 100 }, (_, i): [string, LiveVisit] => ["a", liveVisit(i)]);
    const roundBytes = round.reduce((n, [id, v]) => n + new TextEncoder().encode(`event: visit\ndata: ${JSON.stringify({ id, visit: v })}\n\n`).length, 0);
    let published = 0;
    for (let i = 0; i < 40; i++) {
      h.publish({ visits: round, more: [], counts: [] });
      published += round.length;
      if (i === 0) expect(h.streams()).toBe(3); // a backlog under the bound is kept
      // The reading stream takes it all before the next round.
      const target = published;
      await eventually(async () => visits, (n) => n >= target, 10_000, 1);
    }
    expect(roundBytes * 40).toBeGreaterThan(MAX_BUFFERED_BYTES * 2);
    expect(visits).toBe(4_000);
    expect(h.streams()).toBe(1);
    expect(h.watched()).toEqual({ ids: ["a"], all: false });
    // The partly read stream was errored, not left hanging.
    let error: unknown = null;
    try {
      for (;;) if ((await partialReader.read()).done) break;
    } catch (err) {
      error = err;
    }
    expect(String(error)).toContain("fell too far behind");
  });

  test("a stream of every link gets `clicks` counts of the links it may count, summed over the interval and then reset", async () => {
    const h = hub();
    const all = frames(open(h, "198.51.100.1", null, { mayCount: (id) => id !== "hidden" }));
    const some = frames(open(h, "198.51.100.2", null, { mayCount: async (id) => id === "a" }));
    const one = frames(open(h, "198.51.100.3", "a"));
    h.publish({ visits: [], more: [], counts: [["a", 3, 2], ["hidden", 5, 5]] });
    h.publish({ visits: [], more: [], counts: [["b", 1, 0]] });
    expect((await all.next(2)).map((f) => [f.event, f.data])).toEqual([["ready", { linkId: null }], ["clicks", { clicks: 4, humans: 2 }]]);
    expect((await some.next(2)).map((f) => [f.event, f.data])).toEqual([["ready", { linkId: null }], ["clicks", { clicks: 3, humans: 2 }]]);
    h.publish({ visits: [], more: [], counts: [["b", 1, 1]] });
    expect((await all.next()).map((f) => [f.event, f.data])).toEqual([["clicks", { clicks: 1, humans: 1 }]]);
    // A link's stream got no counts: after the counts went out, its next frame is a visit.
    h.publish({ visits: [["a", liveVisit(1)]], more: [], counts: [] });
    expect((await one.next(2)).map((f) => f.event)).toEqual(["ready", "visit"]);
  });
});

describe("wantsRefresher", () => {
  test("the newest read wins: a read started before a change and answered after it never undoes it", async () => {
    const answers: ((types: EventType[]) => void)[] = [];
    const applied: EventType[][] = [];
    const refresh = wantsRefresher(() => new Promise<EventType[]>((resolve) => answers.push(resolve)), (types) => applied.push(types));
    const before = refresh(); // e.g. the delivery thread's sign, read before the webhook was added
    const after = refresh(); // the add's own
    answers[1]!(["link.updated"]);
    await after;
    answers[0]!([]);
    await before;
    expect(applied).toEqual([["link.updated"]]);
    // In order, each is applied.
    const third = refresh();
    answers[2]!(["link.created"]);
    await third;
    expect(applied.at(-1)).toEqual(["link.created"]);
  });
});
