// The session operations (src/ops/sessions) in process, on a temp SQLite file: a user let in by the
// allowed group and refused when disabled; a session started for a checked key or an admitted user
// (not for nobody, not for a key under --oidc-only); signing out, and who is asking.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { admitUser } from "../../src/ops/sessions/admit.ts";
import { signIn, type SignInDeps } from "../../src/ops/sessions/sign-in.ts";
import { signOut } from "../../src/ops/sessions/sign-out.ts";
import { whoIsAsking } from "../../src/ops/sessions/who.ts";
import { hashSecret } from "../../src/auth/keys.ts";
import { signInRules } from "../../src/auth/users.ts";
import { adminKey, keptLog, tempStorage, userActor, type Opened } from "./support.ts";

let opened: Opened;
let log: ReturnType<typeof keptLog>;
let deps: SignInDeps;

beforeEach(async () => {
  opened = await tempStorage();
  log = keptLog();
  deps = { sessions: opened.storage.sessions, log, now: () => Date.now(), keySignIn: { allowed: true, provider: null } };
});
afterEach(() => opened.dispose());

const alice = { source: "https://id.example.org", subject: "a1", name: "alice", email: null, groups: ["staff"] };

describe("admitUser", () => {
  test("the allowed group lets in its members, made users on first sight; others are refused before any is made", async () => {
    const users = opened.storage.users;
    const outside = await admitUser(null, { identity: { ...alice, groups: ["guests"] }, rules: signInRules(null, "staff") }, { users, log, now: Date.now });
    expect(outside.ok ? null : outside.problem.code).toBe("group_not_allowed");
    expect(await users.list()).toEqual([]);
    const admitted = await admitUser(null, { identity: alice, rules: signInRules(null, "staff") }, { users, log, now: Date.now });
    expect(admitted.ok && [admitted.value.name, admitted.value.admin]).toEqual(["alice", true]);
  });

  test("a disabled user is refused, and the log says why", async () => {
    const users = opened.storage.users;
    const first = await admitUser(null, { identity: alice, rules: signInRules(null, null) }, { users, log, now: Date.now });
    await users.setDisabled(first.ok ? first.value.id : 0, 1);
    const again = await admitUser(null, { identity: alice, rules: signInRules(null, null) }, { users, log, now: Date.now });
    expect(again.ok ? null : again.problem.code).toBe("user_disabled");
    expect(log.lines.at(-1)).toEqual(["auth failed", { reason: "user_disabled", user: "alice" }]);
  });
});

describe("signIn and signOut", () => {
  test("a checked key starts a session its token finds; nobody cannot; under --oidc-only a key is refused and a user is not", async () => {
    const keyHash = hashSecret("sk_whatever");
    const started = await signIn(adminKey, { owner: { keyHash } }, deps);
    if (!started.ok) throw new Error(started.problem.message);
    const session = await opened.storage.sessions.find(started.value.token, Date.now());
    expect(Buffer.from(session?.keyHash ?? []).toString("hex")).toBe(Buffer.from(keyHash).toString("hex"));
    const nobody = await signIn(null, { owner: { keyHash } }, deps);
    const off = await signIn(adminKey, { owner: { keyHash } }, { ...deps, keySignIn: { allowed: false, provider: "Pocket ID" } });
    expect([nobody, off].map((o) => (o.ok ? "done" : o.problem.code))).toEqual(["auth_required", "key_sign_in_off"]);
    expect(off.ok ? "" : off.problem.message).toContain("Pocket ID");
    const user = await opened.storage.users.upsert(alice, false, 1, 0);
    const userSession = await signIn(userActor(user), { owner: { userId: user.id } }, { ...deps, keySignIn: { allowed: false, provider: "Pocket ID" } });
    expect(userSession.ok).toBe(true);
    expect(log.actions()).toEqual([
      { key: "ops-admin", action: "sign-in", id: null, result: "ok" },
      { key: "alice", action: "sign-in", id: null, result: "ok oidc" },
    ]);
  });

  test("signing out ends the session; a provider's user is offered its end-session URL", async () => {
    const user = await opened.storage.users.upsert(alice, false, 1, 0);
    const started = await signIn(userActor(user), { owner: { userId: user.id } }, deps);
    const token = started.ok ? started.value.token : "";
    const provider = { issuer: alice.source, endSessionUrl: (to: string) => `https://id.example.org/end?to=${to}` };
    const ended = await signOut(userActor(user), { token }, { sessions: opened.storage.sessions, log, provider, baseUrl: "https://s.example.org" });
    expect(ended.ok && ended.value.endSessionUrl).toBe("https://id.example.org/end?to=https://s.example.org/");
    expect(await opened.storage.sessions.find(token, Date.now())).toBeNull();
    const byKey = await signOut(adminKey, { token: null }, { sessions: opened.storage.sessions, log, provider, baseUrl: "https://s.example.org" });
    expect(byKey.ok && byKey.value.endSessionUrl).toBeNull();
  });
});

test("who is asking: nobody, or the actor's name, scope, user and way in, with the service's policy", async () => {
  const policy = { createAccess: "public" as const, statsAccess: "public" as const, signIn: { key: true, oidc: null } };
  const nobody = await whoIsAsking(null, null, { policy });
  expect(nobody.ok && nobody.value).toEqual({ signedIn: false, ...policy });
  const key = await whoIsAsking(adminKey, null, { policy });
  expect(key.ok && key.value).toEqual({ signedIn: true, name: "ops-admin", scope: "admin", user: null, via: "key", ...policy });
});
