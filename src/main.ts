// Entry point: parse config → a command, or the service: open db (migrate) → start the threads →
// build the app → listen; on SIGTERM/SIGINT stop in order (src/lifecycle.ts), exit 0.

import { parseArgs, helpText, ConfigError, type Config } from "./config.ts";
import { createLogger, describeError, type Logger } from "./log.ts";
import { VERSION, versionLine } from "./version.ts";
import { openStorage } from "./db/open-storage.ts";
import type { LiveRelay, Storage } from "./db/storage.ts";
import { RESERVED_WORDS } from "./links/alias.ts";
import { reportLockedLinks } from "./links/locked-links.ts";
import { EVERY_LINK } from "./links/store.ts";
import { CredentialError, readAdminCredential, readDatabasePassword, readOidcClientSecret } from "./auth/credential.ts";
import { runKeyCommand } from "./cli/keys.ts";
import { runUserCommand } from "./cli/users.ts";
import { createImportJobs } from "./threads/import/client.ts";
import { startClickRecorder, type ClickRecorder } from "./threads/recorder/client.ts";
import { createApp, type AppDeps } from "./app.ts";
import { appDeps, type Secrets } from "./app-deps.ts";
import { logStart, openFlagFiles, untilStopped, type Opened, type Threads } from "./lifecycle.ts";
import { withClickDoor } from "./http/click-door.ts";
import { routeTable } from "./http/route-table.ts";
import { runBackupCommand } from "./cli/backup.ts";
import { commandDatabase, probeFile } from "./cli/database.ts";
import { cannotListen, cannotOpen } from "./cli/permission.ts";
import { didYouMean } from "./cli/suggest.ts";
import { isNewInstance } from "./cli/next-step.ts";
import { CLICK_THREAD_BUSY_TIMEOUT_MS } from "./db/sqlite/busy-retry.ts";
import { createEventWants, wantsRefresher, type EventWants } from "./events/wants.ts";
import { linkEvents } from "./events/link-events.ts";
import { eventBase } from "./events/event-domains.ts";
import type { DomainDirectory } from "./domains/directory.ts";
import { deliveryOnDemand, type DeliveryThread } from "./threads/delivery/client.ts";
import { createLiveHub } from "./events/live-hub.ts";
import { hostname } from "node:os";
import { announcePresence, type Presence } from "./instances/presence.ts";
import { currentServiceLeave } from "./events/webhook-leave.ts";
import { nameDefaultByBaseUrl } from "./ops/domains/startup.ts";
import { baseHostOf } from "./domains/domain.ts";

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`shortener: ${err.message}`);
      // A container runtime reads a health check's 2 as "reserved": unhealthy is 1, whatever the cause.
      return process.argv.includes("healthcheck") ? 1 : 2;
    }
    throw err;
  }
  const { config, command } = parsed;
  if (parsed.help) {
    console.log(helpText(VERSION));
    return 0;
  }
  if (parsed.version) {
    console.log(versionLine());
    return 0;
  }
  // Before the credentials: it opens no database, and must answer 0 or 1 only.
  if (command === "healthcheck") return await (await import("./cli/healthcheck.ts")).runHealthcheck(config);
  const log = createLogger(config.logFormat);
  let databasePassword;
  let credentialHash;
  let oidcSecret: string | null = null;
  try {
    databasePassword = readDatabasePassword(process.env.CREDENTIALS_DIRECTORY);
    if (command === null) credentialHash = readAdminCredential(process.env.CREDENTIALS_DIRECTORY);
    if (command === null && config.oidc !== null) oidcSecret = readOidcClientSecret(process.env.CREDENTIALS_DIRECTORY, process.env);
  } catch (err) {
    if (!(err instanceof CredentialError)) throw err;
    console.error(`shortener: ${err.message}`);
    return 2;
  }
  // A command finds an existing database and never makes one (docs/configuration.md: Which database a command uses).
  const database = () => commandDatabase({ given: parsed.dbGivenAs === null ? null : config.dbPath, givenAs: parsed.dbGivenAs ?? "--db", env: process.env, cwd: process.cwd(), probe: probeFile });
  if (command === "backup") return runBackupCommand(database, parsed.commandArgs[0], log);
  if (command === "key") return await runKeyCommand(database, databasePassword, parsed.commandArgs, parsed.commandFlags);
  if (command === "user") return await runUserCommand(database, databasePassword, parsed.commandArgs);
  if (command === "webhook") return await (await import("./cli/webhooks.ts")).runWebhookCommand(config, database, databasePassword, parsed.commandArgs, parsed.commandFlags);
  if (command === "import") return await (await import("./cli/import.ts")).runImportCommand(config, database, databasePassword, parsed.commandFlags, process.env);
  if (command === "domain") return await (await import("./cli/domains.ts")).runDomainCommand(config, database, databasePassword, parsed.commandArgs, parsed.commandFlags);
  if (command === "copy") return await (await import("./cli/copy.ts")).runCopyCommand(database, databasePassword, parsed.commandFlags);
  if (command === "export") return await (await import("./cli/export.ts")).runExportCommand(config, database, databasePassword, parsed.commandArgs, parsed.commandFlags);
  if (command !== null) {
    console.error(`shortener: unknown command ${command}${didYouMean(command, ["backup", "healthcheck", "key", "user", "import", "webhook", "domain", "copy", "export"]) || " (see --help)"}`);
    return 2;
  }
  return await serve(config, log, { credentialHash: credentialHash ?? null, oidcSecret }, databasePassword);
}

