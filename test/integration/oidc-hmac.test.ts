// ID tokens signed with the client secret (HS256), through a real OpenID provider
// (test/support/oidc-provider.ts), on either engine: accepted only by a client that has the secret,
// and only when they verify with it; a public client refuses them, and so does any client for an
// HS256 token signed with another secret or carrying no real signature (OpenID Connect Core 10.1).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CookieWalker, serviceWithProvider, type ServiceWithProvider, type Tamper } from "../support/oidc-provider.ts";
import { openStored } from "../support/stored.ts";
import { eventually } from "../support/eventually.ts";

/** Signs `login` in at `service` all the way: the callback's status, code and whether a session came. */
async function signIn(service: ServiceWithProvider, login: string) {
  const walker = new CookieWalker();
  const start = await walker.go(`${service.base}/api/session/oidc`);
  const callback = await walker.signInAtProvider(start.headers.get("location")!, login, `${service.base}/api/session/oidc/callback`);
  const answer = await walker.go(callback, { headers: { accept: "application/json" } });
  const body = answer.headers.get("content-type")?.includes("application/json") ? ((await answer.json()) as { code?: string }) : {};
  return { status: answer.status, code: body.code ?? null, session: walker.jar.has("shortener_session") };
}

async function usersOf(service: ServiceWithProvider): Promise<string[]> {
  const stored = await openStored(service.server);
  try {
    return (await stored.all<{ name: string }>("SELECT name FROM users ORDER BY id")).map((u) => u.name);
  } finally {
    await stored.close();
  }
}

describe("the provider signs ID tokens with the client secret (HS256)", () => {
  let service: ServiceWithProvider;
  beforeAll(async () => {
    service = await serviceWithProvider([], { client: { id_token_signed_response_alg: "HS256" } });
  });
  afterAll(() => service?.stop());

  test("a client with the secret verifies them and signs alice in", async () => {
    expect(await signIn(service, "alice")).toEqual({ status: 200, code: null, session: true });
    expect(service.provider.lastIdTokenAlg).toBe("HS256");
  });

  for (const [tamper, what] of [["hs256-wrong-secret", "signed with another secret"], ["hs256-garbage", "whose signature is no signature"]] as [Tamper, string][]) {
    test(`an HS256 ID token ${what}: 401 oidc_token_invalid, no session, no user`, async () => {
      service.provider.tamper = tamper;
      try {
        expect(await signIn(service, "mallory")).toEqual({ status: 401, code: "oidc_token_invalid", session: false });
      } finally {
        service.provider.tamper = "none";
      }
      expect(await usersOf(service)).not.toContain("mallory");
    });
  }
});

describe("a public client (no client secret)", () => {
  let service: ServiceWithProvider;
  beforeAll(async () => {
    // The provider still has a secret for this client, to sign its ID tokens with; the client does not.
    service = await serviceWithProvider([], { secret: null, client: { id_token_signed_response_alg: "HS256", token_endpoint_auth_method: "none" } });
  });
  afterAll(() => service?.stop());

  test("an HS256 ID token, even the provider's own, is refused: 401 oidc_token_invalid, no session, no user", async () => {
    expect(await signIn(service, "bob")).toEqual({ status: 401, code: "oidc_token_invalid", session: false });
    expect(service.provider.lastIdTokenAlg).toBe("HS256");
    expect(await usersOf(service)).toEqual([]);
    // The log line reaches the test through a pipe, a moment after the answer.
    const logged = await eventually(async () => service.server.output(), (out) => out.includes("but this client has none"));
    expect(logged).toContain("signed with a client secret (HS256), but this client has none");
  });
});

describe("a provider that signs with its published keys (RS256)", () => {
  let service: ServiceWithProvider;
  beforeAll(async () => {
    service = await serviceWithProvider([]);
  });
  afterAll(() => service?.stop());

  test("a forged token that says HS256 is not waved through: verified with the secret, and refused", async () => {
    service.provider.tamper = "hs256-wrong-secret";
    try {
      expect(await signIn(service, "mallory")).toEqual({ status: 401, code: "oidc_token_invalid", session: false });
    } finally {
      service.provider.tamper = "none";
    }
    expect(await signIn(service, "alice")).toEqual({ status: 200, code: null, session: true });
  });
});
