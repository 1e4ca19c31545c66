// `shortener domain add|list|set|rename|default|remove|allow|open`: the domains from the command line
// (docs/several-domains.md: Managing domains), against the same database as the service, through
// the same operations as the API. A running service hears of a change within 10 s (its directory
// is read again when a request finds it older: src/domains/directory.ts); on PostgreSQL a change
// that moves links tells every instance's link cache at once.

import { openStorage } from "../db/open-storage.ts";
import type { Storage } from "../db/storage.ts";
import { OPERATOR } from "../auth/policy.ts";
import type { Config } from "../config.ts";
import { baseHostOf } from "../domains/domain.ts";
import type { DomainsDeps } from "../ops/domains/access.ts";
import { addDomain } from "../ops/domains/add.ts";
import { changeDomain } from "../ops/domains/change.ts";
import { allowOnDomain, openDomain } from "../ops/domains/creators.ts";
import { listDomains, type ListedDomain } from "../ops/domains/list.ts";
import { removeDomain } from "../ops/domains/remove.ts";
import { listKeys } from "../ops/keys/list.ts";
import { listUsers } from "../ops/users/list.ts";
import type { Outcome } from "../ops/outcome.ts";
import { oneUser, withOpened } from "./accounts.ts";
import type { DatabaseLocator } from "./database.ts";
import { COMMAND_LOG, sayProblem } from "./problems.ts";
import { didYouMean } from "./suggest.ts";
import { STDIO, table, type Output } from "./table.ts";

const ACTIONS = ["add", "list", "set", "rename", "default", "remove", "allow", "open"];
const USAGE =
  "usage: shortener domain add NAME [--http] [--root-redirect URL] [--not-found-redirect URL] [--fallback-redirect URL] [--robots links|none|all] | domain list | domain set NAME [same flags, --https] | domain rename OLD NEW | domain default NAME | domain remove NAME [--move-links-to OTHER] | domain allow NAME --user USER | --key KEY | domain open NAME";
/** How many names each action takes, and the flags it accepts. */
const SHAPE: Record<string, { names: number; flags: string[] }> = {
  add: { names: 1, flags: ["http", "root-redirect", "not-found-redirect", "fallback-redirect", "robots"] },
  list: { names: 0, flags: [] },
  set: { names: 1, flags: ["http", "https", "root-redirect", "not-found-redirect", "fallback-redirect", "robots"] },
  rename: { names: 2, flags: [] },
  default: { names: 1, flags: [] },
  remove: { names: 1, flags: ["move-links-to"] },
  allow: { names: 1, flags: ["user", "key"] },
  open: { names: 1, flags: [] },
};

/** Runs a domain subcommand; returns the exit code (2 for a usage error). */
export async function runDomainCommand(config: Config, database: DatabaseLocator, databasePassword: string | null, args: readonly string[], flags: Record<string, string>, io: Output = STDIO): Promise<number> {
  const [action, ...names] = args;
  const usage = (why: string) => {
    io.err(`shortener: ${why} (${USAGE})`);
    return 2;
  };
  const shape = action === undefined ? undefined : SHAPE[action];
  if (shape === undefined) return usage(action === undefined ? "domain needs an action" : `unknown domain action ${action}${didYouMean(action, ACTIONS)}`);
  if (names.length !== shape.names) return usage(`domain ${action} takes ${shape.names === 0 ? "no name" : shape.names === 1 ? "one name" : "two names"}`);
  const stray = Object.keys(flags).find((f) => !shape.flags.includes(f));
  if (stray !== undefined) return usage(`--${stray} does not belong to domain ${action}`);
  if (flags.http !== undefined && flags.https !== undefined) return usage("--http and --https contradict each other");
  if (action === "allow" && (flags.user === undefined) === (flags.key === undefined)) return usage("domain allow needs --user USER or --key KEY (one of them)");

  return withOpened(database, (location) => openStorage(location, { busyTimeoutMs: 5_000, password: databasePassword }), io, (storage, where) => {
    // The directory of a command: nothing to read again (the service reads the domains within 10 s).
    const deps: DomainsDeps = { domains: storage.domains, directory: { reload: () => {}, all: () => [] }, links: storage.links, baseHost: baseHostOf(config.baseUrl), log: COMMAND_LOG, now: Date.now };
    return act(action!, names, flags, { deps, storage, io, where });
  });
}

type Context = { deps: DomainsDeps; storage: Storage; io: Output; where: string };

