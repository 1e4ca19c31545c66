// The key and user operations (src/ops/keys, src/ops/users) in process, on a temp SQLite file: who
// may (an admin, the operator), who may not (nobody, a create key, a member) and the refusal's
// code; what each writes, and the audit line it logs.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createKey } from "../../src/ops/keys/create.ts";
import { listKeys } from "../../src/ops/keys/list.ts";
import { revokeKey } from "../../src/ops/keys/revoke.ts";
import { listUsers } from "../../src/ops/users/list.ts";
import { setUserDisabled } from "../../src/ops/users/disable.ts";
import { setUserRole } from "../../src/ops/users/role.ts";
import type { AccountsDeps } from "../../src/ops/accounts.ts";
import { OPERATOR, type Principal } from "../../src/auth/policy.ts";
import type { User } from "../../src/auth/users.ts";
import type { ErrorCode } from "../../src/errors.ts";
import { adminKey, allowedActors, keptLog, refusedActors, tempStorage, userActor, type Opened } from "./support.ts";

let opened: Opened;
let deps: AccountsDeps & { log: ReturnType<typeof keptLog> };
let alice: User;
let bob: User;

beforeEach(async () => {
  opened = await tempStorage();
  const s = opened.storage;
  deps = { keys: s.keys, users: s.users, log: keptLog(), now: () => 1_000_000 };
  alice = await s.users.upsert({ source: "header", subject: "alice", name: "alice", email: null }, true, 1, 0);
  bob = await s.users.upsert({ source: "header", subject: "bob", name: "bob", email: null }, false, 1, 0);
});
afterEach(() => opened.dispose());

/** Every actor that may not, with a member user among them (made when the test runs: bob is stored by then). */
const mayNot: [string, () => Principal | null, ErrorCode][] = [...refusedActors.map(([n, a, c]): [string, () => Principal | null, ErrorCode] => [n, () => a, c]), ["a member", () => userActor(bob), "admin_only"]];
/** Every actor that may, with an admin user among them. */
const admins: [string, () => Principal][] = [...allowedActors.map(([n, a]): [string, () => Principal] => [n, () => a]), ["an admin user", () => userActor(alice)]];

describe("keys", () => {
  test.each(allowedActors)("%s makes a key; a user's key takes the user's rights unless told; the name is unique while in use", async (_, actor) => {
    const made = await createKey(actor, { name: "laptop", scope: null, userId: bob.id }, deps);
    expect(made.ok && { scope: made.value.record.scope, user: made.value.user?.name, key: made.value.key.startsWith("sk_") }).toEqual({ scope: "create", user: "bob", key: true });
    const plain = await createKey(actor, { name: "ci", scope: null, userId: null }, deps);
    expect(plain.ok && plain.value.record.scope).toBe("admin");
    const again = await createKey(actor, { name: "laptop", scope: "admin", userId: null }, deps);
    expect(again.ok ? null : again.problem.code).toBe("bad_request");
    expect(deps.log.actions()).toEqual([
      { key: actor.name, action: "key-create", id: "laptop", result: "ok create for bob" },
      { key: actor.name, action: "key-create", id: "ci", result: "ok admin" },
    ]);
  });

  test.each(mayNot)("%s may not make, list or revoke keys", async (_, who, code) => {
    const actor = who();
    await deps.keys.create("kept", "admin", 1);
    const made = await createKey(actor, { name: "mine", scope: "admin", userId: null }, deps);
    const listed = await listKeys(actor, null, deps);
    const revoked = await revokeKey(actor, { name: "kept" }, deps);
    expect([made, listed, revoked].map((o) => (o.ok ? "done" : o.problem.code))).toEqual([code, code, code]);
    expect((await deps.keys.list()).map((k) => [k.name, k.revokedAt])).toEqual([["kept", null]]);
    expect(deps.log.actions()).toEqual([]);
  });

  test("a key for a user that is not there, and a name out of pattern, are refused", async () => {
    const nobody = await createKey(adminKey, { name: "x", scope: null, userId: 999 }, deps);
    const badName = await createKey(adminKey, { name: "no spaces", scope: null, userId: null }, deps);
    expect([nobody, badName].map((o) => (o.ok ? "done" : o.problem.code))).toEqual(["not_found", "bad_request"]);
    expect(await deps.keys.list()).toEqual([]);
  });

  test("the list names each key's user; a revoked key is listed revoked, and revoking it again is not_found", async () => {
    await createKey(OPERATOR, { name: "a", scope: null, userId: alice.id }, deps);
    await createKey(OPERATOR, { name: "b", scope: "create", userId: null }, deps);
    const revoked = await revokeKey(OPERATOR, { name: "b" }, deps);
    expect(revoked.ok).toBe(true);
    const listed = await listKeys(OPERATOR, null, deps);
    expect(listed.ok && listed.value.map((k) => [k.name, k.scope, k.userName, k.revokedAt])).toEqual([["a", "admin", "alice", null], ["b", "create", null, 1_000_000]]);
    const twice = await revokeKey(OPERATOR, { name: "b" }, deps);
    expect(twice.ok ? null : twice.problem.code).toBe("not_found");
  });
});

describe("users", () => {
  test.each(admins)("%s lists, disables, enables and changes the role of users", async (_, who) => {
    const actor = who();
    const listed = await listUsers(actor, null, deps);
    expect(listed.ok && listed.value.map((u) => u.name)).toEqual(["alice", "bob"]);
    const disabled = await setUserDisabled(actor, { userId: bob.id, disabled: true }, deps);
    expect(disabled.ok && disabled.value.disabledAt).toBe(1_000_000);
    const enabled = await setUserDisabled(actor, { userId: bob.id, disabled: false }, deps);
    expect(enabled.ok && enabled.value.disabledAt).toBeNull();
    const promoted = await setUserRole(actor, { userId: bob.id, admin: true }, deps);
    expect(promoted.ok && promoted.value.admin).toBe(true);
    expect(deps.log.actions().map((f) => (f as { action: string }).action)).toEqual(["user-disable", "user-enable", "user-admin"]);
  });

  test.each(mayNot)("%s may not list or change users", async (_, who, code) => {
    const actor = who();
    const outcomes = [
      await listUsers(actor, null, deps),
      await setUserDisabled(actor, { userId: alice.id, disabled: true }, deps),
      await setUserRole(actor, { userId: alice.id, admin: false }, deps),
    ];
    expect(outcomes.map((o) => (o.ok ? "done" : o.problem.code))).toEqual([code, code, code]);
    const stored = await deps.users.byId(alice.id);
    expect([stored?.admin, stored?.disabledAt]).toEqual([true, null]);
  });

  test("a user that is not there is not_found", async () => {
    const outcomes = [await setUserDisabled(OPERATOR, { userId: 999, disabled: true }, deps), await setUserRole(OPERATOR, { userId: 999, admin: true }, deps)];
    expect(outcomes.map((o) => (o.ok ? "done" : o.problem.code))).toEqual(["not_found", "not_found"]);
  });
});
