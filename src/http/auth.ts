// Who is asking: a bearer key (Authorization: Bearer sk_…), the systemd credential, a trusted
// proxy's identity header, or the session cookie of a signed-in browser (a pasted key's or a
// user's), all checked against hashes only. Failed key attempts are limited per client address; a
// missing key is not a failed attempt. A request that changes something on the strength of a
// cookie or a proxy's header (which a proxy adds for its own cookie) must come from a page of this
// service (its Origin), or it is refused: the cookie is SameSite=Strict already, this is the
// second lock on the door. A disabled user is refused however they come.

import { timingSafeEqual } from "node:crypto";
import type { Config } from "../config.ts";
import { CREDENTIAL_KEY_ID, CREDENTIAL_PRINCIPAL_NAME } from "../auth/credential.ts";
import { hashSecret, looksLikeKey, type ApiKey, type KeyStore, type Scope } from "../auth/keys.ts";
import { USER_SESSION_MAX_MS, type Session, type SessionStore } from "../auth/sessions.ts";
import type { User, UserRepository } from "../auth/users.ts";
import { admitUser, userDisabled } from "../ops/sessions/admit.ts";
import { NOBODY, type HeaderIdentity, type HeaderReading } from "../auth/header-identity.ts";
import type { Principal } from "../auth/policy.ts";
import type { Problem } from "../ops/outcome.ts";
import { problemResponse } from "./problems.ts";
import type { Logger } from "../log.ts";
import type { TrustedProxies } from "../visits/client-ip.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { peerAddress, publicBase, requestClient, schemeIsKnown, type PeerServer } from "./request-origin.ts";
import { sessionToken } from "./cookies.ts";
import { apiError } from "./responses.ts";
import { oncePerMinute } from "./log-limit.ts";


export type AuthDeps = {
  config: Pick<Config, "baseUrl">;
  keys: KeyStore;
  sessions: SessionStore;
  users: UserRepository;
  /** the identity headers of --auth-header, or null */
  headerIdentity: HeaderIdentity | null;
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
  const reading = deps.headerIdentity?.read(request.headers, peerAddress(server, request)) ?? NOBODY;
  if (!reading.ok) return refuse(headerRefused(reading, deps));
  const proxied = reading.identity;
  if (proxied !== null) {
    const admitted = await admitUser(null, { identity: proxied, rules: deps.headerIdentity! }, deps);
    if (!admitted.ok) return refuse(problemResponse(admitted.problem));
    const changeRefused = crossSiteChange(request, server, deps);
    return changeRefused ?? { ok: true, principal: userPrincipal(admitted.value, "header"), sessionEnded: false };
  }
  const token = sessionToken(request);
  if (token === null) return { ok: true, principal: null, sessionEnded: false };
  const now = deps.now();
  const session = await deps.sessions.find(token, now);
  const principal = session === null ? null : await sessionPrincipal(session, deps, now);
  if (principal === null) return { ok: true, principal: null, sessionEnded: true };
  if (principal === "disabled") return refuse(userDisabledResponse());
  const changeRefused = crossSiteChange(request, server, deps);
  if (changeRefused) return changeRefused;
  deps.sessions.touch(token, session!, now);
  return { ok: true, principal, sessionEnded: false };
}

// The refusals of a proxy's header, which a page answers with a page of its own (isHeaderRefusal).
const headerRefusals = new WeakSet<Response>();
// A proxy that sends a bad header sends it on every request: logged once a minute per header.
const headerRefusalLogged = oncePerMinute();

/**
 * A trusted proxy's identity header that cannot be read exactly (docs/sign-in.md: Auth proxy headers): 400,
 * before any user is looked up or created. It is the proxy's mistake or a client's forgery the
 * proxy let through, never a reason to go on as nobody or as somebody else.
 */
function headerRefused(reading: Extract<HeaderReading, { ok: false }>, deps: Pick<AuthDeps, "log" | "now">): Response {
  if (headerRefusalLogged(reading.header, deps.now())) deps.log.info("auth failed", { reason: "auth_header_invalid", header: reading.header, problem: reading.problem });
  const response = apiError(400, "auth_header_invalid", `the proxy's ${reading.header} header ${reading.problem}; nobody is signed in by it`);
  headerRefusals.add(response);
  return response;
}

/** Whether authenticate refused this request for its proxy's identity header (a page says so in its own words). */
export function isHeaderRefusal(response: Response): boolean {
  return headerRefusals.has(response);
}

