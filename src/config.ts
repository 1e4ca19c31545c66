// Flags and SHORTENER_* environment variables, read once at start into one frozen Config.
// A bad value never starts a half-configured service: it is a ConfigError, and main exits 2.

import { dirname, join, resolve } from "node:path";
import { engineOf } from "./db/storage.ts";
import type { OidcConfig } from "./auth/oidc.ts";
import { didYouMean } from "./cli/suggest.ts";
import { probeFile } from "./cli/database.ts";
import type { HeaderIdentityConfig } from "./auth/header-identity.ts";
import { environmentVariable, FLAGS } from "./config/flags.ts";
import { headerIdentityConfig, oidcConfig } from "./config/sign-in.ts";
import { optOutSettings } from "./config/opt-outs.ts";
import type { OptOutSettings } from "./visits/opt-outs.ts";
import { access, allowedSchemes, checkAddresses, checkPostgresUrl, compatApis, ConfigError, corsOrigins, integer, parseBaseUrl, redirectUrl } from "./config/values.ts";

// The parts live in src/config/: the flags' table, the value checks, the sign-in groups, the help.
export { environmentVariable, FLAGS } from "./config/flags.ts";
export { ConfigError } from "./config/values.ts";
export { helpText } from "./config/help.ts";

export type LogFormat = "text" | "json";
/** Who may create links, or read statistics: anyone (the spec's basic usage), or key holders only. */
export type Access = "public" | "key";
/** --fetch-titles: off, on (the outbound policy refuses special-purpose addresses), any (it lets them through). */
export type FetchTitles = "off" | "on" | "any";

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
  /** Titles of links created without one fetched from their pages: off, on (public addresses), any (special-purpose ones too) (docs/link-titles.md: Link titles). */
  fetchTitles: FetchTitles;
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
  /** The peer APIs spoken for other shorteners' clients (docs/configuration.md: Flags). */
  compat: CompatApis;
  /** Web origins whose pages may read the Shlink API's answers (CORS), or "*" for any; [] = none (docs/shlink-api.md: CORS). */
  corsOrigins: CorsOrigins;
  /** --allow-schemes: destination schemes beside http(s), lower case (docs/sharing.md: Links into apps) */
  allowSchemes: ReadonlySet<string>;
  /** --qr-logo: the image drawn in the middle of QR codes (docs/sharing.md: QR codes by URL); null: none */
  qrLogo: string | null;
  /** --no-count-from, --no-count-param, --do-not-track (docs/statistics.md: Not counting some clicks) */
  optOuts: OptOutSettings;
  /** --orphan-visits: visits to no link are counted (docs/statistics.md: Visits to no link) */
  orphanVisits: boolean;
}>;

/** Which other shorteners' APIs answer: YOURLS's /yourls-api.php, Kutt's /api/v2. */
export type CompatApis = Readonly<{ yourls: boolean; kutt: boolean; shlink: boolean }>;

/** --cors-origin: exact origins (`https://app.shlink.io`), or "*" for any. */
export type CorsOrigins = "*" | readonly string[];

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

/** The values given, by flag name, and where each came from (--port or SHORTENER_PORT) for messages. */
type Given = {
  values: Map<string, string>;
  named: (flag: string) => string;
  positional: string[];
  help: boolean;
  version: boolean;
};

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
  const given = readGiven(argv, env);
  const { values, named, positional } = given;
  const command = positional[0] ?? null;
  const commandFlags: Record<string, string> = {};
  for (const flag of FLAGS) {
    if (flag.command === undefined || !values.has(flag.name)) continue;
    const commands = commandsOf(flag);
    if (command === null || !commands.includes(command)) throw new ConfigError(`--${flag.name} belongs to the ${commands.join(" and ")} command${commands.length > 1 ? "s" : ""} (see --help)`);
    commandFlags[flag.name] = values.get(flag.name)!;
  }
  // `domain add|set` take a domain's own redirects under the instance's flags' names: only as written on its command line.
  if (command === "domain") for (const name of DOMAIN_REDIRECT_FLAGS) if (values.has(name) && named(name) === `--${name}`) commandFlags[name] = values.get(name)!;
  const config = serviceConfig(given, env, command, folderExists);
  return { config, help: given.help, version: given.version, command, commandArgs: positional.slice(1), commandFlags, dbGivenAs: values.has("db") ? named("db") : null };
}

/** The instance's flags that `domain add|set` also take, for the domain's own settings. */
const DOMAIN_REDIRECT_FLAGS = ["root-redirect", "not-found-redirect"];

function commandsOf(flag: (typeof FLAGS)[number]): readonly string[] {
  return typeof flag.command === "string" ? [flag.command] : (flag.command ?? []);
}

