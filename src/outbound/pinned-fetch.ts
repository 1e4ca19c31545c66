// An HTTP request to the address that was checked (reach.ts): the URL's name is resolved and
// checked, the request goes to that address, and the name goes in Host and in TLS (SNI and the
// certificate's check). Redirects are never followed: the next hop would not be checked.

import { ipFamily } from "../visits/ip-family.ts";
import { checkServerIdentity } from "node:tls";
import { reachableAddress, type OutboundPolicy, type Resolve } from "./reach.ts";

export type PinnedRequest = {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** manual: a 3xx is an answer like any other; error: a 3xx fails the request */
  redirect: "manual" | "error";
  /** the whole request: connection, answer and body (the lookup has its own 5 s) */
  timeoutMs: number;
};

/** fetch() to `target`'s checked address; throws OutboundRefused, OutboundUnresolved, or what fetch throws (a TimeoutError when late). */
export async function pinnedFetch(target: string | URL, request: PinnedRequest, policy: OutboundPolicy, resolve?: Resolve): Promise<Response> {
  const url = new URL(target);
  const name = url.hostname.replace(/^\[|\]$/g, "");
  const address = await reachableAddress(name, policy, resolve);
  const pinned = new URL(url);
  pinned.hostname = ipFamily(address) === 6 ? `[${address}]` : address;
  const byName = url.protocol === "https:" && address !== name;
  return await fetch(pinned, {
    method: request.method ?? "GET",
    headers: { ...request.headers, Host: url.host },
    ...(request.body === undefined ? {} : { body: request.body }),
    redirect: request.redirect,
    signal: AbortSignal.timeout(request.timeoutMs),
    ...(byName ? { tls: checkedAs(name) } : {}),
  });
}

/**
 * TLS options for a connection made to an address in place of `name`: SNI and the certificate's
 * check still by the name (for pinnedFetch, and database clients given the checked address).
 */
export function checkedAs(name: string) {
  return { serverName: name, checkServerIdentity: (_: string, cert: Parameters<typeof checkServerIdentity>[1]) => checkServerIdentity(name, cert) };
}
