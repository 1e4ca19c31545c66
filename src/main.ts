// Entry point: parse config → open db (migrate) → start the click recorder thread → listen;
// on SIGTERM/SIGINT stop accepting, finish requests, write every queued visit, close, exit 0.

import { parseArgs, helpText, ConfigError, type Config } from "./config.ts";
import { createLogger, describeError, type Logger } from "./log.ts";
import { VERSION, versionLine } from "./version.ts";
import { openStorage } from "./db/open-storage.ts";
import { describeLocation, type LiveRelay, type Storage } from "./db/storage.ts";
import { RESERVED_WORDS } from "./links/alias.ts";
import { reportLockedLinks } from "./links/locked-links.ts";
import { EVERY_LINK } from "./links/store.ts";
import { openBlocklistFile } from "./links/blocklist-file.ts";
import { BlocklistError } from "./links/blocklist.ts";
import { CredentialError, readAdminCredential, readDatabasePassword, readOidcClientSecret } from "./auth/credential.ts";
import { runKeyCommand } from "./cli/keys.ts";
import { runUserCommand } from "./cli/users.ts";
import { createImportJobs } from "./threads/import/client.ts";
import { startClickRecorder, type ClickRecorder } from "./threads/recorder/client.ts";
import { createApp } from "./app.ts";
import { appDeps } from "./app-deps.ts";
import { withClickDoor } from "./http/click-door.ts";
import { routeTable } from "./http/route-table.ts";
import { runBackupCommand } from "./cli/backup.ts";
import { commandDatabase, probeFile } from "./cli/database.ts";
import { cannotListen, cannotOpen } from "./cli/permission.ts";
import { didYouMean } from "./cli/suggest.ts";
import { isNewInstance, nextStep } from "./cli/next-step.ts";
import { CLICK_THREAD_BUSY_TIMEOUT_MS } from "./db/sqlite/busy-retry.ts";
import { createEventWants, wantsRefresher } from "./events/wants.ts";
import { linkEvents } from "./events/link-events.ts";
import { startDelivery, type DeliveryThread } from "./threads/delivery/client.ts";
import { createLiveHub } from "./events/live-hub.ts";
import { hostname } from "node:os";
import { announcePresence, type Presence } from "./instances/presence.ts";
import { currentServiceLeave } from "./events/webhook-leave.ts";

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
  if (command === "copy") return await (await import("./cli/copy.ts")).runCopyCommand(database, databasePassword, parsed.commandFlags);
  if (command !== null) {
    console.error(`shortener: unknown command ${command}${didYouMean(command, ["backup", "healthcheck", "key", "user", "import", "webhook", "copy"]) || " (see --help)"}`);
    return 2;
  }
  return await serve(config, log, credentialHash ?? null, databasePassword, oidcSecret);
}

