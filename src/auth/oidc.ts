// Sign-in through the homelab's OpenID provider (Authelia, Authentik, Pocket ID, Keycloak, Kanidm):
// the authorization code flow with PKCE, the provider found by discovery from its issuer URL, state
// and nonce checked, the ID token's claims and signature verified. The protocol is oauth4webapi's
// (a certified implementation with no dependencies, tested on Bun by its author); this file only
// says which steps, in which order, and what each failure means to the person signing in.

import * as oauth from "oauth4webapi";
import { createHmac, timingSafeEqual } from "node:crypto";
import { cleanText, groupsFromClaim, nameFromClaims, signInRules, type Identity, type SignInRules } from "./users.ts";

export type OidcConfig = {
  issuer: string;
  clientId: string;
  /** null: a public client (PKCE alone), as Pocket ID and Kanidm allow */
  clientSecret: string | null;
  /** the claim that lists a user's groups (default "groups") */
  groupsClaim: string;
  adminGroup: string | null;
  allowedGroup: string | null;
  /** what the sign-in button calls the provider ("Sign in with <label>") */
  label: string;
};

/** What the browser carries between the start and the callback (the flow cookie). */
export type OidcFlow = { state: string; nonce: string; verifier: string; next: string };

/** Why a sign-in failed, as the visitor's page and the JSON error name it. */
export type OidcFailure = "provider_down" | "state_mismatch" | "provider_refused" | "code_refused" | "wrong_audience" | "token_expired" | "token_invalid";

/** Every reason a sign-in through the provider ends without a session. */
export type SignInFailure = OidcFailure | "user_disabled" | "group_not_allowed";

export class OidcError extends Error {
  constructor(readonly reason: OidcFailure, detail: string) {
    super(detail);
  }
}

export type OidcClient = SignInRules & {
  label: string;
  /** The provider's authorization URL for a new flow, and the flow to keep in the browser. */
  start(redirectUri: string, next: string): Promise<{ url: string; flow: OidcFlow }>;
  /** The identity the callback's parameters prove; throws OidcError. */
  finish(callback: URLSearchParams, flow: OidcFlow | null, redirectUri: string): Promise<Identity>;
  /** The provider's end-session URL (RP-initiated logout) when discovery had one; null before the first discovery. */
  endSessionUrl(postLogoutUri: string): string | null;
};

// The provider's metadata is kept this long. A failed discovery is kept for a few seconds: a
// provider that is down costs one attempt, not one per sign-in, and is tried again soon after.
const DISCOVERY_TTL_MS = 3_600_000;
const DISCOVERY_FAILURE_TTL_MS = 5_000;
const TIMEOUT_MS = 10_000;
const SCOPES = "openid profile email groups";

/** Whether a URL's host is a loopback address, where a provider may speak plain http. */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** One provider's settings and its cached metadata (or failure), shared by the functions below. */
type Provider = {
  config: OidcConfig;
  now: () => number;
  issuer: URL;
  http: object;
  client: oauth.Client;
  auth: oauth.ClientAuth;
  metadata: { as: oauth.AuthorizationServer; at: number } | null;
  failed: { error: OidcError; at: number } | null;
};

export function createOidcClient(config: OidcConfig, now: () => number = Date.now): OidcClient {
  const issuer = new URL(config.issuer);
  const p: Provider = {
    config,
    now,
    issuer,
    // http only on loopback (config.ts refuses it elsewhere): a provider on the same host, and the tests.
    http: isLoopbackUrl(issuer) ? { [oauth.allowInsecureRequests]: true } : {},
    client: { client_id: config.clientId },
    auth: config.clientSecret === null ? oauth.None() : oauth.ClientSecretBasic(config.clientSecret),
    metadata: null,
    failed: null,
  };
  return {
    label: config.label,
    ...signInRules(config.adminGroup, config.allowedGroup),
    start: (redirectUri, next) => startSignIn(p, redirectUri, next),
    finish: (callback, flow, redirectUri) => finishSignIn(p, callback, flow, redirectUri),
    endSessionUrl(postLogoutUri) {
      // Checked to be a URL by discover().
      const endpoint = p.metadata?.as.end_session_endpoint;
      if (!endpoint) return null;
      const url = new URL(endpoint);
      url.searchParams.set("client_id", config.clientId);
      url.searchParams.set("post_logout_redirect_uri", postLogoutUri);
      return url.href;
    },
  };
}

