// Users (the UserRepository port of src/auth/users.ts) on both engines: created on first sign-in
// and brought up to date after, the first user an admin only under the "first" rule and only once
// however many sign in at the same moment, written only when something changed, and a disable that
// deletes the user's sessions in the same transaction.

import { expect, test } from "bun:test";
import { forEachEngine, NOW } from "../support/contract-suite.ts";
import { HEADER_SOURCE } from "../../src/auth/users.ts";

const HOUR = 3_600_000;
const who = (name: string, source = "https://id.example.org") => ({ source, subject: `sub-${name}`, name, email: `${name}@example.org` });

forEachEngine("users", (db) => {
  test("the first user is the admin under the first rule, once, even when eight sign in at the same moment", async () => {
    const users = db().adapters.users;
    const created = await Promise.all(["a", "b", "c", "d", "e", "f", "g", "h"].map((n) => users.upsert(who(n), "first", NOW, HOUR)));
    expect(created.filter((u) => u.admin)).toHaveLength(1);
    // A known user keeps their flag under the first rule; a group rule sets it either way.
    const admin = created.find((u) => u.admin)!;
    expect((await users.upsert(who(admin.name), "first", NOW + 1, HOUR)).admin).toBe(true);
    expect((await users.upsert(who(admin.name), false, NOW + 2, HOUR)).admin).toBe(false);
    expect((await users.upsert(who("b"), true, NOW + 3, HOUR)).admin).toBe(true);
  });

  test("keyed by source and subject: the same name from a proxy is another user; name and email follow the provider", async () => {
    const users = db().adapters.users;
    const first = await users.upsert(who("alice"), "first", NOW, HOUR);
    const proxied = await users.upsert(who("alice", HEADER_SOURCE), "first", NOW, HOUR);
    expect(proxied.id).not.toBe(first.id);
    const renamed = await users.upsert({ ...who("alice"), name: "alice.smith", email: null }, "first", NOW + 1, HOUR);
    expect(renamed).toMatchObject({ id: first.id, name: "alice.smith", email: null });
    expect((await users.list()).map((u) => u.name)).toEqual(["alice.smith", "alice"]);
  });

  test("nothing changed and seen within the hour: no write (last seen stays); an hour later it is written", async () => {
    const users = db().adapters.users;
    await users.upsert(who("carol"), "first", NOW, HOUR);
    expect((await users.upsert(who("carol"), "first", NOW + HOUR - 1, HOUR)).lastSeenAt).toBe(NOW);
    expect((await users.upsert(who("carol"), "first", NOW + HOUR, HOUR)).lastSeenAt).toBe(NOW + HOUR);
  });

  test("disabling deletes the user's sessions, not others'; enabling clears the mark", async () => {
    const { users, sessions } = db().storage;
    const dave = await users.upsert(who("dave"), "first", NOW, HOUR);
    const erin = await users.upsert(who("erin"), "first", NOW, HOUR);
    const daves = await sessions.start({ userId: dave.id }, NOW);
    const erins = await sessions.start({ userId: erin.id }, NOW);
    expect(await users.setDisabled(dave.id, NOW + 5)).toBe(true);
    expect(await sessions.find(daves, NOW + 6)).toBeNull();
    expect(await sessions.find(erins, NOW + 6)).toMatchObject({ userId: erin.id });
    expect((await users.byId(dave.id))!.disabledAt).toBe(NOW + 5);
    expect(await users.setDisabled(dave.id, null)).toBe(true);
    expect((await users.byId(dave.id))!.disabledAt).toBeNull();
    expect(await users.setDisabled(999_999, NOW)).toBe(false);
    expect(await users.setAdmin(erin.id, true)).toBe(true);
    expect((await users.byId(erin.id))!.admin).toBe(true);
  });
});
