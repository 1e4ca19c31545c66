// The cookies this service sets: the session (HttpOnly, SameSite=Strict, 30 days from its last
// use) and the short-lived one that carries an OpenID sign-in from its start to the provider's
// callback. That one must come back on the provider's cross-site redirect, so it is SameSite=Lax;
// it is HttpOnly, valid only under the callback's path, for ten minutes, and cleared once used.

import type { Config } from "../config.ts";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import type { TrustedProxies } from "../visits/client-ip.ts";
import { publicBase, type PeerServer } from "./request-origin.ts";

export const FLOW_COOKIE = "shortener_oidc";
export const FLOW_COOKIE_PATH = "/api/session/oidc";
export const FLOW_LIFETIME_MS = 600_000;

type CookieDeps = { config: Pick<Config, "baseUrl">; trusted: TrustedProxies };

/** The session cookie's Set-Cookie value; an empty token and lifetime 0 clear it. */
export function sessionCookie(request: Request, server: PeerServer, deps: CookieDeps, token: string, lifetimeMs: number): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(lifetimeMs / 1000)}${secure(request, server, deps)}`;
}

/** The sign-in flow's cookie; an empty value and lifetime 0 clear it. */
export function flowCookie(request: Request, server: PeerServer, deps: CookieDeps, value: string, lifetimeMs: number): string {
  return `${FLOW_COOKIE}=${value}; Path=${FLOW_COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${Math.floor(lifetimeMs / 1000)}${secure(request, server, deps)}`;
}

/** The value of the session cookie, or null. */
export function sessionToken(request: Request): string | null {
  return cookieValue(request, SESSION_COOKIE);
}

/** A cookie's value from the request, or null. */
export function cookieValue(request: Request, name: string): string | null {
  const cookies = request.headers.get("cookie");
  if (cookies === null) return null;
  for (const part of cookies.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function secure(request: Request, server: PeerServer, deps: CookieDeps): string {
  return reachedOverHttps(request, server, deps) ? "; Secure" : "";
}

/**
 * Whether the browser speaks https to us. --base-url or a trusted proxy say so (publicBase); behind
 * a TLS proxy declared to neither, the browser's Origin says so (a sign-in always sends it), and so
 * does the proxy's X-Forwarded-Proto on the renewals (GET /api/session carries no Origin). Those two
 * are believed from anyone: Secure only narrows where the browser sends the cookie, so a header
 * that asks for it can weaken nothing (at worst a client's own cookie stops working over http).
 */
function reachedOverHttps(request: Request, server: PeerServer, deps: CookieDeps): boolean {
  if (publicBase(deps.config, server, request, deps.trusted)?.startsWith("https://")) return true;
  if (request.headers.get("origin")?.toLowerCase().startsWith("https://")) return true;
  return request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}
