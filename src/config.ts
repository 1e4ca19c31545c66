// Flags and SHORTENER_* environment variables, read once at start into one frozen Config.
// A bad value never starts a half-configured service: it is a ConfigError, and main exits 2.

import { dirname, join, resolve } from "node:path";
import { describeLocation, engineOf } from "./db/storage.ts";
import { parseTrustedProxies } from "./visits/client-ip.ts";
import { isLoopbackUrl, type OidcConfig } from "./auth/oidc.ts";
import { didYouMean } from "./cli/suggest.ts";
import { probeFile } from "./cli/database.ts";
import type { HeaderIdentityConfig } from "./auth/header-identity.ts";

export type LogFormat = "text" | "json";
/** Who may create links, or read statistics: anyone (the spec's basic usage), or key holders only. */
export type Access = "public" | "key";

export type Config = Readonly<{
  port: number;
  host: string;
  /** SQLite file (default ./shortener.db, or $STATE_DIRECTORY/shortener.db under systemd), or a postgres:// URL. */
  dbPath: string;
  /** Public base URL, no trailing slash; null = derive from each request's Host. */
  baseUrl: string | null;
  /** Raw --trust-proxy value (IPs/CIDRs, comma-separated); "" = trust nobody. */
  trustProxy: string;
  /** A user's own .mmdb instead of the embedded GeoLite2 Country database. */
  geoipDb: string | null;
  /** Creates per minute per client address without a key; 0 = no limit. */
  createRateLimit: number;
  createAccess: Access;
  statsAccess: Access;
  /** Destinations refused and blocked (docs/redirect-rules.md: Blocklist); null = none. */
  blocklist: string | null;
  /** Who may read /metrics without an admin key: IPs/CIDRs, loopback, private; "off" = nobody. */
  metricsAllow: string;
  /** Destinations on localhost, loopback, unspecified and link-local addresses accepted (docs/security.md: Security). */
  allowLoopbackDestinations: boolean;
  /** Webhooks may post to loopback, private and link-local addresses (docs/webhooks.md: Webhooks). */
  webhookAllowPrivate: boolean;
  /** The dashboard's import may connect to loopback, private, link-local and other special-purpose addresses (docs/importing.md: Moving from another shortener). */
  importAllowPrivate: boolean;
  /** Where `/` sends visitors instead of the public form; null = the form. */
  rootRedirect: string | null;
  /** Where an unknown (or not yet valid) short link sends visitors instead of the 404 page; null = the page. */
  notFoundRedirect: string | null;
  logFormat: LogFormat;
  /** Sign-in through an OpenID provider (docs/sign-in.md: Signing in); the client secret is not here, main reads it. */
  oidc: Omit<OidcConfig, "clientSecret"> | null;
  /** The dashboard's key form is off: people sign in through the provider (keys still work as bearer keys). */
  oidcOnly: boolean;
  /** Identities an auth proxy or `tailscale serve` puts in headers; null = none believed. */
  authHeader: HeaderIdentityConfig | null;
}>;

export class ConfigError extends Error {}

type Flag = {
  name: string;
  value: boolean; // takes a value (vs. a switch like --help)
  help: string;
  /** only valid with this command (e.g. --scope with `key create`) */
  command?: string;
};

