// Signing in and out (docs/sign-in.md: Signing in): with a key, or through the OpenID provider.

import * as S from "../../api/schemas.ts";
import { CODES, errors, q, text, type Operation } from "./operation.ts";

export const SESSION_ROUTES: Operation[] = [
  {
    method: "get", path: "/api/session", operationId: "whoAmI", auth: "optional",
    summary: "Who is signed in, and the access policy",
    responses: { 200: { description: "signed in or not", json: S.Session }, ...errors([401, 403, 421, 429, 503]) },
  },
  {
    method: "post", path: "/api/session", operationId: "signIn", auth: "none",
    summary: "Sign in with a key: sets the session cookie (HttpOnly, SameSite=Strict)",
    body: { "application/json": S.SignIn, "application/x-www-form-urlencoded": S.SignIn, "multipart/form-data": S.SignIn },
    responses: { 200: { description: "signed in; Set-Cookie: shortener_session", json: S.SignedIn }, ...errors([400, 401, 403, 413, 415, 421, 429, 503]) },
  },
  {
    method: "delete", path: "/api/session", operationId: "signOut", auth: "optional",
    summary: "Sign out: ends the session on the server and clears the cookie",
    responses: { 200: { description: "signed out", json: S.SignedOut }, ...errors([401, 403, 421, 429, 503]) },
  },
  {
    method: "get", path: "/api/session/oidc", operationId: "signInWithProvider", auth: "none",
    summary: "Sign in through the OpenID provider (--oidc-issuer): 302 to it, with a flow cookie (SameSite=Lax, 10 minutes)",
    parameters: [q("next", "a path on this service to return to (default: the dashboard)")],
    responses: {
      302: { description: "to the provider's authorization endpoint", headers: { Location: "the provider", "Set-Cookie": "shortener_oidc" } },
      404: { description: "oidc_off: no provider is configured", json: S.ApiError },
      421: { description: CODES[421]!, json: S.ApiError },
      502: { description: "oidc_provider_down (a page, or JSON with Accept: application/json)", content: { "text/html": text, "application/json": S.ApiError } },
    },
  },
  {
    method: "get", path: "/api/session/oidc/callback", operationId: "providerCallback", auth: "none",
    summary: "Where the provider sends the browser back: the session cookie and a page that goes on to next (a refresh, so that the SameSite=Strict cookie goes along); every refusal a page in the visitor's language (JSON with Accept: application/json)",
    parameters: [q("code", "the provider's code"), q("state", "the flow's state"), q("error", "the provider's refusal")],
    responses: {
      200: { description: "signed in: Set-Cookie shortener_session, the flow cookie cleared; the page refreshes to next", content: { "text/html": text } },
      400: { description: "oidc_state_mismatch or oidc_code_refused (used already, expired)", content: { "text/html": text, "application/json": S.ApiError } },
      401: { description: "oidc_wrong_audience, oidc_token_expired or oidc_token_invalid", content: { "text/html": text, "application/json": S.ApiError } },
      403: { description: "oidc_provider_refused, user_disabled or group_not_allowed", content: { "text/html": text, "application/json": S.ApiError } },
      404: { description: "oidc_off: no provider is configured", json: S.ApiError },
      421: { description: CODES[421]!, json: S.ApiError },
      502: { description: "oidc_provider_down", content: { "text/html": text, "application/json": S.ApiError } },
      503: { description: CODES[503]!, json: S.ApiError },
    },
  },
];
