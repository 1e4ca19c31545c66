// /api/session: sign in with a key (a session cookie for the dashboard), ask who is signed in, sign out.
//   POST   {key}  → 200 {name, scope} and Set-Cookie; a wrong key is a failed attempt like any other
//   GET           → 200 {signedIn, name?, scope?, createAccess, statsAccess} (renews the cookie)
//   DELETE        → ends the session on the server and clears the cookie

import type { Config } from "../config.ts";
import { hashSecret } from "../auth/keys.ts";
import { SESSION_COOKIE, SESSION_IDLE_MS } from "../auth/sessions.ts";
import { authenticate, checkSecret, fromThisService, sessionToken, type AuthDeps } from "./auth.ts";
import { logAction } from "./audit.ts";
import { readFormFields } from "./form-body.ts";
import { publicBase, type PeerServer } from "./request-origin.ts";
import { apiError, json } from "./responses.ts";
import { retryWhileBusy, storageUnavailable } from "./write-retry.ts";
import type { ClickRecorder } from "../visits/recorder.ts";

export type SessionDeps = AuthDeps & { config: Pick<Config, "baseUrl" | "createAccess" | "statsAccess">; recorder: Pick<ClickRecorder, "hurry"> };

export async function handleSignIn(request: Request, server: PeerServer, deps: SessionDeps): Promise<Response> {
  // Login CSRF: another site must not sign a browser in to a key of its choosing.
  if (request.headers.has("origin") && !fromThisService(request, server, deps)) {
    return apiError(403, "origin_mismatch", "sign in from this service's own pages");
  }
  const body = await readFormFields(request, { key: "text" });
  if (!body.ok) return apiError(body.status, body.code, body.error);
  const secret = typeof body.fields.key === "string" ? body.fields.key.trim() : "";
  if (secret === "") return apiError(400, "bad_request", "key is required", "key");
  const checked = await checkSecret(secret, request, server, deps);
  if (!checked.ok) return checked.response;
  let token: string;
  try {
    token = await retryWhileBusy(() => deps.sessions.start(hashSecret(secret), deps.now()), deps.recorder.hurry);
  } catch (err) {
    return storageUnavailable(err, deps.log, "signing in");
  }
  logAction(deps.log, checked.principal, "sign-in", null, "ok");
  return json(200, { success: true, data: { name: checked.principal.name, scope: checked.principal.scope } }, { "Set-Cookie": cookie(request, server, deps, token, SESSION_IDLE_MS) });
}

export async function handleWhoAmI(request: Request, server: PeerServer, deps: SessionDeps): Promise<Response> {
  const auth = await authenticate(request, server, deps);
  if (!auth.ok) return auth.response;
  const policy = { createAccess: deps.config.createAccess, statsAccess: deps.config.statsAccess };
  const token = sessionToken(request);
  const headers: Record<string, string> = {};
  // A session in use stays signed in: its cookie lives 30 days from now, like the session itself.
  // An ended session's cookie is cleared. Beside a bearer key the cookie was not even looked at, so
  // it is left as it is: the browser's session may well be alive.
  if (token !== null && auth.principal?.via === "session") headers["Set-Cookie"] = cookie(request, server, deps, token, SESSION_IDLE_MS);
  else if (auth.sessionEnded) headers["Set-Cookie"] = cookie(request, server, deps, "", 0);
  const p = auth.principal;
  return json(200, { success: true, data: p === null ? { signedIn: false, ...policy } : { signedIn: true, name: p.name, scope: p.scope, ...policy } }, headers);
}

export async function handleSignOut(request: Request, server: PeerServer, deps: SessionDeps): Promise<Response> {
  const auth = await authenticate(request, server, deps); // refuses a cross-site sign-out (Origin)
  if (!auth.ok) return auth.response;
  const token = sessionToken(request);
  if (token !== null) {
    try {
      await deps.sessions.end(token);
    } catch (err) {
      return storageUnavailable(err, deps.log, "signing out");
    }
    if (auth.principal !== null) logAction(deps.log, auth.principal, "sign-out", null, "ok");
  }
  return json(200, { success: true, data: { signedOut: true } }, { "Set-Cookie": cookie(request, server, deps, "", 0) });
}

/** The session cookie: HttpOnly, SameSite=Strict, Secure when the service is reached over https. */
function cookie(request: Request, server: PeerServer, deps: SessionDeps, token: string, lifetimeMs: number): string {
  const secure = reachedOverHttps(request, server, deps) ? "; Secure" : "";
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(lifetimeMs / 1000)}${secure}`;
}

/**
 * Whether the browser speaks https to us. --base-url or a trusted proxy say so (publicBase); behind
 * a TLS proxy declared to neither, the browser's Origin says so (a sign-in always sends it), and so
 * does the proxy's X-Forwarded-Proto on the renewals (GET /api/session carries no Origin). Those two
 * are believed from anyone: Secure only narrows where the browser sends the cookie, so a header
 * that asks for it can weaken nothing (at worst a client's own cookie stops working over http).
 */
function reachedOverHttps(request: Request, server: PeerServer, deps: SessionDeps): boolean {
  if (publicBase(deps.config, server, request, deps.trusted)?.startsWith("https://")) return true;
  if (request.headers.get("origin")?.toLowerCase().startsWith("https://")) return true;
  return request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}