export const FLAGS: readonly Flag[] = [
  { name: "port", value: true, help: "TCP port to listen on (default 8080; 0 picks a free one)" },
  { name: "host", value: true, help: "address to listen on (default 0.0.0.0)" },
  { name: "db", value: true, help: "SQLite file (the service makes ./shortener.db, or $STATE_DIRECTORY/shortener.db; commands find an existing one), or postgres://user@host/database for several instances" },
  { name: "base-url", value: true, help: "public URL of the service, e.g. https://s.example.org (default: from the Host header)" },
  { name: "trust-proxy", value: true, help: "comma-separated IPs/CIDRs of reverse proxies whose X-Forwarded-* headers are believed (default: none)" },
  { name: "geoip-db", value: true, help: "path to your own GeoLite2/GeoIP2 Country or City .mmdb (default: the embedded GeoLite2 Country)" },
  { name: "create-rate-limit", value: true, help: "link creations per minute per client address without a key, 0 = off (default 60)" },
  { name: "create-access", value: true, help: "who may create links: public or key (default public)" },
  { name: "stats-access", value: true, help: "who may read statistics: public or key (the link's owner key or an admin key; default public)" },
  { name: "blocklist", value: true, help: "file of blocked domains and /regex/ entries, one a line (reloaded on SIGHUP or change)" },
  { name: "metrics-allow", value: true, help: "addresses that may read /metrics without an admin key: IPs/CIDRs, loopback, private, or off (default loopback)" },
  { name: "allow-loopback-destinations", value: false, help: "accept links to localhost, loopback and link-local addresses (refused by default; private LAN addresses are always accepted)" },
  { name: "webhook-allow-private", value: false, help: "let webhooks post to loopback, private (LAN) and link-local addresses, e.g. Home Assistant or n8n at home (refused by default)" },
  { name: "import-allow-private", value: false, help: "let the dashboard's import reach loopback, private (LAN) and link-local addresses, e.g. a Shlink or YOURLS database on this host (refused by default; `shortener import` always may)" },
  { name: "root-redirect", value: true, help: "an http(s) URL that / redirects to instead of showing the public form" },
  { name: "not-found-redirect", value: true, help: "an http(s) URL that unknown short links redirect to instead of the not-found page" },
  { name: "log-format", value: true, help: "text or json (default text)" },
  { name: "oidc-issuer", value: true, help: "sign in through this OpenID provider (https, or http on loopback); needs --base-url and --oidc-client-id" },
  { name: "oidc-client-id", value: true, help: "the client id registered at the provider (the secret: $CREDENTIALS_DIRECTORY/oidc-client-secret or SHORTENER_OIDC_CLIENT_SECRET)" },
  { name: "oidc-admin-group", value: true, help: "members of this group are admins (default: the first user to sign in)" },
  { name: "oidc-allowed-group", value: true, help: "only members of this group may sign in (default: everyone the provider lets through)" },
  { name: "oidc-groups-claim", value: true, help: "the claim that lists a user's groups (default groups)" },
  { name: "oidc-name", value: true, help: "the provider's name on the sign-in button (default: the issuer's host)" },
  { name: "oidc-only", value: false, help: "the dashboard signs in through the provider only (no pasted keys; bearer keys still work for scripts)" },
  { name: "auth-header", value: true, help: "believe an auth proxy's user header from --trust-proxy peers (e.g. Remote-User), or tailscale (Tailscale-User-Login from loopback)" },
  { name: "auth-groups-header", value: true, help: "the proxy's groups header, separated by commas or | (default Remote-Groups)" },
  { name: "auth-email-header", value: true, help: "the proxy's email header (default Remote-Email)" },
  { name: "auth-admin-group", value: true, help: "members of this proxy group are admins (default: the first user there was)" },
  { name: "auth-allowed-group", value: true, help: "only members of this proxy group are let in (default: every user the proxy names)" },
  { name: "help", value: false, help: "show this help and exit" },
  { name: "version", value: false, help: "print the version and exit" },
  { name: "scope", value: true, help: "admin (every link) or create (creates links, sees only its own); default admin, or the user's own with --user", command: "key" },
  { name: "user", value: true, help: "with key create: the user the key acts as (their links); a name from `shortener user list`", command: "key" },
  { name: "from", value: true, help: "import: the source, shlink, yourls, kutt, bitly or csv (docs/importing.md: Moving from another shortener)", command: "import" },
  { name: "url", value: true, help: "import from shlink or kutt: where it answers, e.g. https://s.example.org (bitly: its API, default https://api-ssl.bitly.com)", command: "import" },
  { name: "api-key-file", value: true, help: "import from shlink or kutt: a file holding its API key (or SHLINK_API_KEY, KUTT_API_KEY)", command: "import" },
  { name: "source-db", value: true, help: "import from yourls: its database, mysql://user@host:3306/yourls (read only; the password in YOURLS_DB_PASSWORD)", command: "import" },
  { name: "prefix", value: true, help: "import from yourls: its table prefix (default yourls_)", command: "import" },
  { name: "token-file", value: true, help: "import from bitly: a file holding an access token (or BITLY_TOKEN)", command: "import" },
  { name: "group", value: true, help: "import from bitly: the group's guid (default: every group the token sees)", command: "import" },
  { name: "file", value: true, help: "import from csv: the file", command: "import" },
  { name: "map", value: true, help: "import from csv: our field=its column, e.g. long=Destination,alias=Keyword,created=Date,tags=Tags", command: "import" },
  { name: "on-conflict", value: true, help: "import: fail (default: nothing is written), skip, or rename (a new id) for codes that cannot be kept", command: "import" },
  { name: "dry-run", value: false, help: "import: say what would happen, write nothing", command: "import" },
  { name: "visits", value: false, help: "import: the click history too (visits, or the counts Kutt and Bitly keep)", command: "import" },
  { name: "events", value: true, help: "webhook add: the event types, comma-separated: link.created, link.updated, link.deleted, link.gone, link.clicks, link.milestone", command: "webhook" },
  { name: "link", value: true, help: "webhook add: only this link's events", command: "webhook" },
  { name: "tag", value: true, help: "webhook add: only events of links with this tag", command: "webhook" },
  { name: "to", value: true, help: "copy: the empty database to copy into, postgres://user@host/database (its password in $CREDENTIALS_DIRECTORY/db-password or PGPASSWORD, never in the URL) or a new SQLite file", command: "copy" },
];

