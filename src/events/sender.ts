// One attempt of a delivery over HTTP: a POST of the signed body, 15 s at most, no redirect
// followed (a 3xx is a failure, as the Standard Webhooks specification says). The request goes
// through the outbound policy (src/outbound/reach.ts): a name is resolved and checked (no
// special-purpose address unless --webhook-allow-private) and the request goes to the address
// that was checked, the name in Host and in TLS (src/outbound/pinned-fetch.ts).

import { pinnedFetch } from "../outbound/pinned-fetch.ts";
import { OutboundRefused, OutboundUnresolved, type OutboundPolicy } from "../outbound/reach.ts";
import { WEBHOOK_FLAG } from "./webhook-leave.ts";

export const SEND_TIMEOUT_MS = 15_000;

/** `code`: the answer's status, null when none came (`error` says why). */
export type SendOutcome = { code: number | null; retryAfter: string | null; error: string | null };
export type Send = (url: string, headers: Record<string, string>, body: string) => Promise<SendOutcome>;

/** The policy webhooks post under: special-purpose addresses only with --webhook-allow-private. */
function webhookReach(allowPrivate: boolean): OutboundPolicy {
  return { allowSpecial: allowPrivate, flag: WEBHOOK_FLAG };
}

export function httpSender(options: { allowPrivate: boolean; timeoutMs?: number; userAgent: string }): Send {
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const reach = webhookReach(options.allowPrivate);
  return async (target, headers, body) => {
    try {
      const response = await pinnedFetch(target, {
        method: "POST", headers: { "Content-Type": "application/json", "User-Agent": options.userAgent, ...headers }, body, redirect: "manual", timeoutMs,
      }, reach);
      // The answer's body is not wanted: dropped without reading it all.
      await response.body?.cancel().catch(() => {});
      return { code: response.status, retryAfter: response.headers.get("retry-after"), error: null };
    } catch (err) {
      const kind = err instanceof Error ? err.name : "";
      const error = err instanceof OutboundRefused || err instanceof OutboundUnresolved ? err.message
        : kind === "TimeoutError" || kind === "AbortError" ? `no answer within ${timeoutMs / 1000} s`
        : err instanceof Error ? err.message : String(err);
      return { code: null, retryAfter: null, error };
    }
  };
}
