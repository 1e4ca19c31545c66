// Nothing fails silently (#34): which instances' settings rule a database, what a command and the
// API allow from them and what their refusals say; a name judged by what it resolves to (an injected
// resolver: nothing leaves the machine); a webhook's status and the cause of its disabling; and the
// dispatcher's log lines about a failing webhook, once per change of state and with the host only
// (a real SQLite file, an injected clock and an injected sender that answers as the test says).

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GONE_AFTER_MS, rulingInstances, type InstanceRecord } from "../../src/instances/registry.ts";
import { commandLeave, serviceLeave } from "../../src/events/webhook-leave.ts";
import { checkWebhookName, checkWebhookUrl } from "../../src/events/webhook-url.ts";
import { disabledCause, webhookStatus, DISABLED_REASONS } from "../../src/events/types.ts";
import { createDispatcher } from "../../src/events/dispatcher.ts";
import type { SendOutcome } from "../../src/events/sender.ts";
import { openEvents } from "../../src/db/open-storage.ts";
import type { Fields } from "../../src/log.ts";

const T = Date.parse("2026-11-28T10:00:00.000Z");
const MINUTE = 60_000;
const rec = (name: string, allow: boolean, o: Partial<InstanceRecord> = {}): InstanceRecord => ({ name, startedAt: T, seenAt: T, stoppedAt: null, webhookAllowPrivate: allow, ...o });

describe("which instances rule", () => {
  test("every running one; none running: the one that ran last; none ever: nothing", () => {
    const a = rec("a:8080", true);
    const b = rec("b:8080", false, { seenAt: T + MINUTE });
    expect(rulingInstances([a, b], T + 2 * MINUTE).map((r) => r.name)).toEqual(["a:8080", "b:8080"]);
    // Stopped cleanly, or unseen for GONE_AFTER_MS (killed): no longer running; the last to run rules.
    const stoppedA = { ...a, stoppedAt: T + 3 * MINUTE };
    expect(rulingInstances([stoppedA, b], T + 4 * MINUTE).map((r) => r.name)).toEqual(["b:8080"]);
    expect(rulingInstances([stoppedA, b], T + MINUTE + GONE_AFTER_MS).map((r) => r.name)).toEqual(["a:8080"]);
    expect(rulingInstances([], T)).toEqual([]);
  });
});

describe("what a command allows", () => {
  test("no service ran yet: the command's own flag decides", () => {
    expect(commandLeave([], T, true)).toEqual({ allowPrivate: true, why: "" });
    expect(commandLeave([], T, false)).toMatchObject({ allowPrivate: false, why: expect.stringContaining("no service has run on this database yet") });
  });

  test("the service's settings decide, whatever the command's flag: running or stopped", () => {
    const without = rec("vm:8080", false);
    for (const flag of [true, false]) {
      const running = commandLeave([without], T + MINUTE, flag);
      expect(running.allowPrivate).toBe(false);
      expect(running.why).toContain("the service on this database (vm:8080, running since 2026-11-28 10:00 UTC) was started without --webhook-allow-private");
      expect(running.why.includes("on this command does not change")).toBe(flag);
      const stopped = commandLeave([{ ...without, stoppedAt: T + 5 * MINUTE }], T + 60 * MINUTE, flag);
      expect(stopped).toMatchObject({ allowPrivate: false, why: expect.stringContaining("(vm:8080, last running 2026-11-28 10:05 UTC)") });
      expect(commandLeave([rec("vm:8080", true)], T + MINUTE, flag)).toEqual({ allowPrivate: true, why: "" });
    }
  });

  test("several instances running: each must allow it; those that do not are named", () => {
    const leave = commandLeave([rec("a:8080", true), rec("b:8080", false), rec("c:8080", false)], T + MINUTE, true);
    expect(leave).toMatchObject({ allowPrivate: false, why: expect.stringContaining("the instances b:8080, c:8080 on this database were started without --webhook-allow-private") });
  });
});

describe("what the API allows", () => {
  test("its own flag first; then every other running instance; a stopped one does not count", () => {
    expect(serviceLeave([rec("me:1", true)], T, false, "me:1")).toMatchObject({ allowPrivate: false, why: expect.stringContaining("which this service was started without") });
    expect(serviceLeave([rec("me:1", true), rec("old:1", false, { stoppedAt: T })], T + MINUTE, true, "me:1")).toEqual({ allowPrivate: true, why: "" });
    expect(serviceLeave([rec("me:1", true), rec("b:1", false)], T + MINUTE, true, "me:1")).toMatchObject({
      allowPrivate: false, why: expect.stringContaining("the instance b:1 on this database runs without --webhook-allow-private"),
    });
    // Before its own row is written (the first moments after listening), the others still count.
    expect(serviceLeave([rec("b:1", false)], T + MINUTE, true, null).allowPrivate).toBe(false);
  });
});