export type ParsedArgs = {
  config: Config;
  help: boolean;
  version: boolean;
  command: string | null;
  commandArgs: string[];
  /** flags that belong to the command (e.g. scope for `key create`) */
  commandFlags: Record<string, string>;
  /** "--db" or "SHORTENER_DB" when the database was named, else null: a command then looks for one (src/cli/database.ts). */
  dbGivenAs: string | null;
};

/** SHORTENER_BASE_URL for base-url: where a global flag is also read from the environment (the .deb's /etc/default lists them). */
export function environmentVariable(flag: string): string {
  return `SHORTENER_${flag.toUpperCase().replaceAll("-", "_")}`;
}

/**
 * Parses argv (without the executable) and env into a Config; throws ConfigError naming the flag or
 * the environment variable that holds the bad value. With --help or --version nothing is checked:
 * asking what the program is must work whatever else is set.
 */
export function parseArgs(argv: readonly string[], env: Record<string, string | undefined>, folderExists: (path: string) => boolean = mayExist): ParsedArgs {
  if (argv.some((a) => a === "-h" || a === "--help" || a === "-v" || a === "--version")) {
    const parsed = parseArgs([], {}, () => true);
    return { ...parsed, help: argv.includes("-h") || argv.includes("--help"), version: argv.includes("-v") || argv.includes("--version") };
  }
  const given = new Map<string, string>();
  /** Where each value came from, as the error message should name it: --port or SHORTENER_PORT. */
  const source = new Map<string, string>();
  const positional: string[] = [];
  for (const flag of FLAGS) {
    const variable = environmentVariable(flag.name);
    const fromEnv = env[variable];
    if (flag.value && flag.command === undefined && fromEnv !== undefined && fromEnv !== "") {
      given.set(flag.name, fromEnv);
      source.set(flag.name, variable);
    }
    // A switch from the environment: SHORTENER_ALLOW_LOOPBACK_DESTINATIONS=1 (or true).
    if (!flag.value && flag.name !== "help" && flag.name !== "version" && /^(1|true|yes)$/i.test(fromEnv ?? "")) given.set(flag.name, "true");
  }
  const named = (name: string) => source.get(name) ?? `--${name}`;
  let help = false;
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("-")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = (eq === -1 ? arg : arg.slice(0, eq)).replace(/^--?/, "");
    const flag = FLAGS.find((f) => f.name === name);
    if (!flag) {
      // Suggested from the service's flags and those of a command named on the line.
      const near = didYouMean(name, FLAGS.filter((f) => f.command === undefined || argv.includes(f.command)).map((f) => f.name), "--");
      throw new ConfigError(`unknown flag ${arg.slice(0, eq === -1 ? undefined : eq)}${near || " (see --help)"}`);
    }
    if (!flag.value) {
      // Only spellings the early return above does not catch get here: -help, --help=x, -version.
      if (name === "help") help = true;
      if (name === "version") version = true;
      if (name !== "help" && name !== "version") given.set(name, "true");
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else value = argv[++i];
    if (value === undefined) throw new ConfigError(`--${name} needs a value`);
    given.set(name, value);
    source.set(name, `--${name}`);
  }

  const command = positional[0] ?? null;
  const commandFlags: Record<string, string> = {};
  for (const flag of FLAGS) {
    if (flag.command === undefined || !given.has(flag.name)) continue;
    if (flag.command !== command) throw new ConfigError(`--${flag.name} belongs to the ${flag.command} command (see --help)`);
    commandFlags[flag.name] = given.get(flag.name)!;
  }

  const port = integer(given.get("port") ?? "8080", named("port"), 0, 65535);
  const host = given.get("host") ?? "0.0.0.0";
  if (!/^[A-Za-z0-9.:\-\[\]]+$/.test(host)) throw new ConfigError(`${named("host")}: not an address: ${host}`);
  const stateDir = env.STATE_DIRECTORY?.split(":")[0];
  const dbPath = given.get("db") ?? (stateDir ? join(stateDir, "shortener.db") : "shortener.db");
  if (engineOf(dbPath) === "postgres") checkPostgresUrl(dbPath, named("db"));
  // A typo in --db must not quietly make folders and an empty database (systemd makes $STATE_DIRECTORY).
  // A command makes none, and says so itself (src/cli/database.ts).
  else if (command === null && given.has("db") && !folderExists(dirname(resolve(dbPath)))) {
    throw new ConfigError(`${named("db")}: the folder ${dirname(resolve(dbPath))} does not exist (the database file itself is created when missing)`);
  }
  const baseUrl = parseBaseUrl(given.get("base-url"), named("base-url"));
  const createRateLimit = integer(given.get("create-rate-limit") ?? "60", named("create-rate-limit"), 0, 1_000_000);
  const logFormat = given.get("log-format") ?? "text";
  if (logFormat !== "text" && logFormat !== "json") throw new ConfigError(`${named("log-format")}: expected text or json, got ${logFormat}`);

  const createAccess = access(given.get("create-access"), named("create-access"));
  const statsAccess = access(given.get("stats-access"), named("stats-access"));

  const metricsAllow = given.get("metrics-allow") ?? "loopback";
  if (metricsAllow !== "off") {
    try {
      parseTrustedProxies(metricsAllow);
    } catch (err) {
      throw new ConfigError((err instanceof Error ? err.message : String(err)).replace(/^--trust-proxy/, named("metrics-allow")));
    }
  }

  const trustProxy = given.get("trust-proxy") ?? "";
  try {
    parseTrustedProxies(trustProxy);
  } catch (err) {
    // Its own message names the flag; the value may have come from the environment instead.
    throw new ConfigError((err instanceof Error ? err.message : String(err)).replace(/^--trust-proxy/, named("trust-proxy")));
  }

  const rootRedirect = redirectUrl(given.get("root-redirect"), named("root-redirect"));
  const notFoundRedirect = redirectUrl(given.get("not-found-redirect"), named("not-found-redirect"));

  const oidc = oidcConfig(given, named, baseUrl);
  if (given.has("oidc-only") && oidc === null) throw new ConfigError(`${named("oidc-only")} needs --oidc-issuer: without a provider nobody could sign in`);
  const authHeader = headerIdentityConfig(given, named, trustProxy);

  const config: Config = Object.freeze({
    port,
    host,
    dbPath,
    baseUrl,
    trustProxy,
    geoipDb: given.get("geoip-db") ?? null,
    createRateLimit,
    createAccess,
    statsAccess,
    blocklist: given.get("blocklist") ?? null,
    metricsAllow,
    allowLoopbackDestinations: given.has("allow-loopback-destinations"),
    webhookAllowPrivate: given.has("webhook-allow-private"),
    importAllowPrivate: given.has("import-allow-private"),
    rootRedirect,
    notFoundRedirect,
    logFormat,
    oidc,
    oidcOnly: given.has("oidc-only"),
    authHeader,
  });
  return { config, help, version, command, commandArgs: positional.slice(1), commandFlags, dbGivenAs: given.has("db") ? named("db") : null };
}

