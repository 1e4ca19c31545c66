// Who is asking: a bearer key (Authorization: Bearer sk_…), the systemd credential, or the session
// cookie of a signed-in browser, all checked against hashes only. Failed key attempts are limited
// per client address; a missing key is not a failed attempt. A request that changes something on
// the strength of a cookie must come from a page of this service (its Origin), or it is refused:
// the cookie is SameSite=Strict already, this is the second lock on the door.

import { timingSafeEqual } from "node:crypto";
import type { Config } from "../config.ts";
import { CREDENTIAL_KEY_ID } from "../auth/credential.ts";
import { hashSecret, looksLikeKey, type KeyStore, type Scope } from "../auth/keys.ts";
import { SESSION_COOKIE, type SessionStore } from "../auth/sessions.ts";
import type { Logger } from "../log.ts";
import type { Link } from "../links/link.ts";
import type { TrustedProxies } from "../visits/client-ip.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { publicBase, requestClient, schemeIsKnown, type PeerServer } from "./request-origin.ts";
import { apiError } from "./responses.ts";
import { Lru } from "../util/lru.ts";

export type Principal = { keyId: number; name: string; scope: Scope; via: "key" | "session" };

export type AuthDeps = {
  config: Pick<Config, "baseUrl">;
  keys: KeyStore;
  sessions: SessionStore;
  /** SHA-256 of the systemd credential admin-key, if there is one */
  credentialHash: Uint8Array | null;
  /** failed attempts per client address (10 a minute) */
  authFailures: RateLimiter;
  trusted: TrustedProxies;
  log: Logger;
  now: () => number;
};

/** `sessionEnded`: a session cookie came, but its session is over (signed out, idle, key revoked). */
export type Auth = { ok: true; principal: Principal | null; sessionEnded: boolean } | { ok: false; response: Response };

/** Failed attempts allowed per address and minute before every attempt from it is refused. */
export const AUTH_FAILURES_PER_MINUTE = 10;
const CHALLENGE = 'Bearer realm="shortener"';
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The caller, null when the request carries no credentials; an error answer for bad ones. */
export async function authenticate(request: Request, server: PeerServer, deps: AuthDeps): Promise<Auth> {
  const header = request.headers.get("authorization");
  if (header !== null) {
    const checked = await checkSecret(bearerSecret(header), request, server, deps);
    return checked.ok ? { ok: true, principal: checked.principal, sessionEnded: false } : checked;
  }
  const token = sessionToken(request);
  if (token === null) return { ok: true, principal: null, sessionEnded: false };
  const now = deps.now();
  const session = await deps.sessions.find(token, now);
  const principal = session === null ? null : await principalForHash(session.keyHash, "session", deps, now);
  if (principal === null) return { ok: true, principal: null, sessionEnded: true };
  if (!SAFE_METHODS.has(request.method) && !fromThisService(request, server, deps)) {
    deps.log.info("auth failed", { reason: "origin_mismatch", path: new URL(request.url).pathname });
    return refuse(apiError(403, "origin_mismatch", "a change made with a session cookie must come from this service's own pages (Origin)"));
  }
  deps.sessions.touch(token, session!, now);
  return { ok: true, principal, sessionEnded: false };
}

/** The key of an `Authorization: Bearer <key>` header, or null for any other form. */
export function bearerSecret(header: string): string | null {
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? null;
}

/** Like authenticate, but a request without credentials is refused with 401. */
export async function requirePrincipal(request: Request, server: PeerServer, deps: AuthDeps): Promise<{ ok: true; principal: Principal } | { ok: false; response: Response }> {
  const auth = await authenticate(request, server, deps);
  if (!auth.ok) return auth;
  if (auth.principal !== null) return { ok: true, principal: auth.principal };
  return refuse(unauthenticated(auth));
}

/** The 401 for a request that needs credentials and came without usable ones: an ended session is told so. */
export function unauthenticated(auth: { sessionEnded: boolean }): Response {
  return auth.sessionEnded ? sessionEnded() : authRequired();
}

export function authRequired(): Response {
  return apiError(401, "auth_required", "this needs an API key: send Authorization: Bearer <key>, or sign in", undefined, { "WWW-Authenticate": CHALLENGE });
}

function sessionEnded(): Response {
  return apiError(401, "auth_invalid", "the session has ended (signed out, unused for 30 days, or its key revoked); sign in again", undefined, { "WWW-Authenticate": CHALLENGE });
}