describe("a name judged by its addresses", () => {
  const refuse = { allowPrivate: false, why: "the service on this database (vm:8080, …) was started without --webhook-allow-private" };
  const resolveTo = (...addresses: string[]) => async () => addresses;

  test("a name resolving to a special-purpose address is refused with the leave's reason; a public one is taken", async () => {
    const refused = await checkWebhookName("http://nas.example.org/hook", refuse, resolveTo("93.184.216.34", "192.168.1.10"));
    expect(refused).toEqual({ ok: false, code: "url_private", error: expect.stringContaining("nas.example.org resolves to 192.168.1.10") });
    expect((refused as { error: string }).error).toContain(refuse.why);
    expect(await checkWebhookName("http://hooks.example.org/hook", refuse, resolveTo("93.184.216.34"))).toEqual({ ok: true, url: "http://hooks.example.org/hook" });
  });

  test("allowed, or written as an address: nothing is resolved; a name that does not resolve now is taken", async () => {
    const never = async (): Promise<string[]> => {
      throw new Error("resolved");
    };
    expect(await checkWebhookName("http://nas.example.org/", { allowPrivate: true, why: "" }, never)).toMatchObject({ ok: true });
    expect(await checkWebhookName("http://93.184.216.34/", refuse, never)).toMatchObject({ ok: true });
    expect(await checkWebhookName("http://gone.example.org/", refuse, async () => [])).toMatchObject({ ok: true });
  });

  test("a written address names the reason too", () => {
    const verdict = checkWebhookUrl("http://192.168.1.10/hook", { ownHosts: [], leave: refuse, isBlocked: () => false });
    expect(verdict).toEqual({ ok: false, code: "url_private", error: expect.stringContaining(`192.168.1.10 is a private address (RFC 1918); ${refuse.why}`) });
  });
});

describe("a webhook's status", () => {
  const last = (state: "pending" | "delivered" | "failed") => ({ at: T, state, responseCode: 500, error: "answered 500" });
  test("waiting, delivering, failing (its last attempt failed, whether it is retried or failed for good), disabled", () => {
    expect(webhookStatus({ enabled: true, lastDelivery: null })).toBe("waiting");
    expect(webhookStatus({ enabled: true, lastDelivery: last("delivered") })).toBe("delivering");
    expect(webhookStatus({ enabled: true, lastDelivery: last("pending") })).toBe("failing");
    expect(webhookStatus({ enabled: true, lastDelivery: last("failed") })).toBe("failing");
    expect(webhookStatus({ enabled: false, lastDelivery: last("delivered") })).toBe("disabled");
  });
  test("the cause of a disabling, from the reason stored", () => {
    expect([DISABLED_REASONS.gone, DISABLED_REASONS.failed_24h, DISABLED_REASONS.admin, "something older", null].map(disabledCause)).toEqual(["gone", "failed_24h", "admin", null, null]);
  });
});

describe("the log of a failing webhook", () => {
  let dir: string;
  let close: () => Promise<void>;
  beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), "shortener-health-"))));
  afterEach(async () => {
    await close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  test("said once when it starts failing, once when it delivers again, once when it is turned off; the host only", async () => {
    const opened = await openEvents(join(dir, "s.db"), null, true);
    close = opened.close;
    const store = opened.events;
    const lines: { level: string; msg: string; fields: Fields }[] = [];
    const log = { info: (msg: string, fields: Fields = {}) => lines.push({ level: "info", msg, fields }), error: (msg: string, fields: Fields = {}) => lines.push({ level: "error", msg, fields }) };
    let answer: SendOutcome = { code: 500, retryAfter: null, error: null };
    const clock = { now: T };
    const url = "https://hooks.example.org/services/T000/B000/s3cret?token=abc123";
    const hook = await store.createWebhook({ url, events: ["link.created"], linkSeq: null, tag: null, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", createdAt: T });
    // The sender is injected: nothing is sent anywhere.
    const dispatcher = createDispatcher({ store, send: async () => answer, now: () => clock.now, random: () => 0.5, log });
    const created = (id: string) => ({ type: "link.created" as const, linkSeq: null, linkId: null, tags: [], at: clock.now, data: JSON.stringify({ link: { id } }) });
    const attempt = async () => {
      const [head] = (await store.deliveries(hook.id, null, 100)).filter((d) => d.state === "pending").reverse();
      if (head) clock.now = Math.max(clock.now, head.nextAt);
      await dispatcher.tick();
      await dispatcher.idle();
    };

    await store.append([created("a")]);
    for (let i = 0; i < 3; i++) await attempt(); // three failed attempts
    expect((await store.deliveries(hook.id, null, 10))[0]).toMatchObject({ attempts: 3, state: "pending" });
    expect(lines).toEqual([{ level: "error", msg: expect.stringContaining("webhook 1 is failing: answered 500"), fields: { webhook: hook.id, host: "hooks.example.org", reason: "answered 500" } }]);

    answer = { code: 204, retryAfter: null, error: null };
    await attempt();
    await store.append([created("b")]);
    await attempt();
    expect(lines.slice(1)).toEqual([{ level: "info", msg: `webhook ${hook.id} delivers again`, fields: { webhook: hook.id, host: "hooks.example.org" } }]);

    // An error that quotes the URL is logged with its origin only.
    answer = { code: null, retryAfter: null, error: `request to ${url} failed: connection refused` };
    await store.append([created("c")]);
    await attempt();
    await attempt();
    answer = { code: 410, retryAfter: null, error: null };
    await attempt();
    expect(lines.slice(2).map((l) => [l.level, l.msg.split(":")[0]])).toEqual([["error", `webhook ${hook.id} is failing`], ["error", `webhook ${hook.id} turned off`]]);
    expect(lines[2]!.fields.reason).toBe("request to https://hooks.example.org failed: connection refused");
    expect(lines[3]!.msg).toContain(DISABLED_REASONS.gone);
    expect(JSON.stringify(lines)).not.toMatch(/s3cret|abc123|services/);
  });
});
