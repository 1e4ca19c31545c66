// Who sent a request and under which public URL it arrived; proxy headers only from trusted peers.

import type { Config } from "../config.ts";
import { clientAddress, type TrustedProxies } from "../visits/client-ip.ts";

export type PeerServer = { requestIP(request: Request): { address: string } | null } | null | undefined;

// Requests built in-process (app.handle in tests) have no socket; they count as this machine.
const NO_SOCKET = "127.0.0.1";

/** The socket peer's address. */
export function peerAddress(server: PeerServer, request: Request): string {
  return server?.requestIP(request)?.address ?? NO_SOCKET;
}

/** The address a request came from, after the trusted-proxy rule. */
export function requestClient(server: PeerServer, request: Request, trusted: TrustedProxies): string {
  const peer = peerAddress(server, request);
  return trusted.empty ? peer : clientAddress(peer, request.headers, trusted);
}

const HOST_PATTERN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** `{base}` for URLs we hand out: --base-url, else scheme and Host of the request; null if Host is unusable. */
export function publicBase(config: Pick<Config, "baseUrl">, server: PeerServer, request: Request, trusted: TrustedProxies): string | null {
  if (config.baseUrl) return config.baseUrl;
  let proto = "http";
  let host = request.headers.get("host");
  if (!trusted.empty && trusted.contains(peerAddress(server, request))) {
    const fwdProto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
    if (fwdProto === "https" || fwdProto === "http") proto = fwdProto;
    host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || host;
  }
  if (!host || !HOST_PATTERN.test(host)) return null;
  return `${proto}://${host.toLowerCase()}`;
}

/** The hosts a destination must not point at (a redirect loop): the public base's and the request's. */
export function ownHosts(base: string, request: Request): string[] {
  return [new URL(base).host, request.headers.get("host") ?? ""].filter((h) => h !== "");
}
