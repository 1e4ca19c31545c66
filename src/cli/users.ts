// `shortener user list|disable|enable|admin|member`: the people who signed in, from the command
// line, against the same database as the service. Sessions and proxy sign-ins are looked up in the
// database on every request, so a disable takes effect at once on every instance.

import { openAccounts } from "../db/open-storage.ts";
import { describeLocation } from "../db/storage.ts";
import { findUsers, sourceLabel } from "../auth/users.ts";
import { STDIO, table, when, type Output } from "./table.ts";

const ACTIONS = ["list", "disable", "enable", "admin", "member"] as const;

/** Runs a user subcommand; returns the exit code (2 for a usage error). */
export async function runUserCommand(dbPath: string, databasePassword: string | null, args: readonly string[], now = Date.now(), io: Output = STDIO): Promise<number> {
  const [action, given, ...extra] = args;
  const usage = (why: string) => {
    io.err(`shortener: ${why} (usage: shortener user list | user disable USER | user enable USER | user admin USER | user member USER)`);
    return 2;
  };
  if (extra.length > 0) return usage(`unexpected argument ${extra[0]}`);
  if (!(ACTIONS as readonly (string | undefined)[]).includes(action)) return usage(action === undefined ? "user needs an action" : `unknown user action ${action}`);
  if (action === "list" ? given !== undefined : given === undefined) return usage(action === "list" ? "user list takes no name" : `user ${action} needs a user's name (or #id)`);

  let opened;
  try {
    opened = await openAccounts(dbPath, databasePassword);
  } catch (err) {
    io.err(`shortener: cannot open database ${describeLocation(dbPath)}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  try {
    const users = await opened.users.list();
    if (action === "list") {
      const state = (at: number | null) => (at === null ? "active" : `disabled ${when(at)}`);
      const rows = users.map((u) => [`#${u.id}`, u.name, sourceLabel(u.source), u.email ?? "-", u.admin ? "admin" : "member", when(u.lastSeenAt), state(u.disabledAt)]);
      for (const line of table([["ID", "NAME", "SOURCE", "EMAIL", "ROLE", "LAST SEEN", "STATE"], ...rows])) io.out(line);
      return 0;
    }
    const found = findUsers(users, given!);
    if (found.length !== 1) {
      io.err(found.length === 0 ? `shortener: no user "${given}" (see shortener user list)` : `shortener: ${found.length} users are named "${given}"; give the id instead, e.g. #${found[0]!.id}`);
      return 1;
    }
    const user = found[0]!;
    if (action === "disable" || action === "enable") {
      await opened.users.setDisabled(user.id, action === "disable" ? now : null);
      io.err(action === "disable" ? `shortener: disabled ${user.name}; their sessions have ended and their keys are refused` : `shortener: enabled ${user.name}`);
      return 0;
    }
    await opened.users.setAdmin(user.id, action === "admin");
    io.err(`shortener: ${user.name} is now ${action === "admin" ? "an admin" : "a member"}`);
    return 0;
  } finally {
    await opened.close();
  }
}