/** The environment's SHORTENER_* first, then the command line over it. */
function readGiven(argv: readonly string[], env: Record<string, string | undefined>): Given {
  const values = new Map<string, string>();
  /** Where each value came from, as the error message should name it: --port or SHORTENER_PORT. */
  const source = new Map<string, string>();
  const given: Given = { values, named: (name) => source.get(name) ?? `--${name}`, positional: [], help: false, version: false };
  for (const flag of FLAGS) {
    const variable = environmentVariable(flag.name);
    const fromEnv = env[variable];
    if (flag.value && flag.command === undefined && fromEnv !== undefined && fromEnv !== "") {
      values.set(flag.name, fromEnv);
      source.set(flag.name, variable);
    }
    // A switch from the environment: SHORTENER_ALLOW_LOOPBACK_DESTINATIONS=1 (or true).
    if (!flag.value && flag.name !== "help" && flag.name !== "version" && /^(1|true|yes)$/i.test(fromEnv ?? "")) values.set(flag.name, "true");
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("-")) {
      given.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = (eq === -1 ? arg : arg.slice(0, eq)).replace(/^--?/, "");
    const flag = FLAGS.find((f) => f.name === name);
    if (!flag) {
      // Suggested from the service's flags and those of a command named on the line.
      const near = didYouMean(name, FLAGS.filter((f) => f.command === undefined || commandsOf(f).some((c) => argv.includes(c))).map((f) => f.name), "--");
      throw new ConfigError(`unknown flag ${arg.slice(0, eq === -1 ? undefined : eq)}${near || " (see --help)"}`);
    }
    if (!flag.value) {
      // Only spellings the early return above does not catch get here: -help, --help=x, -version.
      if (name === "help") given.help = true;
      if (name === "version") given.version = true;
      if (name !== "help" && name !== "version") values.set(name, "true");
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else value = argv[++i];
    if (value === undefined) throw new ConfigError(`--${name} needs a value`);
    const before = flag.repeatable && source.get(name) === `--${name}` ? values.get(name) : undefined;
    values.set(name, before === undefined ? value : `${before},${value}`);
    source.set(name, `--${name}`);
  }
  return given;
}

/** The service's settings, each checked; frozen. */
function serviceConfig({ values: given, named }: Given, env: Record<string, string | undefined>, command: string | null, folderExists: (path: string) => boolean): Config {
  // Checked in this order: with several bad values, the first of these is the one reported.
  const port = integer(given.get("port") ?? "8080", named("port"), 0, 65535);
  const host = given.get("host") ?? "0.0.0.0";
  if (!/^[A-Za-z0-9.:\-\[\]]+$/.test(host)) throw new ConfigError(`${named("host")}: not an address: ${host}`);
  const dbPath = databaseLocation(given, named, env, command, folderExists);
  const baseUrl = parseBaseUrl(given.get("base-url"), named("base-url"));
  const createRateLimit = integer(given.get("create-rate-limit") ?? "60", named("create-rate-limit"), 0, 1_000_000);
  const logFormat = given.get("log-format") ?? "text";
  if (logFormat !== "text" && logFormat !== "json") throw new ConfigError(`${named("log-format")}: expected text or json, got ${logFormat}`);
  const createAccess = access(given.get("create-access"), named("create-access"));
  const statsAccess = access(given.get("stats-access"), named("stats-access"));
  const metricsAllow = given.get("metrics-allow") ?? "loopback";
  if (metricsAllow !== "off") checkAddresses(metricsAllow, named("metrics-allow"));
  const trustProxy = given.get("trust-proxy") ?? "";
  checkAddresses(trustProxy, named("trust-proxy"));
  const rootRedirect = redirectUrl(given.get("root-redirect"), named("root-redirect"));
  const notFoundRedirect = redirectUrl(given.get("not-found-redirect"), named("not-found-redirect"));
  const oidc = oidcConfig(given, named, baseUrl);
  if (given.has("oidc-only") && oidc === null) throw new ConfigError(`${named("oidc-only")} needs --oidc-issuer: without a provider nobody could sign in`);
  const authHeader = headerIdentityConfig(given, named, trustProxy);
  const fetchTitles = given.get("fetch-titles") ?? "off";
  if (fetchTitles !== "off" && fetchTitles !== "on" && fetchTitles !== "any") throw new ConfigError(`${named("fetch-titles")}: expected off, on or any, got ${fetchTitles}`);
  return Object.freeze({
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
    fetchTitles,
    rootRedirect,
    notFoundRedirect,
    logFormat,
    oidc,
    oidcOnly: given.has("oidc-only"),
    authHeader,
    compat: compatApis(given.get("compat"), named("compat")),
    corsOrigins: corsOrigins(given.get("cors-origin"), named("cors-origin")),
    allowSchemes: allowedSchemes(given.get("allow-schemes"), named("allow-schemes")),
    qrLogo: given.get("qr-logo") || null,
    optOuts: optOutSettings(given, named),
    orphanVisits: onOff(given.get("orphan-visits") ?? "on", named("orphan-visits")),
  });
}

/** A switch given as on or off. */
function onOff(value: string, name: string): boolean {
  if (value !== "on" && value !== "off") throw new ConfigError(`${name}: expected on or off, got ${value}`);
  return value === "on";
}

/** --db: a postgres:// URL, or a SQLite file (default ./shortener.db, or in $STATE_DIRECTORY). */
function databaseLocation(given: Map<string, string>, named: (flag: string) => string, env: Record<string, string | undefined>, command: string | null, folderExists: (path: string) => boolean): string {
  const stateDir = env.STATE_DIRECTORY?.split(":")[0];
  const dbPath = given.get("db") ?? (stateDir ? join(stateDir, "shortener.db") : "shortener.db");
  if (engineOf(dbPath) === "postgres") checkPostgresUrl(dbPath, named("db"));
  // A typo in --db must not quietly make folders and an empty database (systemd makes $STATE_DIRECTORY).
  // A command makes none, and says so itself (src/cli/database.ts).
  else if (command === null && given.has("db") && !folderExists(dirname(resolve(dbPath)))) {
    throw new ConfigError(`${named("db")}: the folder ${dirname(resolve(dbPath))} does not exist (the database file itself is created when missing)`);
  }
  return dbPath;
}

/** A folder this user may not look into may well exist: opening the database then says whose it is (src/cli/permission.ts). */
function mayExist(path: string): boolean {
  return probeFile(path) !== "missing";
}