/** A folder this user may not look into may well exist: opening the database then says whose it is (src/cli/permission.ts). */
function mayExist(path: string): boolean {
  return probeFile(path) !== "missing";
}

const GROUP_PATTERN = /^[^\s,|]{1,200}$/;
const HEADER_NAME_PATTERN = /^[A-Za-z0-9-]{1,100}$/;

function group(raw: string | undefined, name: string): string | null {
  if (raw === undefined || raw === "") return null;
  if (!GROUP_PATTERN.test(raw)) throw new ConfigError(`${name}: a group name without spaces, commas or |, got ${JSON.stringify(raw)}`);
  return raw;
}

/** --oidc-*: the issuer (https, or http on a loopback address) and the client; --base-url gives the callback. */
function oidcConfig(given: Map<string, string>, named: (flag: string) => string, baseUrl: string | null): Config["oidc"] {
  const raw = given.get("oidc-issuer");
  const others = ["oidc-client-id", "oidc-admin-group", "oidc-allowed-group", "oidc-groups-claim", "oidc-name"].filter((f) => given.has(f));
  if (raw === undefined || raw === "") {
    if (others.length > 0) throw new ConfigError(`${named(others[0]!)} needs --oidc-issuer`);
    return null;
  }
  const issuer = httpUrl(raw.trim(), named("oidc-issuer"));
  if (issuer.protocol !== "https:" && !isLoopbackUrl(issuer)) {
    throw new ConfigError(`${named("oidc-issuer")}: must be https (plain http only for a provider on a loopback address, e.g. http://127.0.0.1:9000)`);
  }
  if (issuer.search || issuer.hash) throw new ConfigError(`${named("oidc-issuer")}: must not have a query or fragment`);
  if (baseUrl === null) throw new ConfigError(`${named("oidc-issuer")} needs --base-url: the provider sends people back to {base}/api/session/oidc/callback`);
  const clientId = given.get("oidc-client-id")?.trim();
  if (!clientId) throw new ConfigError(`${named("oidc-issuer")} needs --oidc-client-id (the client registered at the provider)`);
  const groupsClaim = given.get("oidc-groups-claim")?.trim() || "groups";
  if (!/^[A-Za-z0-9_:.\/-]{1,100}$/.test(groupsClaim)) throw new ConfigError(`${named("oidc-groups-claim")}: not a claim name: ${groupsClaim}`);
  // The issuer as the provider spells it in discovery: the URL given, without a trailing slash added or lost.
  return {
    issuer: raw.trim(),
    clientId,
    groupsClaim,
    adminGroup: group(given.get("oidc-admin-group"), named("oidc-admin-group")),
    allowedGroup: group(given.get("oidc-allowed-group"), named("oidc-allowed-group")),
    label: given.get("oidc-name")?.trim() || issuer.hostname,
  };
}