/** The refusal of a change whose Origin is not this service (made with a cookie or a proxy's header), or null. */
function crossSiteChange(request: Request, server: PeerServer, deps: AuthDeps): { ok: false; response: Response } | null {
  if (SAFE_METHODS.has(request.method) || fromThisService(request, server, deps)) return null;
  deps.log.info("auth failed", { reason: "origin_mismatch", path: new URL(request.url).pathname });
  return refuse(apiError(403, "origin_mismatch", "a change made with a session cookie must come from this service's own pages (Origin)"));
}

/** A disabled user's refusal, however they come. */
export function userDisabledResponse(): Response {
  return problemResponse(userDisabled());
}

export function userPrincipal(user: User, via: Principal["via"]): Principal {
  return { keyId: null, user, name: user.name, scope: user.admin ? "admin" : "create", via };
}

/** A session's principal: its user's, or its key's; null when that is gone, "disabled" for a disabled user. */
async function sessionPrincipal(session: Session, deps: AuthDeps, now: number): Promise<Principal | null | "disabled"> {
  if (session.keyHash !== undefined) return principalForHash(session.keyHash, "session", deps, now);
  if (now - session.createdAt >= USER_SESSION_MAX_MS) return null;
  const user = await deps.users.byId(session.userId);
  if (user === null) return null;
  return user.disabledAt === null ? userPrincipal(user, "session") : "disabled";
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

/**
 * Like requirePrincipal, and then the operation's own guard (src/ops), asked before the request's
 * body is read: who may not is refused before anything of theirs is parsed.
 */
export async function requireAllowed(
  request: Request,
  server: PeerServer,
  deps: AuthDeps,
  guard: (principal: Principal) => { ok: false; problem: Problem } | null,
): Promise<{ ok: true; principal: Principal } | { ok: false; response: Response }> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth;
  const refusal = guard(auth.principal);
  return refusal === null ? auth : refuse(problemResponse(refusal.problem));
}

/** The 401 for a request that needs credentials and came without usable ones: an ended session is told so. */
export function unauthenticated(auth: { sessionEnded: boolean }): Response {
  return auth.sessionEnded ? sessionEnded() : authRequired();
}

export function authRequired(): Response {
  return apiError(401, "auth_required", "this needs an API key: send Authorization: Bearer <key>, or sign in", undefined, { "WWW-Authenticate": CHALLENGE });
}

function sessionEnded(): Response {
  return apiError(401, "auth_invalid", "the session has ended (signed out, unused for 30 days, its key revoked, or a provider's sign-in 7 days old); sign in again", undefined, { "WWW-Authenticate": CHALLENGE });
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
  if (principal === "disabled") return refuse(userDisabledResponse());
  if (principal !== null) return { ok: true, principal };
  const limit = deps.authFailures.take(client, now);
  if (!limit.allowed) return rateLimited(client, path, limit.retryAfterSeconds, now, deps);
  deps.log.info("auth failed", { reason: "auth_invalid", path });
  return refuse(apiError(401, "auth_invalid", "the key is not valid (wrong, revoked, or not sent as Authorization: Bearer <key>)", undefined, { "WWW-Authenticate": `${CHALLENGE}, error="invalid_token"` }));
}

// Addresses over the failed-attempt limit are logged once a minute each.
const rateLimitLogged = oncePerMinute();

function rateLimited(client: string, path: string, retryAfterSeconds: number, now: number, deps: Pick<AuthDeps, "log">): { ok: false; response: Response } {
  if (rateLimitLogged(client, now)) deps.log.info("auth failed", { reason: "auth_rate_limited", path });
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






/** The key in use with this hash (an API key or the systemd credential), as a principal; "disabled" for a disabled user's key. */
async function principalForHash(hash: Uint8Array, via: Principal["via"], deps: AuthDeps, now: number): Promise<Principal | null | "disabled"> {
  if (deps.credentialHash !== null && timingSafeEqual(hash, deps.credentialHash)) {
    return { keyId: CREDENTIAL_KEY_ID, user: null, name: CREDENTIAL_PRINCIPAL_NAME, scope: "admin", via };
  }
  const key = await deps.keys.findByHash(hash);
  if (key === null) return null;
  const user = key.userId === null ? null : await deps.users.byId(key.userId);
  if (user?.disabledAt != null) return "disabled";
  deps.keys.touch(key.id, now);
  return keyPrincipal(key, user, via);
}

/** A key's principal: its scope, acting as its user when it has one (their links, their name). */
function keyPrincipal(key: ApiKey, user: User | null, via: Principal["via"]): Principal {
  return { keyId: key.id, user, name: key.name, scope: key.scope, via };
}

function refuse(response: Response): { ok: false; response: Response } {
  return { ok: false, response };
}
