// Sign-in through a real OpenID provider (test/support/oidc-provider.ts: the certified
// `oidc-provider` package on loopback), against the real service on either engine: the whole
// authorization code flow with PKCE, who the user is afterwards, whose links they see, and every
// refusal: a wrong state, a replayed code, a token for another client, an expired token, a token
// signed by a key the provider never published, a user outside the allowed group, a disabled user
// (whose session ends at once), and a provider that is down.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, cli, makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";
import { CLIENT_SECRET, CookieWalker, freePort, PROVIDER_HOST, serviceWithProvider, type ServiceWithProvider, type TestProvider } from "../support/oidc-provider.ts";

let service: ServiceWithProvider;
let provider: TestProvider;
let server: RunningServer;
let base: string;
const CALLBACK = () => `${base}/api/session/oidc/callback`;

beforeAll(async () => {
  service = await serviceWithProvider(["--oidc-admin-group", "admins", "--oidc-allowed-group", "staff", "--oidc-name", "Test ID", "--create-access", "key"]);
  ({ provider, server, base } = service);
});
afterAll(() => service?.stop());

/** A browser that starts a sign-in: its flow cookie, and the provider's authorization URL. */
async function started(next = "/en/links"): Promise<{ walker: CookieWalker; authorization: string }> {
  const walker = new CookieWalker();
  const res = await walker.go(`${base}/api/session/oidc?next=${encodeURIComponent(next)}`);
  expect(res.status).toBe(302);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("shortener_oidc="))!;
  expect(cookie).toContain("HttpOnly");
  expect(cookie).toContain("SameSite=Lax");
  expect(cookie).toContain("Path=/api/session/oidc");
  return { walker, authorization: res.headers.get("location")! };
}

/** Signs `login` in all the way; returns the walker (holding the session cookie) and the callback's answer. */
async function signIn(login: string, next?: string): Promise<{ walker: CookieWalker; answer: Response; callback: string }> {
  const { walker, authorization } = await started(next);
  const callback = await walker.signInAtProvider(authorization, login, CALLBACK());
  const answer = await walker.go(callback, { headers: { accept: "application/json" } });
  return { walker, answer, callback };
}

/** Where the signed-in page goes on to: its refresh (a same-site navigation, so the session cookie goes along). */
async function nextOf(answer: Response): Promise<string> {
  const html = await answer.text();
  expect(answer.headers.get("content-type")).toContain("text/html");
  return /<meta http-equiv="refresh" content="0; url=([^"]*)">/.exec(html)![1]!.replaceAll("&amp;", "&");
}

const whoAmI = async (walker: CookieWalker) => (await (await walker.go(`${base}/api/session`)).json()) as any;

