// One attempt of a delivery over HTTP: a POST of the signed body, 15 s at most, no redirect
// followed (a 3xx is a failure, as the Standard Webhooks specification says), and, unless
// --webhook-allow-private, never to a name that resolves to a private address.

import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isPrivateAddress } from "./addresses.ts";

export const SEND_TIMEOUT_MS = 15_000;

/** `code`: the answer's status, null when none came (`error` says why). */
export type SendOutcome = { code: number | null; retryAfter: string | null; error: string | null };
export type Send = (url: string, headers: Record<string, string>, body: string) => Promise<SendOutcome>;

export function httpSender(options: { allowPrivate: boolean; timeoutMs?: number; userAgent: string }): Send {
  return async (url, headers, body) => {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    if (!options.allowPrivate) {
      let addresses: string[];
      try {
        addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
      } catch (err) {
        return { code: null, retryAfter: null, error: `cannot resolve ${host}: ${err instanceof Error ? err.message : String(err)}` };
      }
      if (addresses.some(isPrivateAddress)) return { code: null, retryAfter: null, error: `${host} resolves to a private address (see --webhook-allow-private)` };
    }
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "User-Agent": options.userAgent, ...headers },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(options.timeoutMs ?? SEND_TIMEOUT_MS),
      });
      // The answer's body is not wanted: dropped without reading it all.
      await response.body?.cancel().catch(() => {});
      return { code: response.status, retryAfter: response.headers.get("retry-after"), error: null };
    } catch (err) {
      const name = err instanceof Error ? err.name : "";
      const error = name === "TimeoutError" || name === "AbortError" ? `no answer within ${(options.timeoutMs ?? SEND_TIMEOUT_MS) / 1000} s` : err instanceof Error ? err.message : String(err);
      return { code: null, retryAfter: null, error };
    }
  };
}
