// The --help text: the commands, then every flag of the table (flags.ts).

import { FLAGS } from "./flags.ts";

export function helpText(version: string): string {
  const lines = [
    `shortener ${version}: a link shortener with click analytics, in one file.`,
    "",
    "Usage:",
    "  shortener [flags]              run the service",
    "  shortener backup FILE [flags]  write a consistent copy of the database to FILE",
    "  shortener healthcheck          exit 0 if the service at --port/--host answers /health, else 1 (for a container's HEALTHCHECK)",
    "  shortener key create NAME [--scope admin|create] [--user USER]",
    "                                 make an API key (acting as USER: their links); prints the key (only) on stdout, once",
    "  shortener key list             name, scope, created, last used and state of every key",
    "  shortener key revoke NAME      revoke a key (takes effect at once, also while serving)",
    "  shortener key generate         print a random secret for the systemd credential admin-key",
    "  shortener user list            the people who signed in: name, source, admin, last seen, state",
    "  shortener user disable USER    refuse USER everywhere and end their sessions (at once, on every instance)",
    "  shortener user enable USER     let USER in again",
    "  shortener user admin USER      make USER an admin (with an admin group, their next sign-in decides again)",
    "  shortener user member USER     make USER a plain member",
    "  shortener import --from shlink|yourls|kutt|bitly|csv [--visits] [--dry-run] [--on-conflict fail|skip|rename]",
    "                                 links, and with --visits their history, from another shortener (docs/importing.md: Moving from another shortener)",
    "  shortener webhook add URL --events TYPE,… [--link ID] [--tag TAG]",
    "                                 post those events to URL, signed; prints the signing secret (only) on stdout, once",
    "  shortener webhook list         every webhook: events, filter, state, deliveries waiting, the last one",
    "  shortener webhook remove ID    delete a webhook and its delivery log",
    "  shortener webhook enable ID    start a webhook again (after a 410 or a day of failures)",
    "  shortener domain add NAME [--http] [--root-redirect URL] [--not-found-redirect URL] [--fallback-redirect URL] [--robots links|none|all]",
    "                                 add a short domain (without --base-url the first one added is the default)",
    "  shortener domain list          every domain: default, scheme, links, who may create, its own redirects and robots",
    "  shortener domain set NAME [the add flags, --https]   change a domain's settings (\"\" clears one)",
    "  shortener domain rename OLD NEW | domain default NAME",
    "                                 rename a domain (its links' short URLs move with it) | make it the default",
    "  shortener domain remove NAME [--move-links-to OTHER]   remove a domain (refused while it has links, unless they move)",
    "  shortener domain allow NAME --user USER | --key KEY | domain open NAME",
    "                                 only admins and those allowed may create on NAME | everyone may again",
    "  shortener copy --to postgres://USER@HOST/DATABASE | --to FILE.db",
    "                                 copy everything (links, visits, statistics, keys, users, sessions, webhooks) into an empty",
    "                                 database of the other engine, then check that both hold the same (docs/postgresql.md)",
    "  shortener export visits [--link ALIAS | --tag TAG] [--domain NAME] [--from DAY] [--to DAY] [--bots exclude] [--format csv|jsonl]",
    "                  [--output FILE] [--after VISIT_ID]   every visit of those links (default: all) as CSV or JSON lines,",
    "                                 on stdout or into FILE (docs/statistics.md: Exporting visits)",
    "",
    "Flags (each also as SHORTENER_<NAME> in the environment, e.g. SHORTENER_BASE_URL):",
  ];
  // At least one space after the longest name (--allow-loopback-destinations is longer than the column).
  for (const f of FLAGS) lines.push(`  --${(f.name + (f.value ? " VALUE" : "")).padEnd(26)} ${f.help}`);
  return lines.join("\n");
}
