// Signing in through the OpenID provider (src/auth/oidc.ts), as a browser sees it:
//   GET /api/session/oidc?next=<path>  → 302 to the provider, with the flow cookie
//   GET /api/session/oidc/callback     → the session cookie and a page that goes on to `next` (a
//                                        refresh, not a redirect: see renderSignedIn); the flow cookie cleared
// Every refusal is a page in the visitor's language (a browser is navigating here), or JSON for a
// client that asks for it (Accept: application/json); the log names the reason, never a token.

import type { Config } from "../config.ts";
import { pickLanguage } from "../lang.ts";
import { SESSION_IDLE_MS } from "../auth/sessions.ts";
import { OidcError, type OidcClient, type OidcFlow, type SignInFailure } from "../auth/oidc.ts";
import { renderSignedIn, renderSignInFailed } from "../../web/server/pages.ts";
import { ENTRIES } from "./web-assets.generated.ts";
import { userPrincipal, type AuthDeps } from "./auth.ts";
import { admitUser } from "../ops/sessions/admit.ts";
import { signIn } from "../ops/sessions/sign-in.ts";
import { cookieValue, FLOW_COOKIE, FLOW_LIFETIME_MS, flowCookie, sessionCookie } from "./cookies.ts";
import { requestClient, type PeerServer } from "./request-origin.ts";
import { oncePerMinute } from "./log-limit.ts";
import { apiError } from "./responses.ts";
import { HTML_HEADERS } from "./web.ts";
import { storageUnavailable } from "./storage-failure.ts";
import type { ErrorCode } from "../errors.ts";

export type OidcDeps = AuthDeps & { config: Pick<Config, "baseUrl">; oidc: OidcClient | null };

export const OIDC_CALLBACK_PATH = "/api/session/oidc/callback";

// Each reason's status: the provider away is not the visitor's doing (502); the rest are refusals.
const STATUS: Record<SignInFailure, number> = {
  provider_down: 502,
  state_mismatch: 400,
  provider_refused: 403,
  code_refused: 400,
  wrong_audience: 401,
  token_expired: 401,
  token_invalid: 401,
  user_disabled: 403,
  group_not_allowed: 403,
};

export async function handleOidcStart(request: Request, server: PeerServer, deps: OidcDeps): Promise<Response> {
  if (deps.oidc === null || deps.config.baseUrl === null) return oidcOff();
  const next = safeNext(new URL(request.url).searchParams.get("next"), request);
  try {
    const { url, flow } = await deps.oidc.start(callbackUrl(deps.config.baseUrl), next);
    return new Response(null, {
      status: 302,
      headers: { Location: url, "Cache-Control": "no-store", "Set-Cookie": flowCookie(request, server, deps, encodeFlow(flow), FLOW_LIFETIME_MS) },
    });
  } catch (err) {
    if (!(err instanceof OidcError)) throw err;
    logFailure(request, server, deps, err);
    return refusal(request, server, deps, err.reason, err.message);
  }
}

export async function handleOidcCallback(request: Request, server: PeerServer, deps: OidcDeps): Promise<Response> {
  if (deps.oidc === null || deps.config.baseUrl === null) return oidcOff();
  const flow = decodeFlow(cookieValue(request, FLOW_COOKIE), request);
  let identity;
  try {
    identity = await deps.oidc.finish(new URL(request.url).searchParams, flow, callbackUrl(deps.config.baseUrl));
  } catch (err) {
    if (!(err instanceof OidcError)) throw err;
    logFailure(request, server, deps, err);
    return refusal(request, server, deps, err.reason, err.message);
  }
  const admitted = await admitUser(null, { identity, rules: deps.oidc }, deps);
  if (!admitted.ok) return refusal(request, server, deps, admitted.problem.code as SignInFailure, `${identity.name}: ${admitted.problem.code}`);
  // Built before the session is: nothing after the session's start may fail.
  const lang = pickLanguage(request.headers.get("accept-language"));
  const page = renderSignedIn(lang, flow!.next, ENTRIES);
  const headers = new Headers({ ...HTML_HEADERS, "Content-Language": lang, "Cache-Control": "no-store" });
  let started;
  try {
    // A provider's sign-in is never a key's: --oidc-only does not concern it.
    started = await signIn(userPrincipal(admitted.value, "session"), { owner: { userId: admitted.value.id } }, { ...deps, keySignIn: { allowed: true, provider: deps.oidc.label } });
  } catch (err) {
    return storageUnavailable(err, deps.log, "signing in");
  }
  // signIn refuses only nobody, and a key where keys may not sign in: neither is the case here.
  if (!started.ok) throw new Error(`signing in ${identity.name}: ${started.problem.message}`);
  const token = started.value.token;
  headers.append("Set-Cookie", sessionCookie(request, server, deps, token, SESSION_IDLE_MS));
  headers.append("Set-Cookie", flowCookie(request, server, deps, "", 0));
  return new Response(page, { status: 200, headers });
}

