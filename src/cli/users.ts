// `shortener user list|disable|enable|admin|member`: the people who signed in, from the command
// line, against the same database as the service, through the same operations as any surface
// (src/ops/users). Sessions and proxy sign-ins are looked up in the database on every request, so
// a disable takes effect at once on every instance.

import { sourceLabel } from "../auth/users.ts";
import { OPERATOR } from "../auth/policy.ts";
import { listUsers } from "../ops/users/list.ts";
import { setUserDisabled } from "../ops/users/disable.ts";
import { setUserRole } from "../ops/users/role.ts";
import type { AccountsDeps } from "../ops/accounts.ts";
import { oneUser, withAccounts } from "./accounts.ts";
import type { DatabaseLocator } from "./database.ts";
import { COMMAND_LOG, sayProblem } from "./problems.ts";
import { didYouMean } from "./suggest.ts";
import { STDIO, table, when, type Output } from "./table.ts";

const ACTIONS = ["list", "disable", "enable", "admin", "member"] as const;

/** Runs a user subcommand; returns the exit code (2 for a usage error). */
export async function runUserCommand(database: DatabaseLocator, databasePassword: string | null, args: readonly string[], now = Date.now(), io: Output = STDIO): Promise<number> {
  const [action, given, ...extra] = args;
  const usage = (why: string) => {
    io.err(`shortener: ${why} (usage: shortener user list | user disable USER | user enable USER | user admin USER | user member USER)`);
    return 2;
  };
  if (extra.length > 0) return usage(`unexpected argument ${extra[0]}`);
  if (!(ACTIONS as readonly (string | undefined)[]).includes(action)) return usage(action === undefined ? "user needs an action" : `unknown user action ${action}${didYouMean(action, ACTIONS)}`);
  if (action === "list" ? given !== undefined : given === undefined) return usage(action === "list" ? "user list takes no name" : `user ${action} needs a user's name (or #id)`);

  return withAccounts(database, databasePassword, io, async (accounts, where) => {
    const deps: AccountsDeps = { ...accounts, log: COMMAND_LOG, now: () => now };
    const users = await listUsers(OPERATOR, null, deps);
    if (!users.ok) return sayProblem(users.problem, io, where);
    if (action === "list") {
      const state = (at: number | null) => (at === null ? "active" : `disabled ${when(at)}`);
      const rows = users.value.map((u) => [`#${u.id}`, u.name, sourceLabel(u.source), u.email ?? "-", u.admin ? "admin" : "member", when(u.lastSeenAt), state(u.disabledAt)]);
      for (const line of table([["ID", "NAME", "SOURCE", "EMAIL", "ROLE", "LAST SEEN", "STATE"], ...rows])) io.out(line);
      return 0;
    }
    const user = oneUser(users.value, given!, io, where);
    if (user === null) return 1;
    if (action === "disable" || action === "enable") {
      const changed = await setUserDisabled(OPERATOR, { userId: user.id, disabled: action === "disable" }, deps);
      if (!changed.ok) return sayProblem(changed.problem, io, where);
      io.err(action === "disable" ? `shortener: disabled ${user.name} in ${where}; their sessions have ended and their keys are refused` : `shortener: enabled ${user.name} in ${where}`);
      return 0;
    }
    const changed = await setUserRole(OPERATOR, { userId: user.id, admin: action === "admin" }, deps);
    if (!changed.ok) return sayProblem(changed.problem, io, where);
    io.err(`shortener: ${user.name} is now ${action === "admin" ? "an admin" : "a member"} in ${where}`);
    return 0;
  });
}
