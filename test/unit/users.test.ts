// The rules of src/auth/users.ts that need no database: a name from a provider's claims, groups in
// the forms providers send them, the admin and allowed-group rules, and how a command line names a user.

import { describe, expect, test } from "bun:test";
import { adminOf, allowedIn, findUsers, groupsFromClaim, nameFromClaims, type User } from "../../src/auth/users.ts";

describe("a user's name from the ID token", () => {
  test("preferred_username, else email, else sub", () => {
    expect(nameFromClaims({ sub: "s1", email: "a@example.org", preferred_username: "alice" })).toBe("alice");
    expect(nameFromClaims({ sub: "s1", email: "a@example.org", preferred_username: " " })).toBe("a@example.org");
    expect(nameFromClaims({ sub: "s1" })).toBe("s1");
  });
  test("a claim with control characters (a terminal's escape codes) or of 201 characters is passed over", () => {
    expect(nameFromClaims({ sub: "s1", preferred_username: "evil\u001b[31m" })).toBe("s1");
    expect(nameFromClaims({ sub: "s1", preferred_username: "x".repeat(201), email: "nul\u0000@example.org" })).toBe("s1");
  });
});

test("groups: a list, one name, or a comma-separated string", () => {
  expect(groupsFromClaim(["admins", 3, "staff"])).toEqual(["admins", "staff"]);
  expect(groupsFromClaim("admins, staff")).toEqual(["admins", "staff"]);
  expect(groupsFromClaim(undefined)).toBeNull();
});

test("admin and allowed-group rules", () => {
  expect(adminOf({ groups: ["staff", "admins"] }, { group: "admins" })).toBe(true);
  expect(adminOf({ groups: null }, { group: "admins" })).toBe(false);
  expect(adminOf({ groups: ["admins"] }, "first")).toBe("first");
  expect(allowedIn({ groups: null }, null)).toBe(true);
  expect(allowedIn({ groups: null }, "staff")).toBe(false);
  expect(allowedIn({ groups: ["staff"] }, "staff")).toBe(true);
});

describe("a user named on the command line", () => {
  const user = (id: number, name: string): User => ({ id, name, source: "header", subject: name, email: null, admin: false, createdAt: 0, lastSeenAt: 0, disabledAt: null });
  const users = [user(1, "alice"), user(2, "3"), user(3, "bob"), user(4, "alice")];
  test("#N is always the id, never a name", () => {
    expect(findUsers(users, "#3").map((u) => u.id)).toEqual([3]);
  });
  test("a name finds every user of that name (two alices are ambiguous)", () => {
    expect(findUsers(users, "alice").map((u) => u.id)).toEqual([1, 4]);
  });
  test("a bare number that is both a name and an id names both: the command refuses it as ambiguous", () => {
    expect(findUsers(users, "3").map((u) => u.id)).toEqual([2, 3]);
    expect(findUsers(users, "1").map((u) => u.id)).toEqual([1]);
    expect(findUsers(users, "carol")).toEqual([]);
  });
});
