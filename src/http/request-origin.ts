// Who sent a request and under which public URL it arrived; proxy headers only from trusted peers.

import type { Config } from "../config.ts";
import { clientAddress, type TrustedProxies } from "../visits/client-ip.ts";
import { isAuthority } from "./front-door.ts";

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

/** `{base}` for URLs we hand out: --base-url, else scheme and Host of the request; null if Host is unusable. */
export function publicBase(config: Pick<Config, "baseUrl">, server: PeerServer, request: Request, trusted: TrustedProxies): string | null {
  if (config.baseUrl) return config.baseUrl;
  const { proto, host } = addressedTo(server, request, trusted);
  if (!host || !isAuthority(host)) return null;
  return `${proto ?? "http"}://${host.toLowerCase()}`;
}

/**
 * Whether the scheme browsers reach us by is known rather than guessed: --base-url names it, or a
 * trusted proxy says it (X-Forwarded-Proto). Otherwise publicBase's "http" is only a default.
 */
export function schemeIsKnown(config: Pick<Config, "baseUrl">, server: PeerServer, request: Request, trusted: TrustedProxies): boolean {
  return Boolean(config.baseUrl) || addressedTo(server, request, trusted).proto !== null;
}

/**
 * Whether the request names this service in its Host (X-Forwarded-Host from a trusted proxy): with
 * --base-url, the base URL's host and port (case, a trailing dot and a default port aside), or an
 * address literal or `localhost` (the service reached directly, a local Prometheus scrape). A page
 * that rebinds its own DNS name to this machine (DNS rebinding) sends that name, and is refused.
 * Without --base-url the service does not know its name, and every Host is taken as its own.
 */
export function addressedToUs(config: Pick<Config, "baseUrl">, server: PeerServer, request: Request, trusted: TrustedProxies): boolean {
  if (!config.baseUrl) return true;
  const { proto, host: given } = addressedTo(server, request, trusted);
  const host = given?.replace(/\.(?=(?::\d*)?$)/, ""); // the fully qualified form: "s.example.org.:443"
  if (!host || !isAuthority(host)) return false;
  const own = new URL(config.baseUrl);
  const asked = new URL(`${proto ?? "http"}://${host}`);
  const name = asked.hostname;
  if (name === "localhost" || name.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(name)) return true;
  if (name !== own.hostname.replace(/\.$/, "")) return false;
  // Ports: the default of either scheme counts as none (a proxy may spell out :443 or :80).
  const port = asked.port === DEFAULT_PORTS[own.protocol] ? "" : asked.port;
  return port === own.port;
}

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/** The scheme (null when nobody said) and Host a request was sent to; a trusted proxy's X-Forwarded-Proto/Host win. */
function addressedTo(server: PeerServer, request: Request, trusted: TrustedProxies): { proto: "http" | "https" | null; host: string | null } {
  let proto: "http" | "https" | null = null;
  let host = request.headers.get("host");
  if (!trusted.empty && trusted.contains(peerAddress(server, request))) {
    const fwdProto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
    if (fwdProto === "https" || fwdProto === "http") proto = fwdProto;
    host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || host;
  }
  return { proto, host };
}

/** The hosts a destination must not point at (a redirect loop): the public base's and the request's. */
export function ownHosts(base: string, request: Request): string[] {
  return [new URL(base).host, request.headers.get("host") ?? ""].filter((h) => h !== "");
}
