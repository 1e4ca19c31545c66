// The delivery thread's work, one tick at a time (docs/webhooks.md: Webhooks): announce links that expired,
// fan the outbox out to the webhooks, and send each webhook's next delivery. Sends to different
// webhooks run side by side and one webhook has one send at a time (order per webhook): a
// receiver that is slow or down holds up only its own queue. The clock and randomness come in
// through options, so that retries and backoff can be tested without waiting.

import type { Logger } from "../log.ts";
import { DISABLED_REASONS, type EventType } from "./types.ts";
import { nextAttempt, retryAfterMs } from "./backoff.ts";
import { createFailureLog } from "./failure-log.ts";
import { planFanOut } from "./fan-out.ts";
import { linkGone } from "./payloads.ts";
import type { Send } from "./sender.ts";
import { signedHeaders } from "./signing.ts";
import { EXPIRY_MARK_EVERY_MS, type AttemptResult, type Claimed, type EventStore } from "./store.ts";

/** A claim lasts the longest send and a margin: an instance that died mid-send leaves it this long. */
export const LEASE_MS = 30_000;
/** link.clicks goes to one webhook at most once a second (clicks arriving meanwhile join the next). */
export const CLICKS_EVERY_MS = 1_000;
/** How long the delivery log keeps a delivery (docs/webhooks.md: Webhooks). */
export const DELIVERY_LOG_MS = 7 * 24 * 3_600_000;
const FAN_OUT_PAGE = 500;
const PRUNE_EVERY_MS = 3_600_000;

export type DispatcherOptions = {
  store: EventStore;
  send: Send;
  now: () => number;
  /** in [0, 1): the backoff's jitter */
  random: () => number;
  log: Logger;
  /** A send finished: the webhook's next delivery may go now rather than at the next tick. */
  onSent?: () => void;
  /** --base-url's host: the payloads' default domain when no domain row names it (event-domains.ts) */
  baseHost?: string | null;
};

export type Dispatcher = {
  /** One round: sweep, fan out, start the sends that are due. Resolves, with the event types wanted, when the sends are started. */
  tick(): Promise<EventType[]>;
  /** Resolves when every send started so far has finished (tests, shutdown). */
  idle(): Promise<void>;
  /** Whether a send is under way (the delivery thread is not stopped while one is). */
  sending(): boolean;
};

export function createDispatcher(o: DispatcherOptions): Dispatcher {
  const sending = new Map<number, Promise<void>>();
  const failures = createFailureLog(o.log);
  const clicksSentAt = new Map<number, number>();
  let prunedAt = 0;
  let sweptAt = 0;

  const attempt = async (c: Claimed): Promise<void> => {
    const at = o.now();
    const headers = signedHeaders(c.webhook.secret, c.delivery.messageId, Math.floor(at / 1000), c.body);
    const outcome = await o.send(c.webhook.url, headers, c.body);
    const done = o.now();
    const result = verdict(c, outcome.code, outcome.retryAfter, outcome.error, at, done);
    await o.store.finish(c.delivery, result, c.lease);
    failures.attempted(c.webhook, result);
  };

  const verdict = (c: Claimed, code: number | null, retryAfter: string | null, error: string | null, at: number, done: number): AttemptResult => {
    const base = { at, responseCode: code, error: code === null ? error : code >= 200 && code < 300 ? null : `answered ${code}` };
    if (code !== null && code >= 200 && code < 300) return { ...base, state: "delivered", nextAt: at, disable: null };
    if (code === 410) return { ...base, state: "failed", nextAt: at, disable: DISABLED_REASONS.gone };
    const attempts = c.delivery.attempts + 1;
    const next = nextAttempt(attempts, c.delivery.firstAttemptAt ?? at, done, o.random(), code === 429 || code === 503 ? retryAfterMs(retryAfter, done) : null);
    if (next === null) return { ...base, state: "failed", nextAt: at, disable: DISABLED_REASONS.failed_24h };
    return { ...base, state: "pending", nextAt: next, disable: null };
  };

  const startSends = async (now: number) => {
    for (const { webhookId, type } of await o.store.due(now)) {
      if (sending.has(webhookId)) continue;
      if (type === "link.clicks" && now - (clicksSentAt.get(webhookId) ?? 0) < CLICKS_EVERY_MS) continue;
      // The lease runs from the claim itself, not from the tick's start (a long fan-out came between).
      const claimed = await o.store.claim(webhookId, o.now(), LEASE_MS);
      if (claimed === null) continue; // another instance has it, or it changed meanwhile
      if (claimed.delivery.type === "link.clicks") clicksSentAt.set(webhookId, now);
      const send = attempt(claimed)
        .catch((err) => o.log.error("a webhook delivery could not be recorded; it is sent again later", { webhook: webhookId, error: err instanceof Error ? err.message : String(err) }))
        .finally(() => {
          sending.delete(webhookId);
          o.onSent?.();
        });
      sending.set(webhookId, send);
    }
  };

  return {
    async tick() {
      const now = o.now();
      const wanted = await o.store.wantedTypes();
      if (wanted.includes("link.gone")) await o.store.sweepExpired(now, (links) => links.map((l) => linkGone(l, "expired", l.tags, l.expiresAt)));
      // Without a link.gone webhook the mark still moves: a new one hears no old news.
      else if (now - sweptAt >= EXPIRY_MARK_EVERY_MS) {
        sweptAt = now;
        await o.store.sweepExpired(now, () => []);
      }
      if (await o.store.hasEvents()) while ((await o.store.fanOut((input) => planFanOut(input, now, o.baseHost ?? null), FAN_OUT_PAGE)) === FAN_OUT_PAGE);
      if (wanted.length > 0 || sending.size > 0) await startSends(now);
      if (now - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = now;
        await o.store.prune(now - DELIVERY_LOG_MS);
      }
      return wanted;
    },
    async idle() {
      while (sending.size > 0) await Promise.all([...sending.values()]);
    },
    sending: () => sending.size > 0,
  };
}