/** --auth-header: a proxy's header (believed only from --trust-proxy peers), or tailscale. */
function headerIdentityConfig(given: Map<string, string>, named: (flag: string) => string, trustProxy: string): Config["authHeader"] {
  const raw = given.get("auth-header")?.trim();
  const others = ["auth-groups-header", "auth-email-header", "auth-admin-group", "auth-allowed-group"].filter((f) => given.has(f));
  if (!raw) {
    if (others.length > 0) throw new ConfigError(`${named(others[0]!)} needs --auth-header`);
    return null;
  }
  if (raw.toLowerCase() === "tailscale") {
    if (others.length > 0) throw new ConfigError(`${named(others[0]!)} does not apply to --auth-header tailscale (it sends no groups)`);
    return { kind: "tailscale" };
  }
  const header = (flag: string, fallback: string) => {
    const value = given.get(flag)?.trim() || fallback;
    if (!HEADER_NAME_PATTERN.test(value)) throw new ConfigError(`${named(flag)}: not a header name: ${value}`);
    return value;
  };
  const userHeader = header("auth-header", raw);
  if (trustProxy === "") throw new ConfigError(`${named("auth-header")} needs --trust-proxy: the header is believed only from the proxy that sets it`);
  return {
    kind: "header",
    userHeader,
    groupsHeader: header("auth-groups-header", "Remote-Groups"),
    emailHeader: header("auth-email-header", "Remote-Email"),
    adminGroup: group(given.get("auth-admin-group"), named("auth-admin-group")),
    allowedGroup: group(given.get("auth-allowed-group"), named("auth-allowed-group")),
  };
}

