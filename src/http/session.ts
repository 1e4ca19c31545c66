// /api/session: sign in with a key (a session cookie for the dashboard), ask who is signed in, sign out.
//   POST   {key}  → 200 {name, scope} and Set-Cookie; a wrong key is a failed attempt like any other
//   GET           → 200 {signedIn, name?, scope?, user?, via?, createAccess, statsAccess, signIn}
//                   for a session, a key or a trusted proxy's header alike (renews the cookie)
//   DELETE        → ends the session on the server and clears the cookie; a user who signed in
//                   through the OpenID provider is offered its end-session URL
// The provider's own sign-in is in oidc.ts.

import type { Config } from "../config.ts";
import { hashSecret } from "../auth/keys.ts";
import { SESSION_IDLE_MS } from "../auth/sessions.ts";
import type { OidcClient } from "../auth/oidc.ts";
import { authenticate, checkSecret, fromThisService, type AuthDeps } from "./auth.ts";
import { keySignInRefusal, signIn, type KeySignIn } from "../ops/sessions/sign-in.ts";
import { signOut } from "../ops/sessions/sign-out.ts";
import { whoIsAsking } from "../ops/sessions/who.ts";
import { problemResponse } from "./problems.ts";
import { sessionCookie, sessionToken } from "./cookies.ts";
import type { PeerServer } from "./request-origin.ts";
import { readFormFields } from "./form-body.ts";
import { apiError, json } from "./responses.ts";
import { storageUnavailable } from "./storage-failure.ts";

export type SessionDeps = AuthDeps & {
  config: Pick<Config, "baseUrl" | "createAccess" | "statsAccess" | "oidcOnly" | "oidc">;
  oidc: OidcClient | null;
};

/** Whether a key may sign in here (not with --oidc-only), and what the provider is called. */
function keySignIn(deps: SessionDeps): KeySignIn {
  return { allowed: !deps.config.oidcOnly, provider: deps.oidc?.label ?? null };
}

export async function handleSignIn(request: Request, server: PeerServer, deps: SessionDeps): Promise<Response> {
  // Login CSRF: another site must not sign a browser in to a key of its choosing.
  if (request.headers.has("origin") && !fromThisService(request, server, deps)) {
    return apiError(403, "origin_mismatch", "sign in from this service's own pages");
  }
  const off = keySignInRefusal(keySignIn(deps));
  if (off !== null) return problemResponse(off.problem);
  const body = await readFormFields(request, { key: "text" });
  if (!body.ok) return apiError(body.status, body.code, body.error);
  const secret = typeof body.fields.key === "string" ? body.fields.key.trim() : "";
  if (secret === "") return apiError(400, "bad_request", "key is required", "key");
  const checked = await checkSecret(secret, request, server, deps);
  if (!checked.ok) return checked.response;
  let started;
  try {
    started = await signIn(checked.principal, { owner: { keyHash: hashSecret(secret) } }, { ...deps, keySignIn: keySignIn(deps) });
  } catch (err) {
    return storageUnavailable(err, deps.log, "signing in");
  }
  if (!started.ok) return problemResponse(started.problem);
  const { token, principal } = started.value;
  return json(200, { success: true, data: { name: principal.name, scope: principal.scope } }, { "Set-Cookie": sessionCookie(request, server, deps, token, SESSION_IDLE_MS) });
}

export async function handleWhoAmI(request: Request, server: PeerServer, deps: SessionDeps): Promise<Response> {
  const auth = await authenticate(request, server, deps);
  if (!auth.ok) return auth.response;
  const signIn = { key: !deps.config.oidcOnly, oidc: deps.oidc === null ? null : { name: deps.oidc.label, url: "/api/session/oidc" } };
  const who = await whoIsAsking(auth.principal, null, { policy: { createAccess: deps.config.createAccess, statsAccess: deps.config.statsAccess, signIn } });
  if (!who.ok) return problemResponse(who.problem);
  const token = sessionToken(request);
  const headers: Record<string, string> = {};
  // A session in use stays signed in: its cookie lives 30 days from now, like the session itself.
  // An ended session's cookie is cleared. Beside a bearer key the cookie was not even looked at, so
  // it is left as it is: the browser's session may well be alive.
  if (token !== null && auth.principal?.via === "session") headers["Set-Cookie"] = sessionCookie(request, server, deps, token, SESSION_IDLE_MS);
  else if (auth.sessionEnded) headers["Set-Cookie"] = sessionCookie(request, server, deps, "", 0);
  return json(200, { success: true, data: who.value }, headers);
}

export async function handleSignOut(request: Request, server: PeerServer, deps: SessionDeps): Promise<Response> {
  const auth = await authenticate(request, server, deps); // refuses a cross-site sign-out (Origin)
  if (!auth.ok) return auth.response;
  const provider = deps.oidc === null || deps.config.oidc === null ? null : { issuer: deps.config.oidc.issuer, endSessionUrl: (to: string) => deps.oidc!.endSessionUrl(to) };
  let ended;
  try {
    // Like every write from this thread: the lock may be the recorder's or an import's for a moment.
    ended = await signOut(auth.principal, { token: sessionToken(request) }, { ...deps, provider, baseUrl: deps.config.baseUrl });
  } catch (err) {
    return storageUnavailable(err, deps.log, "signing out");
  }
  if (!ended.ok) return problemResponse(ended.problem);
  const { endSessionUrl } = ended.value;
  return json(200, { success: true, data: { signedOut: true, ...(endSessionUrl ? { endSessionUrl } : {}) } }, { "Set-Cookie": sessionCookie(request, server, deps, "", 0) });
}