describe("the authorization code flow", () => {
  test("the sign-in starts at the provider with PKCE (S256), state and nonce, and the exact callback", async () => {
    const { authorization } = await started();
    const url = new URL(authorization);
    expect(url.origin).toBe(provider.issuer);
    const p = url.searchParams;
    expect(p.get("client_id")).toBe("shortener");
    expect(p.get("redirect_uri")).toBe(CALLBACK());
    expect(p.get("response_type")).toBe("code");
    expect(p.get("code_challenge_method")).toBe("S256");
    expect(p.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.get("state")).toBeTruthy();
    expect(p.get("nonce")).toBeTruthy();
    expect(p.get("scope")!.split(" ")).toContain("openid");
  });

  test("alice (admins) signs in: a page that goes on to next, a session cookie, the flow cookie cleared; GET /api/session says who", async () => {
    const { walker, answer } = await signIn("alice", "/de/links");
    expect(answer.status).toBe(200);
    expect(await nextOf(answer)).toBe("/de/links");
    const cookies = answer.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith("shortener_session="))).toMatch(/HttpOnly; SameSite=Strict/);
    expect(cookies.find((c) => c.startsWith("shortener_oidc="))).toContain("Max-Age=0");
    expect(walker.jar.has("shortener_oidc")).toBe(false);
    const who = await whoAmI(walker);
    expect(who.data).toMatchObject({ signedIn: true, name: "alice", scope: "admin", via: "session", user: { name: "alice", email: "alice@example.test", admin: true, source: "oidc" } });
    expect(who.data.signIn).toEqual({ key: true, oidc: { name: "Test ID", url: "/api/session/oidc" } });
  });

  test("a next that leaves this service is replaced by the dashboard", async () => {
    for (const next of ["https://evil.example/", "//evil.example/", "/\\evil.example"]) {
      const { answer } = await signIn("alice", next);
      expect(answer.status).toBe(200);
      expect(await nextOf(answer)).toBe("/en/links");
    }
  });

  test("bob (staff) is a plain user: he sees and changes only his own links, a 404 for alice's", async () => {
    const alice = (await signIn("alice")).walker;
    const bob = (await signIn("bob")).walker;
    expect((await whoAmI(bob)).data).toMatchObject({ name: "bob", scope: "create", user: { admin: false } });
    const make = async (w: CookieWalker, id: string) =>
      w.go(`${base}/api/create`, { method: "POST", headers: { origin: base, "content-type": "application/json" }, body: JSON.stringify({ url: `https://example.com/${id}`, custom_url: id }) });
    expect((await make(alice, "alices-link")).status).toBe(201);
    expect((await make(bob, "bobs-link")).status).toBe(201);
    const list = async (w: CookieWalker) => ((await (await w.go(`${base}/api/links`)).json()) as any).data.links.map((l: any) => [l.id, l.owner]);
    expect(await list(bob)).toEqual([["bobs-link", "bob"]]);
    expect(await list(alice)).toEqual(expect.arrayContaining([["alices-link", "alice"], ["bobs-link", "bob"]]));
    expect((await bob.go(`${base}/api/links/alices-link`)).status).toBe(404);
    const patch = await bob.go(`${base}/api/links/alices-link`, { method: "PATCH", headers: { origin: base, "content-type": "application/json" }, body: JSON.stringify({ disabled: true }) });
    expect(patch.status).toBe(404);
    // alice, an admin, filters by owner
    const filtered = ((await (await alice.go(`${base}/api/links?owner=bob`)).json()) as any).data.links.map((l: any) => l.id);
    expect(filtered).toEqual(["bobs-link"]);
  });

  test("a key made for bob (key create --user bob) sees what his browser sees, and its links are his", async () => {
    const key = cli(["key", "create", "bobs-script", "--scope", "create", "--user", "bob", "--db", server.dbPath]);
    expect(key.code).toBe(0);
    const secret = key.out.trim();
    expect((await api(base, secret, "POST", "/api/create", { url: "https://example.com/script", custom_url: "bobs-script-link" })).status).toBe(201);
    const fromKey = (await api(base, secret, "GET", "/api/links")).body.data.links.map((l: any) => [l.id, l.owner]);
    expect(fromKey).toEqual(expect.arrayContaining([["bobs-link", "bob"], ["bobs-script-link", "bob"]]));
    expect(fromKey.map((l: string[]) => l[0])).not.toContain("alices-link");
    const bob = (await signIn("bob")).walker;
    const fromBrowser = ((await (await bob.go(`${base}/api/links`)).json()) as any).data.links.map((l: any) => l.id);
    expect(fromBrowser).toContain("bobs-script-link");
    expect(cli(["key", "create", "nobodys", "--user", "nobody", "--db", server.dbPath]).code).toBe(1);
    // Without --scope, a user's key has the user's rights.
    const scopeOf = async (name: string, user: string) => {
      const made = cli(["key", "create", name, "--user", user, "--db", server.dbPath]).out.trim();
      return (await api(base, made, "GET", "/api/session")).body.data;
    };
    expect(await scopeOf("alices-default", "alice")).toMatchObject({ scope: "admin", user: { name: "alice" } });
    expect(await scopeOf("bobs-default", "bob")).toMatchObject({ scope: "create", user: { name: "bob" } });
  });

  test("sign-out ends the server session and offers the provider's end-session URL", async () => {
    const { walker } = await signIn("alice");
    const out = await walker.go(`${base}/api/session`, { method: "DELETE", headers: { origin: base } });
    expect(out.status).toBe(200);
    const body = (await out.json()) as any;
    const end = new URL(body.data.endSessionUrl);
    expect(end.origin + end.pathname).toBe(`${provider.issuer}/session/end`);
    expect(end.searchParams.get("post_logout_redirect_uri")).toBe(`${base}/`);
    expect((await whoAmI(walker)).data.signedIn).toBe(false);
  });
});

