// A real OpenID provider for the sign-in tests: the `oidc-provider` package (a certified
// implementation), on a loopback port, with its development login and consent forms (the login
// name becomes the subject; any password is taken). Its users and their groups:
//   alice: admins, staff · bob: staff · carol: no group
// `tamper` makes the token endpoint hand out a bad ID token, each signed the way a real attacker
// or a misconfigured provider would get it: for another client (audience), already expired,
// signed with a key the provider never published, HMAC-signed (HS256) with a secret that is not
// the client's, or claiming HS256 over a signature that is no signature at all.

import { createServer, type Server } from "node:http";
import { once } from "node:events";
import Provider from "oidc-provider";
import { freePort } from "./ports.ts";
import { startServer, type RunningServer } from "./server.ts";
export { freePort };

export const GROUPS: Record<string, string[]> = { alice: ["admins", "staff"], bob: ["staff"], carol: [] };
export const CLIENT_ID = "shortener";
export const CLIENT_SECRET = "test-client-secret-0123456789";

export const PROVIDER_HOST = "127.0.0.2";

export type Tamper = "none" | "other-audience" | "expired" | "forged" | "hs256-wrong-secret" | "hs256-garbage" | "token-endpoint-down";

export type TestProvider = {
  issuer: string;
  tamper: Tamper;
  /** requests the provider's token endpoint answered (a replayed code reaches it too) */
  tokenRequests: number;
  /** the header's alg of the last ID token the token endpoint handed out (tampered or not) */
  lastIdTokenAlg: string | null;
  stop(): Promise<void>;
};

/**
 * Starts the provider for a shortener whose public base URL is `rpBase`; `client` overrides the
 * registration of client "shortener" (id_token_signed_response_alg "HS256": ID tokens signed with
 * its secret; token_endpoint_auth_method "none": a public client).
 */
export async function startProvider(rpBase: string, client: Record<string, unknown> = {}): Promise<TestProvider> {
  const server: Server = createServer();
  // Another loopback address than the service's: another host to the browser, as a real provider
  // is, and not a service answer to the contract check (test/support/contract.ts).
  server.listen(0, PROVIDER_HOST);
  await once(server, "listening");
  const port = (server.address() as { port: number }).port;
  const issuer = `http://${PROVIDER_HOST}:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${rpBase}/api/session/oidc/callback`],
        post_logout_redirect_uris: [`${rpBase}/`],
        token_endpoint_auth_method: "client_secret_basic",
        ...client,
      },
      { client_id: "other-app", client_secret: "other-secret-0123456789", redirect_uris: ["http://127.0.0.1:9/other"] },
    ],
    pkce: { required: () => true },
    // HS256 beside RS256, as Authelia and Keycloak offer it: a client may have its ID tokens signed with its secret.
    enabledJWA: { idTokenSigningAlgValues: ["RS256", "HS256"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["preferred_username", "name"], groups: ["groups"] },
    // Groups and names in the ID token, as Authelia and Authentik send them.
    conformIdTokenClaims: false,
    async findAccount(_ctx: unknown, sub: string) {
      return {
        accountId: sub,
        async claims() {
          return { sub, email: `${sub}@example.test`, email_verified: true, preferred_username: sub, name: sub, groups: GROUPS[sub] ?? [] };
        },
      };
    },
    // Numbers, not functions: older Bun releases printed functions in a way the provider's check refused.
    ttl: {
      AccessToken: 600, AuthorizationCode: 60, ClientCredentials: 600, DeviceCode: 600, BackchannelAuthenticationRequest: 600,
      Grant: 3600, IdToken: 600, Interaction: 600, RefreshToken: 3600, Session: 3600, PreAuthorizedCode: 600,
    },
  } as never);
  const state: TestProvider = {
    issuer,
    tamper: "none",
    tokenRequests: 0,
    lastIdTokenAlg: null,
    stop: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
  // A post-middleware on the token endpoint (the provider's documented extension point).
  provider.use(async (ctx: any, next: () => Promise<void>) => {
    if (ctx.path === "/token") state.tokenRequests++;
    if (ctx.path === "/token" && state.tamper === "token-endpoint-down") {
      ctx.status = 502;
      ctx.body = "<html>Bad Gateway</html>";
      return;
    }
    await next();
    if (ctx.oidc?.route !== "token" || !ctx.body?.id_token) return;
    if (state.tamper !== "none") {
      const claims = JSON.parse(Buffer.from(ctx.body.id_token.split(".")[1], "base64url").toString());
      ctx.body = { ...ctx.body, id_token: await tampered(provider, claims, state.tamper as Exclude<Tamper, "none" | "token-endpoint-down">) };
    }
    state.lastIdTokenAlg = JSON.parse(Buffer.from(ctx.body.id_token.split(".")[0], "base64url").toString()).alg;
  });
  server.on("request", provider.callback());
  return state;
}

