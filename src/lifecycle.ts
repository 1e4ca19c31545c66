// The running service after start-up (docs/architecture.md: Composition roots): its start-up log,
// the signals it answers, and the stop in order. main.ts's serve() starts the parts and hands them here.

import type { AppDeps } from "./app.ts";
import type { Config } from "./config.ts";
import type { Secrets } from "./app-deps.ts";
import type { LiveRelay, Storage } from "./db/storage.ts";
import { describeLocation } from "./db/storage.ts";
import type { LiveHub } from "./events/live-hub.ts";
import type { Presence } from "./instances/presence.ts";
import { openBlocklistFile, type BlocklistFile } from "./links/blocklist-file.ts";
import { BlocklistError } from "./links/blocklist.ts";
import type { LinkStore } from "./links/store.ts";
import { QrLogoError, readQrLogo, type QrLogo } from "./qr/logo.ts";
import type { Logger } from "./log.ts";
import type { DeliveryThread } from "./threads/delivery/client.ts";
import type { ClickRecorder } from "./threads/recorder/client.ts";
import { nextStep } from "./cli/next-step.ts";
import { versionLine } from "./version.ts";

/** What serve() opened before the threads: the database, the blocklist, the QR logo, the live view's hub. */
export type Opened = { storage: Storage; blocklist: BlocklistFile; qrLogo: QrLogo | null; live: LiveHub };

/**
 * The files flags name, read at start: --blocklist (kept up to date) and --qr-logo (docs/sharing.md:
 * QR codes by URL); or what is wrong with one, for the operator.
 */
export async function openFlagFiles(config: Config, links: LinkStore, log: Logger): Promise<{ blocklist: BlocklistFile; qrLogo: QrLogo | null } | string> {
  let qrLogo;
  try {
    qrLogo = readQrLogo(config.qrLogo);
  } catch (err) {
    if (err instanceof QrLogoError) return err.message;
    throw err;
  }
  try {
    return { blocklist: await openBlocklistFile(config.blocklist, links, log), qrLogo };
  } catch (err) {
    return `--blocklist ${config.blocklist}: ${err instanceof BlocklistError ? err.message : err instanceof Error ? err.message : String(err)}`;
  }
}

/** The threads and what they keep up to date: the recorder, webhook delivery, what webhooks want. */
export type Threads = { recorder: ClickRecorder; delivery: DeliveryThread };

/** The start-up log: what runs, how, and last the readiness line. */
export function logStart(config: Config, log: Logger, secrets: Secrets, recorder: ClickRecorder, server: ReturnType<typeof Bun.serve>, welcome: boolean): void {
  log.info(versionLine());
  log.info(`database ${describeLocation(config.dbPath)}`);
  log.info(`geoip ${recorder.geoSource}, built ${recorder.geoBuildDate}`);
  log.info(`base url ${config.baseUrl ?? "(from each request's Host header)"}`);
  log.info(`create access ${config.createAccess}, stats access ${config.statsAccess}${secrets.credentialHash ? ", admin key from the systemd credential" : ""}`);
  if (config.oidc !== null) log.info(`sign-in through ${config.oidc.issuer} (client ${config.oidc.clientId}, ${secrets.oidcSecret === null ? "public client" : "client secret set"}; admins: ${config.oidc.adminGroup ? `group ${config.oidc.adminGroup}` : "the first user"})`);
  if (config.fetchTitles !== "off") log.info(`link titles fetched from their pages (${config.fetchTitles === "any" ? "any address, --fetch-titles any" : "public addresses only"})`);
  if (config.authHeader !== null) log.info(config.authHeader.kind === "tailscale" ? "sign-in by Tailscale-User-Login from loopback (tailscale serve)" : `sign-in by ${config.authHeader.userHeader} from ${config.trustProxy}`);
  log.info(
    recorder.priority() === "low"
      ? "recorder thread at low CPU priority (SCHED_IDLE; normal while it falls behind or a create waits for it)"
      : "recorder thread at normal CPU priority (lowering it needs CAP_SYS_NICE or LimitNICE=+0: docs/clicks.md: How clicks are counted)",
  );
  // Last: "listening on" is the readiness line that launchers and tests wait for, so every line
  // describing the start is already out when it appears.
  log.info(`listening on http://${server.hostname}:${server.port}`);
  if (welcome) log.info(nextStep({ baseUrl: config.baseUrl, host: config.host, port: server.port ?? config.port, database: config.dbPath, signIn: config.oidc !== null || config.authHeader !== null }));
}

/** Everything serve() runs, for the stop; `relay` read at the stop (PostgreSQL's, or none). */
export type Running = Opened & Threads & { deps: AppDeps; server: ReturnType<typeof Bun.serve>; presence: Presence; relay: () => LiveRelay | null };

/** Until SIGTERM or SIGINT (SIGHUP reloads the GeoIP database and the --blocklist); then the stop, and 0. */
export function untilStopped(log: Logger, running: Running): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info(`${signal}: stopping`);
      const { written, dropped } = await stopInOrder(running);
      log.info("stopped", { visitsWritten: written, visitsDropped: dropped });
      resolve(0);
    };
    process.on("SIGHUP", () => {
      running.recorder.reloadGeo();
      running.deps.clickFacts.reloadGeo();
      void running.blocklist.reload();
    });
    process.on("SIGTERM", () => void stop("SIGTERM"));
    process.on("SIGINT", () => void stop("SIGINT"));
  });
}

/**
 * The stop, in this order (test/integration/lifecycle.test.ts, test/hardening/crash.test.ts): no
 * new requests and the running ones finished, title fetches let go, then the import, the recorder (every queued visit
 * written), the relay, the delivery thread, and last the database.
 */
async function stopInOrder(running: Running): Promise<{ written: number; dropped: number }> {
  running.live.closeAll(); // open streams would hold the stop below for good
  await running.server.stop(false); // stop accepting, let in-flight requests finish
  running.deps.titles?.close(); // a title is a nicety: nothing waits for the fetches (docs/link-titles.md: How a title is fetched)
  // An import half-way is stopped: every page it wrote is committed with its place, and the
  // same import started again goes on from there.
  await running.deps.imports.stop();
  const written = await running.recorder.close(); // writes every queued visit
  // After the recorder: its last batch's events are in the outbox, delivered after a restart.
  await running.relay()?.stop();
  await running.delivery.close();
  running.blocklist.stop();
  await running.presence.stop();
  await running.storage.close();
  return written;
}

