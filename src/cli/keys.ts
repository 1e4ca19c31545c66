// `shortener key create|list|revoke|generate`: API keys from the command line, against the same
// database file as the service (it may be running: WAL lets both write, and the service looks keys
// up on every request, so a revoked key stops working at once).

import { generateKey, KEY_NAME_PATTERN, KeyNameTakenError, SCOPES, type Scope } from "../auth/keys.ts";
import { oneUser, withAccounts } from "./accounts.ts";
import type { DatabaseLocator } from "./database.ts";
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
  // A user's key takes the user's rights unless told otherwise: their scripts see what their browser sees.
  let scope = flags.scope ?? "admin";
  if (!(SCOPES as readonly string[]).includes(scope)) return usage(`--scope must be admin or create, got ${scope}`);

  return withAccounts(database, databasePassword, io, async ({ keys, users }, where) => {
    if (action === "create") {
      let userId: number | null = null;
      if (flags.user !== undefined) {
        const user = oneUser(await users.list(), flags.user, io, where);
        if (user === null) return 1;
        userId = user.id;
        if (flags.scope === undefined) scope = user.admin ? "admin" : "create";
      }
      try {
        const { key } = await keys.create(name!, scope as Scope, now, userId);
        io.out(key);
        io.err(`shortener: created ${scope} key "${name}"${flags.user === undefined ? "" : ` for user ${flags.user}`} in ${where}; this is the only time the key is shown`);
        return 0;
      } catch (err) {
        if (err instanceof KeyNameTakenError) {
          io.err(`shortener: a key named "${name}" exists; revoke it first or choose another name`);
          return 1;
        }
        throw err;
      }
    }
    if (action === "revoke") {
      if (!(await keys.revoke(name!, now))) {
        io.err(`shortener: no key in use named "${name}" in ${where}`);
        return 1;
      }
      io.err(`shortener: revoked key "${name}" in ${where}`);
      return 0;
    }
    const rows = await keys.list();
    const userNames = new Map((await users.list()).map((u) => [u.id, u.name]));
    const state = (revokedAt: number | null) => (revokedAt === null ? "active" : `revoked ${when(revokedAt)}`);
    const user = (id: number | null) => (id === null ? "-" : (userNames.get(id) ?? `#${id}`));
    for (const line of table([["NAME", "SCOPE", "USER", "CREATED", "LAST USED", "STATE"], ...rows.map((k) => [k.name, k.scope, user(k.userId), when(k.createdAt), when(k.lastUsedAt), state(k.revokedAt)])])) io.out(line);
    return 0;
  });
}