async function discover(p: Provider): Promise<oauth.AuthorizationServer> {
  if (p.metadata !== null && p.now() - p.metadata.at < DISCOVERY_TTL_MS) return p.metadata.as;
  if (p.failed !== null && p.now() - p.failed.at < DISCOVERY_FAILURE_TTL_MS) throw p.failed.error;
  try {
    const as = await oauth.processDiscoveryResponse(p.issuer, await oauth.discoveryRequest(p.issuer, { ...p.http, signal: AbortSignal.timeout(TIMEOUT_MS) }));
    // What we build URLs from must be URLs: garbage is the provider's fault, not a crash of ours.
    if (!URL.canParse(as.authorization_endpoint ?? "") || (as.end_session_endpoint !== undefined && !URL.canParse(as.end_session_endpoint))) {
      throw new Error("its metadata has no usable authorization_endpoint (or a broken end_session_endpoint)");
    }
    p.metadata = { as, at: p.now() };
    p.failed = null;
    return as;
  } catch (err) {
    p.failed = { error: new OidcError("provider_down", `discovery at ${p.config.issuer} failed: ${describe(err)}`), at: p.now() };
    throw p.failed.error;
  }
}

async function startSignIn(p: Provider, ...[redirectUri, next]: Parameters<OidcClient["start"]>): ReturnType<OidcClient["start"]> {
  const as = await discover(p);
  const flow: OidcFlow = { state: oauth.generateRandomState(), nonce: oauth.generateRandomNonce(), verifier: oauth.generateRandomCodeVerifier(), next };
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: p.config.clientId,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: SCOPES,
    code_challenge: await oauth.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: "S256",
    state: flow.state,
    nonce: flow.nonce,
  }).toString();
  return { url: url.href, flow };
}

async function finishSignIn(p: Provider, ...[callback, flow, redirectUri]: Parameters<OidcClient["finish"]>): ReturnType<OidcClient["finish"]> {
  const { config, client, http } = p;
  // The flow cookie is the browser's proof that it started this sign-in: without it, or with
  // another state, the callback may be someone else's (login CSRF) and is refused.
  if (flow === null || callback.get("state") !== flow.state) {
    throw new OidcError("state_mismatch", "the sign-in's state does not match the one this browser started");
  }
  const as = await discover(p);
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, client, callback, flow.state);
  } catch (err) {
    if (err instanceof oauth.AuthorizationResponseError) throw new OidcError("provider_refused", `${err.error}${err.error_description ? `: ${err.error_description}` : ""}`);
    throw new OidcError("state_mismatch", describe(err));
  }
  let response: Response;
  try {
    response = await oauth.authorizationCodeGrantRequest(as, client, p.auth, params, redirectUri, flow.verifier, { ...http, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new OidcError("provider_down", `the token request failed: ${describe(err)}`);
  }
  let result: oauth.TokenEndpointResponse;
  try {
    result = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: flow.nonce, requireIdToken: true });
  } catch (err) {
    throw tokenFailure(err);
  }
  const claims = oauth.getValidatedIdTokenClaims(result)!;
  await verifySignature(as, response, http, result.id_token!, config.clientSecret);
  if (!cleanText(claims.sub)) throw new OidcError("token_invalid", "the ID token's sub is not a usable identifier");
  const extra = claims[config.groupsClaim] === undefined ? await userInfo(as, client, result, claims.sub, http) : {};
  const all: Record<string, unknown> = { ...extra, ...claims };
  return {
    source: config.issuer,
    subject: claims.sub,
    name: nameFromClaims(all),
    email: cleanText(all.email) ? all.email : null,
    groups: groupsFromClaim(all[config.groupsClaim]),
  };
}

/**
 * The ID token's signature, against the provider's published keys. The token came straight from
 * the token endpoint, so TLS vouches for it already; checking the signature as well costs one
 * cached JWKS fetch and catches a provider (or a proxy before it) that hands out tokens it did not
 * sign. A token signed with the client secret (HS256, HS384, HS512) has no published key: it is
 * verified with the secret (OpenID Connect Core 10.1), and refused when this client has none.
 */