/** An instance redirect: an absolute http(s) URL, kept in the form a Location header carries. */
function redirectUrl(raw: string | undefined, name: string): string | null {
  return raw === undefined || raw === "" ? null : httpUrl(raw.trim(), name).href;
}

/** An absolute http(s) URL with a host, or a ConfigError naming the flag. */
function httpUrl(raw: string, name: string): URL {
  const url = URL.parse(raw);
  if (url === null) throw new ConfigError(`${name}: not a URL: ${raw}`);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(`${name}: must start with http:// or https://`);
  if (url.hostname === "") throw new ConfigError(`${name}: needs a host: ${raw}`);
  return url;
}

/** `name`: how the value was given (--port or SHORTENER_PORT), for the error message. */
function integer(raw: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name}: expected a whole number, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name}: must be between ${min} and ${max}, got ${n}`);
  return n;
}

function access(raw: string | undefined, name: string): Access {
  const value = raw ?? "public";
  if (value !== "public" && value !== "key") throw new ConfigError(`${name}: expected public or key, got ${value}`);
  return value;
}

function parseBaseUrl(raw: string | undefined, name: string): string | null {
  if (raw === undefined || raw === "") return null;
  const url = httpUrl(raw, name);
  if (url.search || url.hash) throw new ConfigError(`${name}: must not have a query or fragment`);
  return url.href.replace(/\/+$/, "");
}

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
    "  shortener copy --to postgres://USER@HOST/DATABASE | --to FILE.db",
    "                                 copy everything (links, visits, statistics, keys, users, sessions, webhooks) into an empty",
    "                                 database of the other engine, then check that both hold the same (docs/postgresql.md)",
    "",
    "Flags (each also as SHORTENER_<NAME> in the environment, e.g. SHORTENER_BASE_URL):",
  ];
  // At least one space after the longest name (--allow-loopback-destinations is longer than the column).
  for (const f of FLAGS) lines.push(`  --${(f.name + (f.value ? " VALUE" : "")).padEnd(26)} ${f.help}`);
  return lines.join("\n");
}

/** A postgres:// URL the client can use: a host, and a database named in its path. */
function checkPostgresUrl(value: string, name: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name}: not a URL: ${describeLocation(value)}`);
  }
  if (url.hostname === "") throw new ConfigError(`${name}: the PostgreSQL URL names no host: ${describeLocation(value)}`);
  if (url.pathname.length <= 1) throw new ConfigError(`${name}: the PostgreSQL URL names no database (postgres://user@host/DATABASE): ${describeLocation(value)}`);
}