/**
 * The parts that start later, which parts started earlier call once they run: a write that finds
 * SQLite's lock taken hurries the recorder, a link change pokes the delivery thread, the live view
 * watches through the relay (PostgreSQL) or the recorder, webhooks ask this instance's name.
 */
type Later = { recorder?: ClickRecorder; delivery?: DeliveryThread; relay: LiveRelay | null; presence?: Presence; directory?: DomainDirectory };

/**
 * The service, in order (docs/architecture.md: Composition roots): open the database, start the
 * threads, build the app's parts, listen, say so; then wait for a signal and stop in order. Each
 * step that fails closes what the steps before it opened, and the exit code says whose trouble it is.
 */
async function serve(config: Config, log: Logger, secrets: Secrets, databasePassword: string | null): Promise<number> {
  const later: Later = { relay: null };
  // What webhooks want (docs/webhooks.md: Webhooks): the delivery thread tells, and so does every change made here.
  const wants = createEventWants();
  const opened = await openParts(config, log, databasePassword, wants, later);
  if (typeof opened === "number") return opened;
  const threads = await startThreads(config, log, databasePassword, opened, wants, later);
  if (typeof threads === "number") return threads;
  const { storage, blocklist, live } = opened;
  const { recorder, delivery } = threads;
  const deps = appDeps(config, log, secrets, {
    storage,
    recorder,
    blocklist,
    imports: createImportJobs({ db: config.dbPath, dbPassword: databasePassword, destinations: { baseUrl: config.baseUrl, allowLocal: config.allowLoopbackDestinations, blocklist: config.blocklist, allowSchemes: config.allowSchemes }, env: {}, allowPrivate: config.importAllowPrivate, log }),
    live,
    webhooks: {
      changed: () => delivery.changed(),
      poke: () => delivery.poke(),
      leave: () => currentServiceLeave(storage.instances, config.webhookAllowPrivate, later.presence?.name ?? null),
    },
    qrLogo: opened.qrLogo,
  });
  const closeStarted = async () => {
    await recorder.close();
    await delivery.close();
    await storage.close();
  };
  // The domains, known before the first request and to the events' short URLs (docs/several-domains.md:
  // Several domains); the default takes --base-url's host first (Which domain is the default).
  const named = await nameDefaultByBaseUrl(storage.domains, baseHostOf(config.baseUrl), log);
  if (named !== "ok") {
    console.error(`shortener: ${named.error}`);
    return closeStarted().then(() => 2);
  }
  await deps.directory.reload();
  later.directory = deps.directory;
  const app = createApp(deps);
  // Asked before listening, said after: the start-up log's last line, for a new instance only.
  const welcome = await isNewInstance(storage, secrets.credentialHash !== null);
  const server = listen(config, app, deps);
  if (server === null) return closeStarted().then(() => 1);
  keepRunningOnErrors(log);
  // Elysia handlers read the socket peer through the app's server (context.server → app.getServer()).
  app.server = server as unknown as typeof app.server;
  // What this instance allows, for the commands and instances beside it (docs/webhooks.md: Webhooks).
  const presence = await announcePresence(storage.instances, `${hostname()}:${server.port}`, { webhookAllowPrivate: config.webhookAllowPrivate }, { log });
  later.presence = presence;
  logStart(config, log, secrets, recorder, server, welcome);
  return await untilStopped(log, { ...opened, ...threads, deps, server, presence, relay: () => later.relay });
}

