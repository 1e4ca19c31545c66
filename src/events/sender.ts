// One attempt of a delivery over HTTP: a POST of the signed body, 15 s at most, no redirect
// followed (a 3xx is a failure, as the Standard Webhooks specification says). A name is resolved
// here, checked (no private address unless --webhook-allow-private), and the request goes to the
// address that was checked, the name in Host and in TLS (SNI and the certificate's check): a name
// that answers differently the second time (DNS rebinding) cannot lead it elsewhere.

import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { checkServerIdentity } from "node:tls";
import { isPrivateAddress } from "./addresses.ts";

export const SEND_TIMEOUT_MS = 15_000;
const LOOKUP_TIMEOUT_MS = 5_000;

/** `code`: the answer's status, null when none came (`error` says why). */
export type SendOutcome = { code: number | null; retryAfter: string | null; error: string | null };
export type Send = (url: string, headers: Record<string, string>, body: string) => Promise<SendOutcome>;

export function httpSender(options: { allowPrivate: boolean; timeoutMs?: number; userAgent: string }): Send {
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  return async (target, headers, body) => {
    const url = new URL(target);
    const name = url.hostname.replace(/^\[|\]$/g, "");
    let address: string;
    try {
      address = isIP(name) ? name : await resolve(name);
    } catch (err) {
      return { code: null, retryAfter: null, error: `cannot resolve ${name}: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (!options.allowPrivate && isPrivateAddress(address)) return { code: null, retryAfter: null, error: `${name} resolves to a private address (see --webhook-allow-private)` };
    const pinned = new URL(url);
    pinned.hostname = isIP(address) === 6 ? `[${address}]` : address;
    try {
      const response = await fetch(pinned, {
        method: "POST",
        headers: { "Content-Type": "application/json", "User-Agent": options.userAgent, ...headers, Host: url.host },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
        ...(url.protocol === "https:" && address !== name ? { tls: { serverName: name, checkServerIdentity: (_: string, cert: Parameters<typeof checkServerIdentity>[1]) => checkServerIdentity(name, cert) } } : {}),
      });
      // The answer's body is not wanted: dropped without reading it all.
      await response.body?.cancel().catch(() => {});
      return { code: response.status, retryAfter: response.headers.get("retry-after"), error: null };
    } catch (err) {
      const kind = err instanceof Error ? err.name : "";
      const error = kind === "TimeoutError" || kind === "AbortError" ? `no answer within ${timeoutMs / 1000} s` : err instanceof Error ? err.message : String(err);
      return { code: null, retryAfter: null, error };
    }
  };
}

/** The first address of a name (every one must pass the private check: the client could be sent to any). */
async function resolve(name: string): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${LOOKUP_TIMEOUT_MS / 1000} s`)), LOOKUP_TIMEOUT_MS)));
  try {
    const all = await Promise.race([lookup(name, { all: true }), timeout]);
    if (all.length === 0) throw new Error("no address");
    return all.find((a) => isPrivateAddress(a.address))?.address ?? all[0]!.address;
  } finally {
    clearTimeout(timer);
  }
}