describe("refusals", () => {
  test("a callback without the browser's flow cookie, or with another state, is state_mismatch (400)", async () => {
    const { walker, authorization } = await started();
    const callback = await walker.signInAtProvider(authorization, "alice", CALLBACK());
    const stranger = new CookieWalker();
    const r = await stranger.go(callback, { headers: { accept: "application/json" } });
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).code).toBe("oidc_state_mismatch");
    const other = new URL(callback);
    other.searchParams.set("state", "not-the-state");
    const r2 = await walker.go(other.href, { headers: { accept: "application/json" } });
    expect(r2.status).toBe(400);
    expect(((await r2.json()) as any).code).toBe("oidc_state_mismatch");
    expect((await whoAmI(walker)).data.signedIn).toBe(false);
  });

  test("a replayed code is refused by the provider: code_refused, no second session", async () => {
    const { walker, authorization } = await started();
    const flowCookie = () => walker.jar.get("shortener_oidc")!;
    const saved = flowCookie();
    const callback = await walker.signInAtProvider(authorization, "alice", CALLBACK());
    expect((await walker.go(callback)).status).toBe(200);
    // The same callback again, with the flow cookie put back (an attacker who copied both).
    const replay = new CookieWalker();
    replay.jar.set("shortener_oidc", saved);
    const before = provider.tokenRequests;
    const r = await replay.go(callback, { headers: { accept: "application/json" } });
    expect(provider.tokenRequests).toBe(before + 1);
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).code).toBe("oidc_code_refused");
    expect(replay.jar.has("shortener_session")).toBe(false);
  });

  for (const [tamper, status, code] of [
    ["other-audience", 401, "oidc_wrong_audience"],
    ["expired", 401, "oidc_token_expired"],
    ["forged", 401, "oidc_token_invalid"],
  ] as const) {
    test(`an ID token ${tamper === "forged" ? "signed by an unpublished key" : tamper === "expired" ? "already expired" : "for another client"} → ${code}`, async () => {
      provider.tamper = tamper;
      try {
        const { walker, answer } = await signIn("alice");
        expect(answer.status).toBe(status);
        expect(((await answer.json()) as any).code).toBe(code);
        expect(walker.jar.has("shortener_session")).toBe(false);
      } finally {
        provider.tamper = "none";
      }
    });
  }

  test("carol, outside --oidc-allowed-group, is refused: a page in her language (German here)", async () => {
    const { walker, authorization } = await started();
    const callback = await walker.signInAtProvider(authorization, "carol", CALLBACK());
    const r = await walker.go(callback, { headers: { accept: "text/html", "accept-language": "de" } });
    expect(r.status).toBe(403);
    expect(r.headers.get("content-type")).toContain("text/html");
    const html = await r.text();
    expect(html).toContain("Anmeldung fehlgeschlagen");
    expect(html).toContain("Gruppe");
    expect(walker.jar.has("shortener_session")).toBe(false);
  });

  test("a provider that refuses (the person cancelled) is provider_refused", async () => {
    const { walker, authorization } = await started();
    const state = new URL(authorization).searchParams.get("state")!;
    const r = await walker.go(`${CALLBACK()}?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`, { headers: { accept: "application/json" } });
    expect(r.status).toBe(403);
    expect(((await r.json()) as any).code).toBe("oidc_provider_refused");
  });

  test("disabling a user ends their sessions at once and refuses them, their keys and their next sign-in", async () => {
    const dave = await signIn("bob");
    expect((await whoAmI(dave.walker)).data.signedIn).toBe(true);
    const key = cli(["key", "create", "bobs-other", "--scope", "create", "--user", "bob", "--db", server.dbPath]).out.trim();
    expect(cli(["user", "disable", "bob", "--db", server.dbPath]).code).toBe(0);
    expect((await whoAmI(dave.walker)).data.signedIn).toBe(false);
    const byKey = await api(base, key, "GET", "/api/links");
    expect(byKey.status).toBe(403);
    expect(byKey.body.code).toBe("user_disabled");
    const again = await signIn("bob");
    expect(again.answer.status).toBe(403);
    expect(((await again.answer.json()) as any).code).toBe("user_disabled");
    const listed = cli(["user", "list", "--db", server.dbPath]).out;
    expect(listed).toMatch(/bob\s+oidc\s+bob@example.test\s+member\s+\S+\s+disabled/);
    expect(cli(["user", "enable", "bob", "--db", server.dbPath]).code).toBe(0);
    expect((await signIn("bob")).answer.status).toBe(200);
  });

  test("a key pasted into the sign-in still works beside the provider; an admin key sees every user's links", async () => {
    const admin = makeKey(server.dbPath, "ops");
    const pasted = await api(base, null, "POST", "/api/session", { key: admin }, { origin: base });
    expect(pasted.status).toBe(200);
    const cookie = pasted.headers.get("set-cookie")!.split(";")[0]!;
    const all = (await api(base, null, "GET", "/api/links", undefined, { cookie })).body.data.links.map((l: any) => l.owner);
    expect(all).toEqual(expect.arrayContaining(["alice", "bob"]));
  });

  test("a next outside printable ASCII, or a flow cookie that names another site, lands on the dashboard", async () => {
    const { answer } = await signIn("alice", "/\u2603");
    expect(answer.status).toBe(200);
    expect(await nextOf(answer)).toBe("/en/links");
    const { walker, authorization } = await started();
    const [state, nonce, verifier] = JSON.parse(Buffer.from(walker.jar.get("shortener_oidc")!, "base64url").toString());
    walker.jar.set("shortener_oidc", Buffer.from(JSON.stringify([state, nonce, verifier, "https://evil.example/"])).toString("base64url"));
    const callback = await walker.signInAtProvider(authorization, "alice", CALLBACK());
    const r = await walker.go(callback);
    expect(r.status).toBe(200);
    expect(await nextOf(r)).toBe("/en/links");
  });

  test("malformed flow cookies are a state mismatch (400), never a 5xx", async () => {
    const { walker, authorization } = await started();
    const callback = await walker.signInAtProvider(authorization, "alice", CALLBACK());
    for (const value of ["%%%", "e30", Buffer.from("[1,2,3,4]").toString("base64url"), "x".repeat(5000)]) {
      const w = new CookieWalker();
      w.jar.set("shortener_oidc", value);
      const r = await w.go(callback, { headers: { accept: "application/json" } });
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).code).toBe("oidc_state_mismatch");
    }
  });

  test("the token endpoint answering 502 is provider_down (502), not the token's fault", async () => {
    provider.tamper = "token-endpoint-down";
    try {
      const { answer } = await signIn("alice");
      expect(answer.status).toBe(502);
      expect(((await answer.json()) as any).code).toBe("oidc_provider_down");
    } finally {
      provider.tamper = "none";
    }
  });

  test("a provider's sign-in lasts 7 days however active; then the dashboard asks to sign in again", async () => {
    const { walker } = await signIn("alice");
    expect((await whoAmI(walker)).data.signedIn).toBe(true);
    await ageSessions(8);
    const who = await walker.go(`${base}/api/links`);
    expect(who.status).toBe(401);
    expect(((await who.json()) as any).code).toBe("auth_invalid");
  });
});