/** The database (migrated), the start-up warnings about its links, the --blocklist, the live view's hub; an exit code when one cannot be opened. */
async function openParts(config: Config, log: Logger, databasePassword: string | null, wants: EventWants, later: Later): Promise<Opened | number> {
  let storage: Storage;
  try {
    // SQLite: this connection writes only single links, keys and sessions. It does not wait for
    // the write lock, so that the event loop never stalls behind the recorder; a write that finds
    // it taken retries without blocking (src/db/sqlite/busy-retry.ts). The migrations had a 5 s timeout.
    storage = await openStorage(config.dbPath, {
      busyTimeoutMs: CLICK_THREAD_BUSY_TIMEOUT_MS,
      password: databasePassword,
      log,
      linkEvents: linkEvents(wants, eventBase(config.baseUrl, () => later.directory ?? null), Date.now, () => later.delivery?.poke()),
      // A write that finds SQLite's lock taken asks the recorder to hurry, once it runs.
      onWriteBusy: () => later.recorder?.hurry(),
    });
  } catch (err) {
    console.error(`shortener: ${cannotOpen(config.dbPath, err, "service")}`);
    return 1;
  }
  await warnAboutShadowedLinks(storage, log);
  await reportLockedLinks(storage.links, log);
  const files = await openFlagFiles(config, storage.links, log);
  if (typeof files === "string") {
    console.error(`shortener: ${files}`);
    await storage.close();
    return 2;
  }
  // The live view: its streams tell the recorder (and, on PostgreSQL, the other instances) what they watch.
  const live = createLiveHub((watch) => (later.relay !== null ? later.relay.watchHere(watch) : later.recorder?.watch(watch.ids, watch.all)));
  // A changed link's streams of viewers who do not manage it are decided again (docs/security.md: Security).
  storage.links.onChange((id) => live.changed(id === EVERY_LINK ? null : id));
  return { storage, ...files, live };
}

/**
 * The recorder thread, then webhook delivery and (PostgreSQL) the live relay; what webhooks want is
 * read before the first request. An exit code when one cannot start, what started before closed.
 */