// Anyone can call the callback without a cookie: failed sign-ins are logged once a minute per address.
const failureLogged = oncePerMinute();

function logFailure(request: Request, server: PeerServer, deps: OidcDeps, err: OidcError): void {
  if (!failureLogged(requestClient(server, request, deps.trusted), deps.now())) return;
  // The provider's own words go in quoted and cut short: a forged callback chooses them.
  const line = { reason: err.reason, detail: JSON.stringify(err.message.slice(0, 200)) };
  if (err.reason === "provider_down") deps.log.error("sign-in failed", line);
  else deps.log.info("sign-in failed", line);
}

export function callbackUrl(base: string): string {
  return `${base}${OIDC_CALLBACK_PATH}`;
}

/** Where to go after signing in: a path on this service in printable ASCII (never another site), else the dashboard. */
function safeNext(raw: string | null, request: Request): string {
  return raw !== null && isLocalPath(raw) ? raw : `/${pickLanguage(request.headers.get("accept-language"))}/links`;
}

function isLocalPath(path: string): boolean {
  return path.length <= 2000 && /^\/(?![/\\])[\x21-\x7e]*$/.test(path);
}

/** The flow as the cookie carries it: base64url of its JSON (state, nonce and verifier are base64url already). */
function encodeFlow(flow: OidcFlow): string {
  return Buffer.from(JSON.stringify([flow.state, flow.nonce, flow.verifier, flow.next])).toString("base64url");
}

/** The flow of the cookie, or null; its `next` is checked again (the cookie is the browser's to change). */
function decodeFlow(value: string | null, request: Request): OidcFlow | null {
  if (value === null || value === "" || value.length > 4000) return null;
  try {
    const [state, nonce, verifier, next] = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as unknown[];
    if (typeof state === "string" && typeof nonce === "string" && typeof verifier === "string" && typeof next === "string") {
      return { state, nonce, verifier, next: safeNext(next, request) };
    }
  } catch {}
  return null;
}

function oidcOff(): Response {
  return apiError(404, "oidc_off", "sign-in through an identity provider is not configured here (--oidc-issuer)");
}

/** The refusal: JSON for a client that asks for it, else the page in the visitor's language; the flow cookie cleared. */
function refusal(request: Request, server: PeerServer, deps: OidcDeps, reason: SignInFailure, detail: string): Response {
  const clear = { "Set-Cookie": flowCookie(request, server, deps, "", 0), "Cache-Control": "no-store" };
  const status = STATUS[reason];
  const accept = request.headers.get("accept") ?? "";
  if (accept.includes("application/json") && !accept.includes("text/html")) {
    const code = (reason === "user_disabled" || reason === "group_not_allowed" ? reason : `oidc_${reason}`) as ErrorCode;
    return apiError(status, code, detail, undefined, clear);
  }
  const lang = pickLanguage(request.headers.get("accept-language"));
  return new Response(renderSignInFailed(lang, reason, ENTRIES), { status, headers: { ...HTML_HEADERS, ...clear, "Content-Language": lang, Vary: "Accept-Language" } });
}
