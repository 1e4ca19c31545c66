// `shortener key create|list|revoke|generate`: API keys from the command line, against the same
// database file as the service (it may be running: WAL lets both write, and the service looks keys
// up on every request, so a revoked key stops working at once). The operator acts through the same
// operations as any surface (src/ops/keys).

import { generateKey, KEY_NAME_PATTERN, SCOPES, type Scope } from "../auth/keys.ts";
import { OPERATOR } from "../auth/policy.ts";
import { createKey } from "../ops/keys/create.ts";
import { listKeys } from "../ops/keys/list.ts";
import { revokeKey } from "../ops/keys/revoke.ts";
import { listUsers } from "../ops/users/list.ts";
import type { AccountsDeps } from "../ops/accounts.ts";
import { oneUser, withAccounts } from "./accounts.ts";
import type { DatabaseLocator } from "./database.ts";
import { COMMAND_LOG, sayProblem } from "./problems.ts";
import { didYouMean } from "./suggest.ts";
import { STDIO, table, when, type Output } from "./table.ts";

const ACTIONS = ["create", "list", "revoke", "generate"];

/** Runs a key subcommand; returns the exit code (2 for a usage error). */
export async function runKeyCommand(database: DatabaseLocator, databasePassword: string | null, args: readonly string[], flags: Record<string, string>, now = Date.now(), io: Output = STDIO): Promise<number> {
  const [action, name, ...extra] = args;
  const usage = (why: string) => {
    io.err(`shortener: ${why} (usage: shortener key create NAME [--scope admin|create] [--user USER] | key list | key revoke NAME | key generate)`);
    return 2;
  };
  if (extra.length > 0) return usage(`unexpected argument ${extra[0]}`);
  if (action === "generate") {
    if (name !== undefined) return usage("key generate takes no name");
    io.out(generateKey());
    io.err("shortener: a random secret, stored nowhere: put it in the file LoadCredential= names (docs/managing-links.md: Managing links)");
    return 0;
  }
  if (action !== "create" && action !== "list" && action !== "revoke") return usage(action === undefined ? "key needs an action" : `unknown key action ${action}${didYouMean(action, ACTIONS)}`);
  if (action !== "create" && flags.scope !== undefined) return usage("--scope belongs to key create");
  if (action !== "create" && flags.user !== undefined) return usage("--user belongs to key create");
  if (action === "list" ? name !== undefined : name === undefined || !KEY_NAME_PATTERN.test(name)) {
    return usage(action === "list" ? "key list takes no name" : "a key name is 1 to 64 letters, digits, dots, hyphens or underscores");
  }
  if (flags.scope !== undefined && !(SCOPES as readonly string[]).includes(flags.scope)) return usage(`--scope must be admin or create, got ${flags.scope}`);

  return withAccounts(database, databasePassword, io, async (accounts, where) => {
    const deps: AccountsDeps = { ...accounts, log: COMMAND_LOG, now: () => now };
    if (action === "create") return create(name!, (flags.scope as Scope | undefined) ?? null, flags.user, deps, io, where);
    if (action === "revoke") {
      const revoked = await revokeKey(OPERATOR, { name: name! }, deps);
      if (!revoked.ok) return sayProblem(revoked.problem, io, where);
      io.err(`shortener: revoked key "${name}" in ${where}`);
      return 0;
    }
    const listed = await listKeys(OPERATOR, null, deps);
    if (!listed.ok) return sayProblem(listed.problem, io, where);
    const state = (revokedAt: number | null) => (revokedAt === null ? "active" : `revoked ${when(revokedAt)}`);
    const rows = listed.value.map((k) => [k.name, k.scope, k.userName ?? "-", when(k.createdAt), when(k.lastUsedAt), state(k.revokedAt)]);
    for (const line of table([["NAME", "SCOPE", "USER", "CREATED", "LAST USED", "STATE"], ...rows])) io.out(line);
    return 0;
  });
}

/** `key create`: the user named on the command line found first (a name or #id), then the key made for them. */
async function create(name: string, scope: Scope | null, userGiven: string | undefined, deps: AccountsDeps, io: Output, where: string): Promise<number> {
  let userId: number | null = null;
  if (userGiven !== undefined) {
    const users = await listUsers(OPERATOR, null, deps);
    if (!users.ok) return sayProblem(users.problem, io, where);
    const user = oneUser(users.value, userGiven, io, where);
    if (user === null) return 1;
    userId = user.id;
  }
  const made = await createKey(OPERATOR, { name, scope, userId }, deps);
  if (!made.ok) return sayProblem(made.problem, io, where);
  io.out(made.value.key);
  io.err(`shortener: created ${made.value.record.scope} key "${name}"${userGiven === undefined ? "" : ` for user ${userGiven}`} in ${where}; this is the only time the key is shown`);
  return 0;
}
