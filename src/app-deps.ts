// The HTTP application's parts, built from the configuration and what main has opened and started
// (docs/architecture.md: Composition roots). One function, used by main's serve() and by the
// in-process tests (test/support/in-process.ts), so that a test's app is wired as the service's.

import type { AppDeps } from "./app.ts";
import type { Config } from "./config.ts";
import type { Storage } from "./db/storage.ts";
import type { LiveHub } from "./events/live-hub.ts";
import type { WebhookLeave } from "./events/webhook-leave.ts";
import { createHeaderIdentity } from "./auth/header-identity.ts";
import { createOidcClient } from "./auth/oidc.ts";
import { AUTH_FAILURES_PER_MINUTE } from "./http/auth.ts";
import { createClickFactsSource } from "./http/click-facts.ts";
import { createLastResort } from "./http/front-door.ts";
import { createPasswordGuard } from "./http/link-password.ts";
import { notFoundAnswers } from "./http/not-found.ts";
import { orphanCounter } from "./http/orphan-visits.ts";
import { createRateLimiter } from "./http/rate-limit.ts";
import type { ImportJobs } from "./imports/jobs.ts";
import type { BlocklistFile } from "./links/blocklist-file.ts";
import type { Logger } from "./log.ts";
import { createRequestMetrics } from "./metrics/requests.ts";
import { VERSION } from "./version.ts";
import { DomainDirectory } from "./domains/directory.ts";
import { EVERY_LINK } from "./links/store.ts";
import { baseHostOf } from "./domains/domain.ts";
import { parseTrustedProxies } from "./visits/client-ip.ts";
import { createTitleFetcher, type TitleFetcher } from "./links/title-fetcher.ts";
import { fetchPageTitle } from "./outbound/page-title.ts";
import { QR_RENDERS_PER_MINUTE } from "./http/qr.ts";
import { readQrLogo, type QrLogo } from "./qr/logo.ts";
import { createClickOptOuts } from "./visits/opt-outs.ts";

/** What main opened and started before the app: the database, the threads' clients, the live view. */
export type StartedParts = {
  storage: Storage;
  recorder: AppDeps["recorder"];
  blocklist: BlocklistFile;
  imports: ImportJobs;
  live: LiveHub;
  /** the delivery thread: webhooks changed here (their wants are read again), a poke to deliver, whether webhooks may leave */
  webhooks: { changed(): Promise<void>; poke(): void; leave(): Promise<WebhookLeave> };
  /** --qr-logo as main read it before opening anything (src/qr/logo.ts); absent: read here */
  qrLogo?: QrLogo | null;
};

/** Secrets main read from the systemd credentials: the admin key's hash, the OpenID client's secret. */
export type Secrets = { credentialHash: Uint8Array | null; oidcSecret: string | null };

export function appDeps(config: Config, log: Logger, secrets: Secrets, parts: StartedParts): AppDeps {
  const { storage, blocklist } = parts;
  // --trust-proxy, parsed once for everything that believes forwarded headers.
  const trusted = parseTrustedProxies(config.trustProxy);
  const notFound = notFoundAnswers(config);
  const optOuts = createClickOptOuts(config.optOuts);
  const countOrphan = orphanCounter(config.orphanVisits, parts.recorder, trusted, optOuts, Date.now);
  const baseHost = baseHostOf(config.baseUrl);
  const titles = titleFetcher(config, storage.links, log);
  return {
    config,
    storage,
    links: storage.links,
    lister: storage.lister,
    stats: storage.stats,
    keys: storage.keys,
    sessions: storage.sessions,
    shares: storage.shares,
    users: storage.users,
    domains: storage.domains,
    oidc: config.oidc === null ? null : createOidcClient({ ...config.oidc, clientSecret: secrets.oidcSecret }),
    headerIdentity: config.authHeader === null ? null : createHeaderIdentity(config.authHeader, trusted),
    overview: storage.overview,
    visitPages: storage.visitPages,
    visitExport: storage.visitExport,
    orphans: storage.orphans,
    dailyCounts: storage.dailyCounts,
    credentialHash: secrets.credentialHash,
    authFailures: createRateLimiter(AUTH_FAILURES_PER_MINUTE),
    blocklist: () => blocklist.current(),
    metricsAllow: config.metricsAllow === "off" ? null : parseTrustedProxies(config.metricsAllow),
    requests: createRequestMetrics(),
    recorder: parts.recorder,
    imports: parts.imports,
    clickFacts: createClickFactsSource({ trusted, geoipDb: config.geoipDb, salts: storage.salts, log }),
    events: storage.events,
    webhooksChanged: () => parts.webhooks.changed(),
    pokeDelivery: () => parts.webhooks.poke(),
    webhookLeave: () => parts.webhooks.leave(),
    live: parts.live,
    ...(titles === null ? {} : { titles }),
    passwords: createPasswordGuard(),
    notFound: notFound.link,
    // Any other page not found is a visit to no link (docs/statistics.md: Visits to no link).
    pageNotFound: (request) => {
      countOrphan(request, "regular_404");
      return notFound.page(request);
    },
    countOrphan,
    directory: domainDirectory(baseHost, parts),
    trusted,
    limiter: createRateLimiter(config.createRateLimit),
    qrLogo: parts.qrLogo !== undefined ? parts.qrLogo : readQrLogo(config.qrLogo),
    qrRenders: createRateLimiter(QR_RENDERS_PER_MINUTE),
    optOuts,
    log,
    // One for every surface: each failure it answers has its own request id (docs/security.md: Security).
    lastResort: createLastResort(log),
    version: VERSION,
    now: Date.now,
  };
}

/**
 * --fetch-titles (docs/link-titles.md: Link titles): off, none; on, through the outbound policy
 * that refuses special-purpose addresses; any, through one that lets them through.
 */
function titleFetcher(config: Config, links: StartedParts["storage"]["links"], log: Logger): TitleFetcher | null {
  if (config.fetchTitles === "off") return null;
  const policy = { allowSpecial: config.fetchTitles === "any", flag: "--fetch-titles any" };
  const userAgent = `shortener/${VERSION} (link titles)`;
  return createTitleFetcher({ fetchTitle: (url) => fetchPageTitle(url, { policy, userAgent }), store: links, log });
}

/**
 * The domains in memory. A host whose links moved to another key (a rename, a move, a new default)
 * makes the link cache and the live streams keyed by the old one go; a change of every link heard
 * from another instance (PostgreSQL's notice of a domain change) reads the domains again at once.
 */
function domainDirectory(baseHost: string | null, { storage, live }: StartedParts): DomainDirectory {
  const directory = new DomainDirectory(baseHost, () => storage.domains.settings(), () => {
    storage.links.forget(EVERY_LINK);
    live.linksMoved();
  });
  storage.links.onChange((id) => {
    if (id !== EVERY_LINK) return;
    // A read that fails keeps what was known; the next request's refresh tries again.
    try {
      void Promise.resolve(directory.reload()).catch(() => {});
    } catch {}
  });
  return directory;
}
