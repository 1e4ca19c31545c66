// Who may create on a domain, and a domain's settings as a client gives them (src/domains/rules.ts;
// docs/several-domains.md: Who may create on a domain).

import { expect, test } from "bun:test";
import { checkedSettings, mayCreateOn, withCreator } from "../../src/domains/rules.ts";
import type { Principal } from "../../src/auth/policy.ts";
import type { User } from "../../src/auth/users.ts";

const user = (id: number) => ({ id, name: `u${id}` }) as User;
const member = (id: number, keyId: number | null = null): Principal => ({ keyId, user: user(id), name: `u${id}`, scope: "create", via: keyId === null ? "session" : "key" });
const key = (keyId: number): Principal => ({ keyId, user: null, name: `k${keyId}`, scope: "create", via: "key" });
const admin: Principal = { keyId: 9, user: null, name: "admin", scope: "admin", via: "key" };

test("an open domain takes every creator, a public create too; a restricted one admins and those it lists (a user's key as its user)", () => {
  const restricted = { creators: { users: [1], keys: [7] } };
  const table: [string, { creators: { users: number[]; keys: number[] } | null }, Principal | null, boolean][] = [
    ["open, anonymous", { creators: null }, null, true],
    ["open, member", { creators: null }, member(2), true],
    ["restricted, anonymous", restricted, null, false],
    ["restricted, admin", restricted, admin, true],
    ["restricted, listed user", restricted, member(1), true],
    ["restricted, listed user's key", restricted, member(1, 40), true],
    ["restricted, other user", restricted, member(2), false],
    ["restricted, other user's listed key", restricted, member(2, 7), true],
    ["restricted, listed key", restricted, key(7), true],
    ["restricted, other key", restricted, key(8), false],
    ["restricted to nobody, member", { creators: { users: [], keys: [] } }, member(1), false],
  ];
  for (const [name, domain, who, allowed] of table) expect([name, mayCreateOn(domain, who)]).toEqual([name, allowed]);
});

test("settings are checked as the instance's flags are, every problem at once; null clears", () => {
  expect(checkedSettings({ https: false, rootRedirect: " https://example.com/home ", notFoundRedirect: null, robots: "none", creators: { users: [3, 3], keys: [] } })).toEqual({
    ok: true,
    settings: { https: false, rootRedirect: "https://example.com/home", notFoundRedirect: null, robots: "none", creators: { users: [3], keys: [] } },
  });
  expect(checkedSettings({ fallbackRedirect: "", robots: null, creators: null })).toEqual({ ok: true, settings: { fallbackRedirect: null, robots: null, creators: null } });
  const bad = checkedSettings({ https: "yes", rootRedirect: "javascript:alert(1)", notFoundRedirect: "not a url", fallbackRedirect: 3, robots: "some", creators: { users: [0], admins: [] } });
  expect(bad.ok).toBe(false);
  if (!bad.ok) expect(bad.problems.map((p) => p.field)).toEqual(["https", "rootRedirect", "notFoundRedirect", "fallbackRedirect", "robots", "creators"]);
});

test("allowing one more user or key restricts an open domain to it, and lists each once", () => {
  expect(withCreator(null, { user: 4 })).toEqual({ users: [4], keys: [] });
  expect(withCreator({ users: [4], keys: [1] }, { user: 4 })).toEqual({ users: [4], keys: [1] });
  expect(withCreator({ users: [4], keys: [1] }, { key: 2 })).toEqual({ users: [4], keys: [1, 2] });
});