/** Moves every session's sign-in `days` into the past, as the operator's database client would. */
async function ageSessions(days: number): Promise<void> {
  const shift = days * 86_400_000;
  if (server.engine === "sqlite") {
    const db = new Database(server.dbPath);
    db.run("PRAGMA busy_timeout = 5000");
    db.query("UPDATE sessions SET created_at = created_at - ?").run(shift);
    db.close();
    return;
  }
  const pg = new SQL(server.dbPath, { max: 1 });
  await pg`UPDATE sessions SET created_at = created_at - ${shift}`;
  await pg.close();
}

describe("configuration", () => {
  test("a wrong client secret: the provider refuses the client, code_refused (400)", async () => {
    const { server: wrong, base: wrongBase, stop } = await serviceWithProvider([], { provider, secret: "not-the-secret" });
    try {
      const walker = new CookieWalker();
      const start = await walker.go(`${wrongBase}/api/session/oidc`);
      // The provider knows only the first server's callback: this one's is refused at /auth, so the
      // code is obtained for the registered callback and brought here, as a misconfigured client would.
      const url = new URL(start.headers.get("location")!);
      url.searchParams.set("redirect_uri", CALLBACK());
      const callback = await walker.signInAtProvider(url.href, "alice", CALLBACK());
      const r = await walker.go(`${wrongBase}/api/session/oidc/callback${new URL(callback).search}`, { headers: { accept: "application/json" } });
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).code).toBe("oidc_code_refused");
      // The log line reaches the test through a pipe, a moment after the answer.
      const logged = await eventually(async () => wrong.output(), (out) => out.includes("refused this client's credentials"));
      expect(logged).toContain("refused this client's credentials");
      expect(logged).not.toContain("not-the-secret");
    } finally {
      await stop();
    }
  });

  test("the client secret never shows in the log", () => {
    expect(server.output()).not.toContain(CLIENT_SECRET);
    expect(server.output()).toContain("client secret set");
  });

  test("--oidc-issuer needs --base-url; a non-loopback http issuer is refused", () => {
    const noBase = cli(["--oidc-issuer", "https://id.example.org", "--oidc-client-id", "x"]);
    expect(noBase.code).toBe(2);
    expect(noBase.err).toContain("needs --base-url");
    const http = cli(["--oidc-issuer", "http://id.example.org", "--oidc-client-id", "x", "--base-url", "https://s.example.org"]);
    expect(http.code).toBe(2);
    expect(http.err).toContain("must be https");
  });

  test("a provider that is down: the sign-in says so (502), the service keeps answering", async () => {
    const port = await freePort();
    const down = await startServer({ args: ["--base-url", "http://127.0.0.1:1", "--oidc-issuer", `http://127.0.0.1:${port}`, "--oidc-client-id", "x"] });
    try {
      const r = await fetch(`${down.url}/api/session/oidc`, { redirect: "manual", headers: { accept: "text/html", "accept-language": "fr" } });
      expect(r.status).toBe(502);
      expect(await r.text()).toContain("fournisseur d’identité est injoignable");
      expect((await fetch(`${down.url}/health`)).status).toBe(200);
    } finally {
      await down.dispose();
    }
  });

  test("--oidc-only: no pasted keys in the dashboard, bearer keys still work", async () => {
    const { server: only, stop } = await serviceWithProvider(["--oidc-only"], { provider, secret: null });
    try {
      const key = makeKey(only.dbPath, "script");
      const r = await api(only.url, null, "POST", "/api/session", { key });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe("key_sign_in_off");
      expect((await api(only.url, key, "GET", "/api/links")).status).toBe(200);
      expect((await api(only.url, null, "GET", "/api/session")).body.data.signIn).toEqual({ key: false, oidc: { name: PROVIDER_HOST, url: "/api/session/oidc" } });
    } finally {
      await stop();
    }
  });
});
