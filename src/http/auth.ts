// Who is asking: a bearer key (Authorization: Bearer sk_…) or the systemd credential, checked
// against hashes only. Failed attempts are limited per client address; a missing key is not a
// failed attempt. Every failure is one log line without the key.

import { timingSafeEqual } from "node:crypto";
import { CREDENTIAL_KEY_ID } from "../auth/credential.ts";
import { hashSecret, type KeyStore, type Scope } from "../auth/keys.ts";
import type { Logger } from "../log.ts";
import type { Link } from "../links/link.ts";
import type { TrustedProxies } from "../visits/client-ip.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { requestClient, type PeerServer } from "./request-origin.ts";
import { apiError } from "./responses.ts";

export type Principal = { keyId: number; name: string; scope: Scope };

export type AuthDeps = {
  keys: KeyStore;
  /** SHA-256 of the systemd credential admin-key, if there is one */
  credentialHash: Uint8Array | null;
  /** failed attempts per client address (10 a minute) */
  authFailures: RateLimiter;
  trusted: TrustedProxies;
  log: Logger;
  now: () => number;
};

export type Auth = { ok: true; principal: Principal | null } | { ok: false; response: Response };

/** Failed attempts allowed per address and minute before every attempt from it is refused. */
export const AUTH_FAILURES_PER_MINUTE = 10;
const CHALLENGE = 'Bearer realm="shortener"';

/** The caller, null when the request carries no credentials; an error answer for bad ones. */
export function authenticate(request: Request, server: PeerServer, deps: AuthDeps): Auth {
  const header = request.headers.get("authorization");
  if (header === null) return { ok: true, principal: null };
  const path = new URL(request.url).pathname;
  const client = requestClient(server, request, deps.trusted);
  const now = deps.now();
  // Checked before the key: once over the limit, a right guess must look no different from a wrong one.
  const limit = deps.authFailures.peek(client, now);
  if (!limit.allowed) {
    deps.log.info("auth failed", { reason: "auth_rate_limited", path });
    return refuse(apiError(429, "auth_rate_limited", `too many failed attempts; try again in ${limit.retryAfterSeconds} s`, undefined, { "Retry-After": String(limit.retryAfterSeconds) }));
  }
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  const principal = match ? principalFor(match[1]!, deps, now) : null;
  if (principal !== null) return { ok: true, principal };
  deps.authFailures.take(client, now);
  deps.log.info("auth failed", { reason: "auth_invalid", path });
  return refuse(apiError(401, "auth_invalid", "the key is not valid (wrong, revoked, or not sent as Authorization: Bearer <key>)", undefined, { "WWW-Authenticate": `${CHALLENGE}, error="invalid_token"` }));
}

/** Like authenticate, but a request without credentials is refused with 401 auth_required. */
export function requirePrincipal(request: Request, server: PeerServer, deps: AuthDeps): { ok: true; principal: Principal } | { ok: false; response: Response } {
  const auth = authenticate(request, server, deps);
  if (!auth.ok) return auth;
  if (auth.principal === null) return refuse(authRequired());
  return { ok: true, principal: auth.principal };
}

export function authRequired(): Response {
  return apiError(401, "auth_required", "this needs an API key: send Authorization: Bearer <key>", undefined, { "WWW-Authenticate": CHALLENGE });
}

/** Admin keys see every link; a create key only the links it created. */
export function maySee(principal: Principal, link: Pick<Link, "ownerKeyId">): boolean {
  return principal.scope === "admin" || link.ownerKeyId === principal.keyId;
}

/** The owner filter for lists: null (every link) for admin keys. */
export function ownerFilter(principal: Principal): number | null {
  return principal.scope === "admin" ? null : principal.keyId;
}

function principalFor(secret: string, deps: AuthDeps, now: number): Principal | null {
  if (deps.credentialHash !== null) {
    const hash = hashSecret(secret);
    if (timingSafeEqual(hash, deps.credentialHash)) return { keyId: CREDENTIAL_KEY_ID, name: "credential:admin-key", scope: "admin" };
  }
  const key = deps.keys.find(secret);
  if (key === null) return null;
  deps.keys.touch(key.id, now);
  return { keyId: key.id, name: key.name, scope: key.scope };
}

function refuse(response: Response): { ok: false; response: Response } {
  return { ok: false, response };
}