async function startThreads(config: Config, log: Logger, databasePassword: string | null, opened: Opened, wants: EventWants, later: Later): Promise<Threads | number> {
  const { storage, blocklist, live } = opened;
  // After the migration: the recorder thread opens the same database with its own connection.
  let recorder: ClickRecorder;
  try {
    recorder = await startClickRecorder({
      database: config.dbPath,
      databasePassword,
      geoipDb: config.geoipDb,
      trustProxy: config.trustProxy,
      noCountFrom: config.optOuts.noCountFrom,
      logFormat: config.logFormat,
      onError: (error) => log.error("writing visits failed; keeping them queued", { error }),
      onLive: (batch) => {
        live.publish(batch);
        later.relay?.announce(batch);
      },
    });
    later.recorder = recorder;
  } catch (err) {
    // Nearly always an unusable --geoip-db, which the message names; a configuration error, hence 2.
    console.error(`shortener: ${err instanceof Error ? err.message : String(err)}`);
    blocklist.stop();
    await storage.close();
    return 2;
  }
  const refreshWants = wantsRefresher(
    () => storage.events.wantedTypes(),
    (types) => {
      wants.set(types);
      recorder.setWants(types);
    },
  );
  // Without a delivery thread the expiry mark still moves (a new link.gone webhook hears no old
  // news); a write that finds the lock taken is simply tried again at the next minute.
  const markExpiry = async () => {
    try {
      await storage.events.sweepExpired(Date.now(), () => []);
    } catch {}
  };
  try {
    // Started when some enabled webhook wants events, stopped when none does (docs/architecture.md: Threads).
    const delivery = deliveryOnDemand(
      { database: config.dbPath, databasePassword, allowPrivate: config.webhookAllowPrivate, logFormat: config.logFormat, userAgent: `shortener/${VERSION} (webhooks)`, baseHost: baseHostOf(config.baseUrl) },
      { wanted: async () => (await refreshWants()).length > 0, markExpiry, log },
    );
    later.delivery = delivery;
    // Before the first request: a change made then already writes the events webhooks want.
    await delivery.changed();
    later.relay = (await storage.relayLive?.((batch) => live.publish(batch), (watch) => recorder.watch(watch.ids, watch.all))) ?? null;
    return { recorder, delivery };
  } catch (err) {
    console.error(`shortener: ${err instanceof Error ? err.message : String(err)}`);
    await later.delivery?.close();
    await recorder.close();
    blocklist.stop();
    await storage.close();
    return 1;
  }
}

/** Listening on --host and --port behind the click door; null (said on stderr) when the address cannot be had. */
function listen(config: Config, app: ReturnType<typeof createApp>, deps: AppDeps): ReturnType<typeof Bun.serve> | null {
  let server: ReturnType<typeof Bun.serve> | undefined;
  try {
    // reusePort off: a second instance on the same port must fail, not silently share it.
    const fetch = withClickDoor(app.fetch, routeTable(app.routes), { ...deps, ownHost: () => ownHost(config, server) });
    // development: false, so that Bun's error page (source lines, paths, a stack) is never served;
    // `error` answers whatever escapes the click door's own last resort (docs/security.md: Security).
    server = Bun.serve({ port: config.port, hostname: config.host, reusePort: false, development: false, fetch, error: (error) => deps.lastResort(error, null) });
    return server;
  } catch (err) {
    console.error(`shortener: ${cannotListen(config.host, config.port, err)}`);
    return null;
  }
}

/**
 * After start-up an error that escapes every handler is logged, never fatal: one request must
 * not stop the service, nor lose the queued clicks with it (docs/security.md: Security, "Hostile requests").
 */
function keepRunningOnErrors(log: Logger): void {
  process.on("uncaughtException", (error) => log.error("uncaught error", { error: describeError(error) }));
  process.on("unhandledRejection", (reason) => log.error("unhandled rejection", { error: describeError(reason) }));
}

/** The host a request without a Host header is taken to name: --base-url's, else the listening address. */
function ownHost(config: Config, server: { hostname?: string; port?: number } | undefined): string {
  if (config.baseUrl !== null) return new URL(config.baseUrl).host;
  const name = server?.hostname ?? "localhost";
  const host = name === "0.0.0.0" || name === "::" || name === "" ? "localhost" : name.includes(":") ? `[${name}]` : name;
  return `${host}:${server?.port ?? config.port}`;
}

/**
 * Links made before a word was reserved (an upgrade added a page under that path) may now be
 * hidden behind the page; the owner should know which, once, at start.
 */
async function warnAboutShadowedLinks(storage: Storage, log: Logger): Promise<void> {
  const ids = await storage.idsAmong(RESERVED_WORDS);
  if (ids.length > 0) log.error(`links whose id is now a reserved word may be hidden behind a page of the service: ${ids.join(", ")}`);
}

// No top-level await: it lets `bun build --bytecode` precompile the bundle for a faster start.
void main().then((code) => process.exit(code));