async function act(action: string, names: string[], flags: Record<string, string>, c: Context): Promise<number> {
  const [name, other] = names as [string, string];
  if (action === "list") return list(c);
  if (action === "allow") {
    const who = await creator(flags, c);
    return who === null ? 1 : said(await allowOnDomain(OPERATOR, { name, who }, c.deps), c, (d) => `${"user" in who ? `user ${flags.user}` : `key ${flags.key}`} may now create links on ${d.name} (besides admins${d.creators!.users.length + d.creators!.keys.length > 1 ? " and the others allowed" : ""})`);
  }
  if (action === "open") return said(await openDomain(OPERATOR, { name }, c.deps), c, (d) => `${d.name} is open to every creator again`);
  if (action === "remove") {
    const removed = await removeDomain(OPERATOR, { name, moveLinksTo: flags["move-links-to"] ?? null }, c.deps);
    return said(removed, c, (r) => `removed ${r.name}${r.linksMoved > 0 ? ` after moving its ${r.linksMoved} link(s) to ${flags["move-links-to"]}` : ""}`);
  }
  if (action === "rename") return said(await changeDomain(OPERATOR, { name, fields: { name: other } }, c.deps), c, (d) => `${name} is now ${d.name}; its links' short URLs moved with it`);
  if (action === "default") return said(await changeDomain(OPERATOR, { name, fields: { isDefault: true } }, c.deps), c, (d) => `${d.name} is now the default domain`);
  const settings = settingsOf(flags);
  if (action === "add") return said(await addDomain(OPERATOR, { fields: { name, ...settings } }, c.deps), c, (d) => `added ${d.name}${d.isDefault ? " (the default domain: every link made without a domain is its)" : ""}`);
  return said(await changeDomain(OPERATOR, { name, fields: settings }, c.deps), c, (d) => `changed ${d.name}`);
}

/** The settings the flags give, as the API names them ("" clears one: the instance's flag again). */
function settingsOf(flags: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (flags.http !== undefined) out.https = false;
  if (flags.https !== undefined) out.https = true;
  const text = (flag: string, field: string) => {
    if (flags[flag] !== undefined) out[field] = flags[flag] === "" ? null : flags[flag];
  };
  text("root-redirect", "rootRedirect");
  text("not-found-redirect", "notFoundRedirect");
  text("fallback-redirect", "fallbackRedirect");
  text("robots", "robots");
  return out;
}

/** The user or key --user / --key names, or null (said on stderr). */
async function creator(flags: Record<string, string>, c: Context): Promise<{ user: number } | { key: number } | null> {
  const accounts = { keys: c.storage.keys, users: c.storage.users, log: COMMAND_LOG, now: Date.now };
  if (flags.user !== undefined) {
    const users = await listUsers(OPERATOR, null, accounts);
    const user = users.ok ? oneUser(users.value, flags.user, c.io, c.where) : null;
    return user === null ? null : { user: user.id };
  }
  const keys = await listKeys(OPERATOR, null, accounts);
  const key = keys.ok ? keys.value.find((k) => k.name === flags.key && k.revokedAt === null) : undefined;
  if (key === undefined) c.io.err(`shortener: no active key "${flags.key}" in ${c.where} (see shortener key list)`);
  return key === undefined ? null : { key: key.id };
}

async function list(c: Context): Promise<number> {
  const listed = await listDomains(OPERATOR, null, c.deps);
  if (!listed.ok) return sayProblem(listed.problem, c.io, c.where);
  if (listed.value.length === 0) c.io.err(`shortener: no domains in ${c.where}: the service answers under any host (add one with shortener domain add NAME)`);
  else for (const line of table([["NAME", "DEFAULT", "SCHEME", "LINKS", "CREATORS", "ROOT", "NOT FOUND", "FALLBACK", "ROBOTS"], ...listed.value.map(row)])) c.io.out(line);
  return 0;
}

function row(d: ListedDomain): string[] {
  const creators = d.creators === null ? "everyone" : `users ${d.creators.users.join(",") || "-"} keys ${d.creators.keys.join(",") || "-"}`;
  return [d.name, d.isDefault ? "yes" : "-", d.https ? "https" : "http", d.links === null ? "-" : String(d.links), creators, d.rootRedirect ?? "-", d.notFoundRedirect ?? "-", d.fallbackRedirect ?? "-", d.robots ?? "-"];
}

/** Says what was done on stderr (exit 0), or the problem (exit 1). */
function said<T>(outcome: Outcome<T>, c: Context, what: (value: T) => string): number {
  if (!outcome.ok) return sayProblem(outcome.problem, c.io, c.where);
  c.io.err(`shortener: ${what(outcome.value)}, in ${c.where}`);
  return 0;
}
