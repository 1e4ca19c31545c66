// What the `key` and `user` commands share: the database opened for them (and closed after,
// whatever happens), and a user named on the command line.

import { openAccounts } from "../db/open-storage.ts";
import { describeLocation } from "../db/storage.ts";
import { findUsers, type User } from "../auth/users.ts";
import type { Output } from "./table.ts";

type Accounts = Awaited<ReturnType<typeof openAccounts>>;

/** Runs `work` on the keys and users of the database; 1 when it cannot be opened (said on stderr). */
export async function withAccounts(dbPath: string, databasePassword: string | null, io: Output, work: (accounts: Accounts) => Promise<number>): Promise<number> {
  let opened: Accounts;
  try {
    opened = await openAccounts(dbPath, databasePassword);
  } catch (err) {
    io.err(`shortener: cannot open database ${describeLocation(dbPath)}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  try {
    return await work(opened);
  } finally {
    await opened.close();
  }
}

/** The one user `given` names (a name, or #id), or null when none or several do (said on stderr). */
export function oneUser(users: readonly User[], given: string, io: Output): User | null {
  const found = findUsers(users, given);
  if (found.length === 1) return found[0]!;
  io.err(found.length === 0
    ? `shortener: no user "${given}" (a user appears after their first sign-in; see shortener user list)`
    : `shortener: ${found.length} users are named "${given}"; give the id instead, e.g. #${found[0]!.id}`);
  return null;
}