/**
 * A key given in a request (bearer header or sign-in form): its principal, or the refusal. Failures
 * are counted per address, and past the limit they get 429, logged once a minute per address so
 * that a flood cannot flood the log too. Past the limit, a secret in the generated key format is
 * still looked up and a valid one passes: 190 random bits cannot be guessed, and the owner must not
 * be locked out by someone behind the same address. Any other secret (a systemd credential of the
 * owner's own making) is refused there unchecked: were a right one let through, the limit would
 * not limit guessing it.
 */
export async function checkSecret(secret: string | null, request: Request, server: PeerServer, deps: AuthDeps): Promise<{ ok: true; principal: Principal } | { ok: false; response: Response }> {
  const now = deps.now();
  const path = new URL(request.url).pathname;
  const client = requestClient(server, request, deps.trusted);
  if (secret === null || !looksLikeKey(secret)) {
    const limit = deps.authFailures.peek(client, now);
    if (!limit.allowed) return rateLimited(client, path, limit.retryAfterSeconds, now, deps);
  }
  const principal = secret === null ? null : await principalForHash(hashSecret(secret), "key", deps, now);
  if (principal !== null) return { ok: true, principal };
  const limit = deps.authFailures.take(client, now);
  if (!limit.allowed) return rateLimited(client, path, limit.retryAfterSeconds, now, deps);
  deps.log.info("auth failed", { reason: "auth_invalid", path });
  return refuse(apiError(401, "auth_invalid", "the key is not valid (wrong, revoked, or not sent as Authorization: Bearer <key>)", undefined, { "WWW-Authenticate": `${CHALLENGE}, error="invalid_token"` }));
}

// When each address over the failed-attempt limit was last logged (memory only, bounded).
const rateLimitLogged = new Lru<string, number>(10_000);

function rateLimited(client: string, path: string, retryAfterSeconds: number, now: number, deps: Pick<AuthDeps, "log">): { ok: false; response: Response } {
  if (now - (rateLimitLogged.get(client) ?? -Infinity) >= 60_000) {
    rateLimitLogged.set(client, now);
    deps.log.info("auth failed", { reason: "auth_rate_limited", path });
  }
  return refuse(apiError(429, "auth_rate_limited", `too many failed attempts; try again in ${retryAfterSeconds} s`, undefined, { "Retry-After": String(retryAfterSeconds) }));
}

/** Whether the request's Origin is this service: its public host, and its scheme when that is known. */
export function fromThisService(request: Request, server: PeerServer, deps: Pick<AuthDeps, "config" | "trusted">): boolean {
  const origin = request.headers.get("origin");
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (origin === null || base === null || !URL.canParse(origin)) return false;
  const [from, own] = [new URL(origin), new URL(base)];
  if (from.host !== own.host) return false;
  // Where --base-url or a trusted proxy says https, a page served over http (a network attacker's
  // injection, say) is another origin. Where nobody says, the host alone decides: behind a TLS
  // proxy that is not trusted, the service sees http while the browser's origin says https, and
  // it is still this service's page.
  return from.protocol === own.protocol || !schemeIsKnown(deps.config, server, request, deps.trusted);
}

/** The value of the session cookie, or null. */
export function sessionToken(request: Request): string | null {
  const cookies = request.headers.get("cookie");
  if (cookies === null) return null;
  for (const part of cookies.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Admin keys see every link; a create key only the links it created. */
export function maySee(principal: Principal, link: Pick<Link, "ownerKeyId">): boolean {
  return principal.scope === "admin" || link.ownerKeyId === principal.keyId;
}

/** The owner filter for lists: null (every link) for admin keys. */
export function ownerFilter(principal: Principal): number | null {
  return principal.scope === "admin" ? null : principal.keyId;
}

/** The key in use with this hash (an API key or the systemd credential), as a principal. */
async function principalForHash(hash: Uint8Array, via: Principal["via"], deps: AuthDeps, now: number): Promise<Principal | null> {
  if (deps.credentialHash !== null && timingSafeEqual(hash, deps.credentialHash)) {
    return { keyId: CREDENTIAL_KEY_ID, name: "credential:admin-key", scope: "admin", via };
  }
  const key = await deps.keys.findByHash(hash);
  if (key === null) return null;
  deps.keys.touch(key.id, now);
  return { keyId: key.id, name: key.name, scope: key.scope, via };
}

function refuse(response: Response): { ok: false; response: Response } {
  return { ok: false, response };
}