async function verifySignature(as: oauth.AuthorizationServer, response: Response, http: object, idToken: string, clientSecret: string | null): Promise<void> {
  const alg = headerAlg(idToken);
  if (alg?.startsWith("HS")) return verifyWithSecret(idToken, alg, clientSecret);
  try {
    await oauth.validateApplicationLevelSignature(as, response, { ...http, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    if (unreachable(err)) throw new OidcError("provider_down", `the provider's keys (jwks_uri) could not be fetched: ${describe(err)}`);
    throw new OidcError("token_invalid", `the ID token's signature does not verify: ${describe(err)}`);
  }
}

// The HMAC algorithms of JWS (RFC 7518 3.2) that an ID token may be signed with.
const HMAC_HASHES: Record<string, string> = { HS256: "sha256", HS384: "sha384", HS512: "sha512" };

/**
 * An HMAC-signed ID token: the key is the client secret's UTF-8 bytes (OpenID Connect Core 10.1),
 * so only a client with a secret can check it, and without one anyone could have made it. The
 * signature is compared in constant time, as the canonical base64url of the expected MAC.
 */
function verifyWithSecret(idToken: string, alg: string, clientSecret: string | null): void {
  if (clientSecret === null) {
    throw new OidcError("token_invalid", `the ID token is signed with a client secret (${alg}), but this client has none: set the client secret, or have the provider sign ID tokens with its own key (RS256, ES256)`);
  }
  const hash = HMAC_HASHES[alg];
  if (hash === undefined) throw new OidcError("token_invalid", `the ID token's algorithm ${alg} is not one this client takes (HS256, HS384, HS512, or the provider's published keys)`);
  const [header, payload, signature] = idToken.split(".") as [string, string, string];
  const expected = Buffer.from(createHmac(hash, Buffer.from(clientSecret, "utf8")).update(`${header}.${payload}`).digest("base64url"));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new OidcError("token_invalid", `the ID token's signature (${alg}) does not verify with this client's secret`);
  }
}

/** The `alg` of a JWT's header, or null when the header is not readable JSON with a string alg. */
function headerAlg(jwt: string): string | null {
  try {
    const header = JSON.parse(Buffer.from(jwt.split(".")[0]!, "base64url").toString("utf8")) as { alg?: unknown };
    return typeof header.alg === "string" ? header.alg : null;
  } catch {
    return null;
  }
}

/** A network failure or a timeout, or the provider answering 5xx: not the token's fault. */
function unreachable(err: unknown): boolean {
  if (err instanceof TypeError || (err instanceof DOMException && (err.name === "TimeoutError" || err.name === "AbortError"))) return true;
  if (err instanceof Error && (err.name === "TimeoutError" || /fetch failed|ECONNREFUSED|Unable to connect/i.test(err.message))) return true;
  return err instanceof oauth.OperationProcessingError && err.code === oauth.RESPONSE_IS_NOT_CONFORM && statusOf(err) >= 500;
}

function statusOf(err: oauth.OperationProcessingError): number {
  return err.cause instanceof Response ? err.cause.status : 0;
}

/** Claims the ID token left to UserInfo (many providers put groups, email and names only there). */
async function userInfo(as: oauth.AuthorizationServer, client: oauth.Client, result: oauth.TokenEndpointResponse, sub: string, http: object): Promise<Record<string, unknown>> {
  if (!as.userinfo_endpoint) return {};
  try {
    const response = await oauth.userInfoRequest(as, client, result.access_token, { ...http, signal: AbortSignal.timeout(TIMEOUT_MS) });
    return { ...(await oauth.processUserInfoResponse(as, client, sub, response)) };
  } catch (err) {
    throw new OidcError("provider_down", `UserInfo failed: ${describe(err)}`);
  }
}

function tokenFailure(err: unknown): OidcError {
  if (err instanceof oauth.ResponseBodyError && err.status >= 500) return new OidcError("provider_down", `the token endpoint answered ${err.status}`);
  if (unreachable(err)) return new OidcError("provider_down", `the token endpoint failed: ${describe(err)}`);
  // A 401 with WWW-Authenticate: the provider does not take our client's credentials (a wrong secret).
  if (err instanceof oauth.WWWAuthenticateChallengeError) return new OidcError("code_refused", `the provider refused this client's credentials (${err.status}): check the client id and secret`);
  if (err instanceof oauth.ResponseBodyError) return new OidcError("code_refused", `${err.error}${err.error_description ? `: ${err.error_description}` : ""}`);
  if (err instanceof oauth.OperationProcessingError) {
    const claim = (err.cause as { claim?: string } | undefined)?.claim;
    if (err.code === oauth.JWT_TIMESTAMP_CHECK) return new OidcError("token_expired", err.message);
    if (err.code === oauth.JWT_CLAIM_COMPARISON && (claim === "aud" || claim === "azp" || /audience/.test(err.message))) return new OidcError("wrong_audience", err.message);
  }
  return new OidcError("token_invalid", describe(err));
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
