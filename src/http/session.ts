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
import { userJson } from "../auth/users.ts";
import type { OidcClient } from "../auth/oidc.ts";
import { authenticate, checkSecret, fromThisService, type AuthDeps } from "./auth.ts";
import { type Principal } from "../auth/policy.ts";
import { logAction } from "./audit.ts";
import { sessionCookie, sessionToken } from "./cookies.ts";
import type { PeerServer } from "./request-origin.ts";
import { readFormFields } from "./form-body.ts";
import { apiError, json } from "./responses.ts";
import { storageUnavailable } from "./storage-failure.ts";

export type SessionDeps = AuthDeps & {
  config: Pick<Config, "baseUrl" | "createAccess" | "statsAccess" | "oidcOnly" | "oidc">;
  oidc: OidcClient | null;
};

export async function handleSignIn(request: Request, server: PeerServer, deps: SessionDeps): Promise<Response> {
  // Login CSRF: another site must not sign a browser in to a key of its choosing.
  if (request.headers.has("origin") && !fromThisService(request, server, deps)) {
    return apiError(403, "origin_mismatch", "sign in from this service's own pages");
  }
  if (deps.config.oidcOnly) {
    return apiError(403, "key_sign_in_off", `the dashboard signs in through ${deps.oidc?.label ?? "the identity provider"} only (--oidc-only); keys still work as Authorization: Bearer for scripts`);
  }
  const body = await readFormFields(request, { key: "text" });
  if (!body.ok) return apiError(body.status, body.code, body.error);
  const secret = typeof body.fields.key === "string" ? body.fields.key.trim() : "";
  if (secret === "") return apiError(400, "bad_request", "key is required", "key");
  const checked = await checkSecret(secret, request, server, deps);
  if (!checked.ok) return checked.response;
  let token: string;
  try {
    token = await deps.sessions.start({ keyHash: hashSecret(secret) }, deps.now());
  } catch (err) {
    return storageUnavailable(err, deps.log, "signing in");
  }
  logAction(deps.log, checked.principal, "sign-in", null, "ok");
  return json(200, { success: true, data: { name: checked.principal.name, scope: checked.principal.scope } }, { "Set-Cookie": sessionCookie(request, server, deps, token, SESSION_IDLE_MS) });
}

export async function handleWhoAmI(request: Request, server: PeerServer, deps: SessionDeps): Promise<Response> {
  const auth = await authenticate(request, server, deps);
  if (!auth.ok) return auth.response;
  const policy = {
    createAccess: deps.config.createAccess,
    statsAccess: deps.config.statsAccess,
    signIn: { key: !deps.config.oidcOnly, oidc: deps.oidc === null ? null : { name: deps.oidc.label, url: "/api/session/oidc" } },
  };
  const token = sessionToken(request);
  const headers: Record<string, string> = {};
  // A session in use stays signed in: its cookie lives 30 days from now, like the session itself.
  // An ended session's cookie is cleared. Beside a bearer key the cookie was not even looked at, so
  // it is left as it is: the browser's session may well be alive.
  if (token !== null && auth.principal?.via === "session") headers["Set-Cookie"] = sessionCookie(request, server, deps, token, SESSION_IDLE_MS);
  else if (auth.sessionEnded) headers["Set-Cookie"] = sessionCookie(request, server, deps, "", 0);
  const p = auth.principal;
  return json(200, { success: true, data: p === null ? { signedIn: false, ...policy } : { signedIn: true, ...who(p), ...policy } }, headers);
}

/** Who a principal is, as GET /api/session says it. */
function who(p: Principal) {
  return { name: p.name, scope: p.scope, user: p.user === null ? null : userJson(p.user), via: p.via };
}

export async function handleSignOut(request: Request, server: PeerServer, deps: SessionDeps): Promise<Response> {
  const auth = await authenticate(request, server, deps); // refuses a cross-site sign-out (Origin)
  if (!auth.ok) return auth.response;
  const token = sessionToken(request);
  if (token !== null) {
    try {
      // Like every write from this thread: the lock may be the recorder's or an import's for a moment.
      await deps.sessions.end(token);
    } catch (err) {
      return storageUnavailable(err, deps.log, "signing out");
    }
    if (auth.principal !== null) logAction(deps.log, auth.principal, "sign-out", null, "ok");
  }
  // Signed out here; the provider's own session would sign them straight back in, so offer its end.
  const fromProvider = auth.principal?.via === "session" && auth.principal.user?.source === deps.config.oidc?.issuer;
  const endSessionUrl = fromProvider && deps.config.baseUrl !== null ? deps.oidc?.endSessionUrl(`${deps.config.baseUrl}/`) : null;
  return json(200, { success: true, data: { signedOut: true, ...(endSessionUrl ? { endSessionUrl } : {}) } }, { "Set-Cookie": sessionCookie(request, server, deps, "", 0) });
}