async function tampered(provider: any, claims: Record<string, unknown>, tamper: Exclude<Tamper, "none" | "token-endpoint-down">): Promise<string> {
  if (tamper === "forged") return forge(provider, claims);
  if (tamper === "hs256-wrong-secret") return signHs256(claims, "not-the-client-secret-0123456789");
  if (tamper === "hs256-garbage") return `${jwtPart({ alg: "HS256", typ: "JWT" })}.${jwtPart(claims)}.${Buffer.from("no signature at all").toString("base64url")}`;
  const { aud, exp, iat, iss, ...own } = claims;
  const client = await provider.Client.find(tamper === "other-audience" ? "other-app" : String(aud));
  const token = new provider.IdToken(own, { client, ctx: undefined });
  token.scope = "openid email profile groups";
  token.set("nonce", claims.nonce);
  return token.issue(tamper === "expired" ? { use: "idtoken", expiresAt: Math.floor(Date.now() / 1000) - 600 } : { use: "idtoken" });
}

const jwtPart = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");

/** The same claims, HS256-signed (HMAC-SHA256) with `secret` as the key. */
function signHs256(claims: Record<string, unknown>, secret: string): string {
  const input = `${jwtPart({ alg: "HS256", typ: "JWT" })}.${jwtPart(claims)}`;
  return `${input}.${new Bun.CryptoHasher("sha256", secret).update(input).digest("base64url")}`;
}

/** The same claims, RS256-signed by a fresh key under the provider's published key id. */
async function forge(provider: any, claims: Record<string, unknown>): Promise<string> {
  const published = await (await fetch(`${provider.issuer}/jwks`)).json() as { keys: { kid: string }[] };
  const keys = await crypto.subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["sign"]);
  const input = `${jwtPart({ alg: "RS256", typ: "JWT", kid: published.keys[0]!.kid })}.${jwtPart(claims)}`;
  const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", keys.privateKey, new TextEncoder().encode(input));
  return `${input}.${Buffer.from(signature).toString("base64url")}`;
}

export type ServiceWithProvider = { server: RunningServer; base: string; provider: TestProvider; stop(): Promise<void> };

/**
 * The service on a port of its own, signing in through `provider` (default: a new one registered
 * for this service's callback, stopped with it, its client registered as `client` says: see
 * startProvider) as client "shortener"; `secret` null: none given.
 */
export async function serviceWithProvider(
  args: string[] = [],
  o: { provider?: TestProvider; secret?: string | null; client?: Record<string, unknown> } = {},
): Promise<ServiceWithProvider> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const provider = o.provider ?? (await startProvider(base, o.client));
  const secret = o.secret === undefined ? CLIENT_SECRET : o.secret;
  const server = await startServer({
    args: ["--port", String(port), "--base-url", base, "--oidc-issuer", provider.issuer, "--oidc-client-id", CLIENT_ID, ...args],
    env: secret === null ? {} : { SHORTENER_OIDC_CLIENT_SECRET: secret },
  });
  return {
    server,
    base,
    provider,
    async stop() {
      await server.dispose();
      if (o.provider === undefined) await provider.stop();
    },
  };
}

/**
 * A browser without a browser: follows redirects by hand with one cookie jar, so a test can stop at
 * any step. It sends every cookie to both hosts; the provider's and ours have different names.
 */
export class CookieWalker {
  readonly jar = new Map<string, string>();

  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size > 0) headers.set("cookie", [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      const [name, value] = [pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim()];
      if (/max-age=0/i.test(c) || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }

  /** Follows redirects until one leads to `stopAt` (returned, not fetched) or a page answers. */
  async follow(url: string, stopAt: string, init?: RequestInit): Promise<{ stopped: string } | { page: Response; url: string }> {
    let res = await this.go(url, init);
    while (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get("location")!, url).href;
      if (next.startsWith(stopAt)) return { stopped: next };
      url = next;
      res = await this.go(url);
    }
    return { page: res, url };
  }

  /**
   * Signs in at the provider as `login` from its authorization URL: the login form, then the
   * consent form when it comes; returns the callback URL the provider sent the browser to.
   */
  async signInAtProvider(authorizationUrl: string, login: string, callbackPrefix: string): Promise<string> {
    let step = await this.follow(authorizationUrl, callbackPrefix);
    for (let forms = 0; "page" in step && forms < 3; forms++) {
      const html = await step.page.text();
      const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form at the provider: ${html.slice(0, 300)}`);
      const fields: Record<string, string> = html.includes('name="login"') ? { prompt: "login", login, password: "any" } : { prompt: "consent" };
      step = await this.follow(new URL(action, step.url).href, callbackPrefix, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
    }
    if (!("stopped" in step)) throw new Error("the provider did not send the browser back");
    return step.stopped;
  }
}
