// Who may create on a domain (src/domains/rules.ts): open domains take every creator, anonymous
// ones included; a restricted one admins and the users and keys it names, nobody else.

import { expect, test } from "bun:test";
import { mayCreateOn } from "../../src/domains/rules.ts";
import type { Principal } from "../../src/auth/policy.ts";
import type { User } from "../../src/auth/users.ts";

const user = (id: number) => ({ id, name: `u${id}` }) as User;
const keyOf = (keyId: number, scope: "admin" | "create" = "create", owner: User | null = null): Principal => ({ keyId, user: owner, name: `k${keyId}`, scope, via: "key" });
const session = (u: User, scope: "admin" | "create" = "create"): Principal => ({ keyId: null, user: u, name: u.name, scope, via: "session" });
const restricted = { creators: { users: [2], keys: [5] } };

test("an open domain: everyone, anonymous creates too", () => {
  for (const who of [null, keyOf(1), session(user(9))]) expect(mayCreateOn({ creators: null }, who)).toBe(true);
});

test("a restricted domain: admins, the named users (with their keys) and keys; nobody else", () => {
  expect(mayCreateOn(restricted, keyOf(1, "admin"))).toBe(true);
  expect(mayCreateOn(restricted, session(user(3), "admin"))).toBe(true);
  expect(mayCreateOn(restricted, session(user(2)))).toBe(true);
  expect(mayCreateOn(restricted, keyOf(7, "create", user(2)))).toBe(true);
  expect(mayCreateOn(restricted, keyOf(5))).toBe(true);
  expect(mayCreateOn(restricted, keyOf(6))).toBe(false);
  expect(mayCreateOn(restricted, session(user(3)))).toBe(false);
  expect(mayCreateOn(restricted, null)).toBe(false);
  expect(mayCreateOn({ creators: { users: [], keys: [] } }, keyOf(5))).toBe(false);
});
