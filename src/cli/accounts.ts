// What the `key` and `user` commands share: the database found and opened for them (and closed
// after, whatever happens), and a user named on the command line.

import { openAccounts } from "../db/open-storage.ts";
import { describeLocation } from "../db/storage.ts";
import { findUsers, type User } from "../auth/users.ts";
import type { DatabaseLocator } from "./database.ts";
import { cannotOpen, writeRefused } from "./permission.ts";
import type { Output } from "./table.ts";

type Accounts = Awaited<ReturnType<typeof openAccounts>>;

/**
 * Runs `work` on the keys and users of the database the command finds (src/cli/database.ts), which
 * it names to `work` by its absolute path; 2 when there is none, 1 when it cannot be opened (said on stderr).
 */
export function withAccounts(database: DatabaseLocator, databasePassword: string | null, io: Output, work: (accounts: Accounts, location: string) => Promise<number>): Promise<number> {
  return withOpened(database, (location) => openAccounts(location, databasePassword), io, work);
}

/**
 * Runs `work` on what `open` opens of the database the command finds (src/cli/database.ts), named
 * to `work` as it may be shown (describeLocation); 2 when there is none, 1 when it cannot be opened
 * or refuses a write (said on stderr, with the permission it lacks), closed whatever happens.
 */
export async function withOpened<T extends { close(): Promise<void> }>(database: DatabaseLocator, open: (location: string) => Promise<T>, io: Output, work: (opened: T, where: string) => Promise<number>): Promise<number> {
  const found = database();
  if (!found.ok) {
    io.err(`shortener: ${found.message}`);
    return found.exitCode;
  }
  let opened: T;
  try {
    opened = await open(found.location);
  } catch (err) {
    io.err(`shortener: ${cannotOpen(found.location, err, "command")}`);
    return 1;
  }
  try {
    return await work(opened, describeLocation(found.location));
  } catch (err) {
    const refused = writeRefused(found.location, err, "command");
    if (refused === null) throw err;
    io.err(`shortener: ${refused}`);
    return 1;
  } finally {
    await opened.close();
  }
}

/** The one user `given` names (a name, or #id), or null when none or several do (said on stderr). */
export function oneUser(users: readonly User[], given: string, io: Output, where: string): User | null {
  const found = findUsers(users, given);
  if (found.length === 1) return found[0]!;
  io.err(found.length === 0
    ? `shortener: no user "${given}" in ${where} (a user appears after their first sign-in; see shortener user list)`
    : `shortener: ${found.length} users are named "${given}"; give the id instead, e.g. #${found[0]!.id}`);
  return null;
}