async function serve(config: Config, log: Logger, credentialHash: Uint8Array | null, databasePassword: string | null, oidcSecret: string | null): Promise<number> {
  const where = describeLocation(config.dbPath);
  // What webhooks want (docs/webhooks.md: Webhooks): the delivery thread tells, and so does every change made here.
  const wants = createEventWants();
  let delivery: DeliveryThread | null = null;
  let storage: Storage;
  let hurryRecorder = () => {};
  try {
    // SQLite: this connection writes only single links, keys and sessions. It does not wait for
    // the write lock, so that the event loop never stalls behind the recorder; a write that finds
    // it taken retries without blocking (src/db/sqlite/busy-retry.ts). The migrations had a 5 s timeout.
    storage = await openStorage(config.dbPath, {
      busyTimeoutMs: CLICK_THREAD_BUSY_TIMEOUT_MS,
      password: databasePassword,
      log,
      linkEvents: linkEvents(wants, config.baseUrl, Date.now, () => delivery?.poke()),
      // A write that finds SQLite's lock taken asks the recorder to hurry, once it runs (below).
      onWriteBusy: () => hurryRecorder(),
    });
  } catch (err) {
    console.error(`shortener: ${cannotOpen(config.dbPath, err, "service")}`);
    return 1;
  }
  await warnAboutShadowedLinks(storage, log);
  await reportLockedLinks(storage.links, log);
  let blocklist;
  try {
    blocklist = await openBlocklistFile(config.blocklist, storage.links, log);
  } catch (err) {
    console.error(`shortener: --blocklist ${config.blocklist}: ${err instanceof BlocklistError ? err.message : err instanceof Error ? err.message : String(err)}`);
    await storage.close();
    return 2;
  }
  // The live view: its streams tell the recorder (and, on PostgreSQL, the other instances) what they watch.
  let relay: LiveRelay | null = null;
  const live = createLiveHub((watch) => (relay !== null ? relay.watchHere(watch) : recorder?.watch(watch.ids, watch.all)));
  // A changed link's streams of viewers who do not manage it are decided again (docs/security.md: Security).
  storage.links.onChange((id) => live.changed(id === EVERY_LINK ? null : id));
  // After the migration above: the recorder thread opens the same database with its own connection.
  let recorder: ClickRecorder | undefined;
  try {
    recorder = await startClickRecorder({
      database: config.dbPath,
      databasePassword,
      geoipDb: config.geoipDb,
      trustProxy: config.trustProxy,
      logFormat: config.logFormat,
      onError: (error) => log.error("writing visits failed; keeping them queued", { error }),
      onLive: (batch) => {
        live.publish(batch);
        relay?.announce(batch);
      },
    });
    const started = recorder;
    hurryRecorder = () => started.hurry();
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
      recorder!.setWants(types);
    },
  );
  try {
    delivery = await startDelivery(
      { database: config.dbPath, databasePassword, allowPrivate: config.webhookAllowPrivate, logFormat: config.logFormat, userAgent: `shortener/${VERSION} (webhooks)` },
      // A read that fails is tried again with the thread's next sign (every 10 s at most).
      () => void refreshWants().catch(() => {}),
    );
    // Before the first request: a change made then already writes the events webhooks want.
    await refreshWants();
    relay = (await storage.relayLive?.((batch) => live.publish(batch), (watch) => recorder!.watch(watch.ids, watch.all))) ?? null;
  } catch (err) {
    console.error(`shortener: ${err instanceof Error ? err.message : String(err)}`);
    await recorder.close();
    blocklist.stop();
    await storage.close();
    return 1;
  }
  const deps = appDeps(config, log, { credentialHash, oidcSecret }, {
    storage,
    recorder,
    blocklist,
    imports: createImportJobs({ db: config.dbPath, dbPassword: databasePassword, destinations: { baseUrl: config.baseUrl, allowLocal: config.allowLoopbackDestinations, blocklist: config.blocklist }, env: {}, allowPrivate: config.importAllowPrivate, log }),
    live,
    webhooks: {
      changed: async () => {
        await refreshWants();
        delivery!.poke();
      },
      poke: () => delivery!.poke(),
      leave: () => currentServiceLeave(storage.instances, config.webhookAllowPrivate, presence?.name ?? null),
    },
  });
  const app = createApp(deps);
  // Asked before listening, said after: the start-up log's last line, for a new instance only.
  const welcome = await isNewInstance(storage, credentialHash !== null);

  let server: ReturnType<typeof Bun.serve> | undefined;
  let presence: Presence | undefined;
  try {
    // reusePort off: a second instance on the same port must fail, not silently share it.
    const fetch = withClickDoor(app.fetch, routeTable(app.routes), { ...deps, ownHost: () => ownHost(config, server) });
    // development: false, so that Bun's error page (source lines, paths, a stack) is never served;
    // `error` answers whatever escapes the click door's own last resort (docs/security.md: Security).
    server = Bun.serve({ port: config.port, hostname: config.host, reusePort: false, development: false, fetch, error: (error) => deps.lastResort(error, null) });
  } catch (err) {
    console.error(`shortener: ${cannotListen(config.host, config.port, err)}`);
    await recorder.close();
    await delivery.close();
    await storage.close();
    return 1;
  }
  // After start-up an error that escapes every handler is logged, never fatal: one request must
  // not stop the service, nor lose the queued clicks with it (docs/security.md: Security, "Hostile requests").
  process.on("uncaughtException", (error) => log.error("uncaught error", { error: describeError(error) }));
  process.on("unhandledRejection", (reason) => log.error("unhandled rejection", { error: describeError(reason) }));
  // Elysia handlers read the socket peer through the app's server (context.server → app.getServer()).
  app.server = server as unknown as typeof app.server;
  // What this instance allows, for the commands and instances beside it (docs/webhooks.md: Webhooks).
  presence = await announcePresence(storage.instances, `${hostname()}:${server.port}`, { webhookAllowPrivate: config.webhookAllowPrivate }, { log });
  log.info(versionLine());
  log.info(`database ${where}`);
  log.info(`geoip ${recorder.geoSource}, built ${recorder.geoBuildDate}`);
  log.info(`base url ${config.baseUrl ?? "(from each request's Host header)"}`);
  log.info(`create access ${config.createAccess}, stats access ${config.statsAccess}${credentialHash ? ", admin key from the systemd credential" : ""}`);
  if (config.oidc !== null) log.info(`sign-in through ${config.oidc.issuer} (client ${config.oidc.clientId}, ${oidcSecret === null ? "public client" : "client secret set"}; admins: ${config.oidc.adminGroup ? `group ${config.oidc.adminGroup}` : "the first user"})`);
  if (config.authHeader !== null) log.info(config.authHeader.kind === "tailscale" ? "sign-in by Tailscale-User-Login from loopback (tailscale serve)" : `sign-in by ${config.authHeader.userHeader} from ${config.trustProxy}`);
  log.info(
    recorder!.priority() === "low"
      ? "recorder thread at low CPU priority (SCHED_IDLE; normal while it falls behind or a create waits for it)"
      : "recorder thread at normal CPU priority (lowering it needs CAP_SYS_NICE or LimitNICE=+0: docs/clicks.md: How clicks are counted)",
  );
  // Last: "listening on" is the readiness line that launchers and tests wait for, so every line
  // describing the start is already out when it appears.
  log.info(`listening on http://${server.hostname}:${server.port}`);
  if (welcome) log.info(nextStep({ baseUrl: config.baseUrl, host: config.host, port: server.port ?? config.port, database: config.dbPath, signIn: config.oidc !== null || config.authHeader !== null }));

  return await new Promise<number>((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info(`${signal}: stopping`);
      live.closeAll(); // open streams would hold the stop below for good
      await server.stop(false); // stop accepting, let in-flight requests finish
      // An import half-way is stopped: every page it wrote is committed with its place, and the
      // same import started again goes on from there.
      await deps.imports.stop();
      const { written, dropped } = await recorder!.close(); // writes every queued visit
      // After the recorder: its last batch's events are in the outbox, delivered after a restart.
      await relay?.stop();
      await delivery!.close();
      blocklist.stop();
      await presence?.stop();
      await storage.close();
      log.info("stopped", { visitsWritten: written, visitsDropped: dropped });
      resolve(0);
    };
    process.on("SIGHUP", () => {
      recorder!.reloadGeo();
      deps.clickFacts.reloadGeo();
      void blocklist.reload();
    });
    process.on("SIGTERM", () => void stop("SIGTERM"));
    process.on("SIGINT", () => void stop("SIGINT"));
  });
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
