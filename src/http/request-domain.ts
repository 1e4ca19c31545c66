// Which domain a request is for (docs/several-domains.md: Hosts): its Host, or X-Forwarded-Host
// from a trusted proxy, matched without case or port against the configured domains, once, at the
// door. With no domain configured every request is the default domain's, as before there were any.

import type { DomainDirectory, DomainEntry } from "../domains/directory.ts";
import { LANGUAGES } from "../lang.ts";
import { isReserved, looksLikeId } from "../links/alias.ts";
import type { TrustedProxies } from "../visits/client-ip.ts";
import { apiError } from "./responses.ts";

/** The domain the door found for a request that is not a click (the app's handlers ask it). */
const found = new WeakMap<Request, DomainEntry>();

/** Who sent a request: the socket's address, read only when asked (a click reads it once for all). */
export type PeerOf = { peer(): string };

/** The domain a request names, or null for a host none of the configured domains has. The peer is read only behind a trusted proxy. */
export function hostDomain(request: Request, from: PeerOf, trusted: TrustedProxies, directory: DomainDirectory): DomainEntry | null {
  let host = request.headers.get("host") ?? "";
  if (!trusted.empty) {
    const forwarded = request.headers.get("x-forwarded-host");
    if (forwarded !== null && trusted.contains(from.peer())) host = firstHost(forwarded);
  }
  return directory.forHost(host);
}

function firstHost(header: string): string {
  const comma = header.indexOf(",");
  return (comma === -1 ? header : header.slice(0, comma)).trim();
}

/** Keeps the domain the door found for a request the app answers. */
export function rememberDomain(request: Request, domain: DomainEntry): void {
  found.set(request, domain);
}

/** The domain of a request the door let in: the one it found, else the default (no domain configured, an in-process test). */
export function requestDomain(request: Request, directory: DomainDirectory): DomainEntry {
  return found.get(request) ?? directory.defaultDomain;
}

const LANGUAGE_STATS = new Set(LANGUAGES.map((l) => `/${l}/stats/`));

/**
 * What a domain other than the default serves besides clicks: its root, robots.txt, /health, the
 * stats pages and their API (as --stats-access allows), the built assets, the certificate ask, a
 * protected link's form, and the Shlink API's tree, which answers health there (Shlink's web client
 * asks each domain's host) and refuses the rest itself, in its own format with CORS headers. The dashboard, sign-in, the management API, /metrics and the OpenAPI
 * document answer on the default domain only: one origin holds the session cookie and is the one
 * an owner signs in at, and a short domain shared with others never serves them.
 */
export function servedOnShortDomains(path: string): boolean {
  if (path === "/" || path === "/robots.txt" || path === "/health" || path === "/favicon.ico" || path === "/api/domains/tls") return true;
  if (path.startsWith("/assets/") || path.startsWith("/stats/") || path.startsWith("/api/stats") || isRestPath(path)) return true;
  if (LANGUAGE_STATS.has(path.slice(0, 10))) return true;
  // /<alias>/qr: a link's QR code (docs/sharing.md: QR codes by URL), on the link's own host.
  if (path.endsWith("/qr") && path.lastIndexOf("/", path.length - 4) === 0) return isAlias(path.slice(1, -3));
  // POST /<alias>: a protected link's password form.
  return path.lastIndexOf("/") === 0 && isAlias(path.slice(1));
}

function isAlias(segment: string): boolean {
  return looksLikeId(segment) && !isReserved(segment);
}

/** The Shlink API's tree, /rest itself included (docs/shlink-api.md: Errors). */
export function isRestPath(path: string): boolean {
  return path === "/rest" || path.startsWith("/rest/");
}

/** The answer to a host that is no configured domain: 421, naming no link (JSON under /api/). */
export function misdirected(path: string | null): Response {
  const message = "this service does not answer for that host";
  if (path !== null && path.startsWith("/api/")) return apiError(421, "host_unknown", message);
  // The Shlink API's clients read a problem document (docs/shlink-api.md: Errors).
  if (path !== null && isRestPath(path)) {
    const problem = { type: "urn:shortener:error:host_unknown", title: "host_unknown", detail: message, status: 421 };
    return new Response(JSON.stringify(problem), { status: 421, headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } });
  }
  return new Response(`421 Misdirected Request: ${message}\n`, { status: 421, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/** A management surface asked on a short domain: 404 in the surface's format. */
export function onlyOnMainDomain(path: string, page: () => Response): Response {
  if (path.startsWith("/api/") || path === "/api" || path === "/metrics") return apiError(404, "not_found", "this is answered on the service's main domain only");
  return page();
}
