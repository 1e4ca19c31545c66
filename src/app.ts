// Builds the HTTP application from its parts without listening, so tests and main share it.

import { handleImportJob, handleStartImport } from "./http/imports.ts";
import { handleCreateWebhook, handleDeleteWebhook, handleDeliveries, handleGetWebhook, handleListWebhooks, handlePatchWebhook, handleRedeliver } from "./http/webhooks.ts";
import { handleLive } from "./http/live.ts";
import { handleAddDomain, handleCertificateAsk, handleDeleteDomain, handleListDomains, handlePatchDomain } from "./http/domains.ts";
import type { EventStore } from "./events/store.ts";
import type { LiveHub } from "./events/live-hub.ts";
import type { ImportJobs } from "./imports/jobs.ts";
import { Elysia } from "elysia";
import type { Config } from "./config.ts";
import type { Storage } from "./db/storage.ts";
import type { Logger } from "./log.ts";
import type { LastResort } from "./http/front-door.ts";
import type { Blocklist } from "./links/blocklist.ts";
import type { TitleFetcher } from "./links/title-fetcher.ts";
import type { TrustedProxies } from "./visits/client-ip.ts";
import type { ClickRecorder } from "./visits/recorder.ts";
import type { RateLimiter } from "./http/rate-limit.ts";
import { handleCreate } from "./http/create.ts";
import { handleStats, statsAsker } from "./http/stats.ts";
import { admitStatsReader } from "./ops/stats/read.ts";
import { linkBase, statsLinkKey } from "./http/stats-link.ts";
import { handlePasswordForm, handleRedirect } from "./http/redirect.ts";
import { RequestClick } from "./http/click.ts";
import { isReserved, looksLikeId } from "./links/alias.ts";
import type { ClickFactsSource } from "./http/click-facts.ts";
import type { PasswordGuard } from "./http/link-password.ts";
import { handleHealth } from "./http/health.ts";
import { handleDeleteLink, handleGetLink, handleListLinks, handlePatchLink } from "./http/links.ts";
import { handleExport, handleImport } from "./http/links-transfer.ts";
import { handleOverview } from "./http/overview.ts";
import { handleMetrics } from "./http/metrics.ts";
import type { RequestMetrics } from "./metrics/requests.ts";
import { handleSignIn, handleSignOut, handleWhoAmI } from "./http/session.ts";
import { handleOidcCallback, handleOidcStart, OIDC_CALLBACK_PATH } from "./http/oidc.ts";
import type { OidcClient } from "./auth/oidc.ts";
import type { HeaderIdentity } from "./auth/header-identity.ts";
import { apiError, misdirected, NOSNIFF } from "./http/responses.ts";
import { addressedToUs, publicBase, type PeerServer } from "./http/request-origin.ts";
import { describeStorageFailure, isStorageFailure } from "./db/errors.ts";
import { webRoutes, type WebDeps } from "./http/web.ts";
import { yourlsApi } from "./http/compat/yourls.ts";
import { routeTable, type RouteTable } from "./http/route-table.ts";
import type { WebhookLeave } from "./events/webhook-leave.ts";
import { requestDomain } from "./http/request-domain.ts";
import { robotsPolicy, rootAnswer } from "./domains/answers.ts";
import type { OrphanCounter } from "./http/orphan-visits.ts";
import { kuttApi } from "./http/compat/kutt.ts";
import { shlinkApi } from "./http/compat/shlink/shlink.ts";
import { SHLINK_ROUTES } from "./http/compat/shlink/shlink-routes.ts";
import type { DomainDirectory, DomainEntry } from "./domains/directory.ts";
import { handleQr } from "./http/qr.ts";
import type { QrLogo } from "./qr/logo.ts";
import type { ClickOptOuts } from "./visits/opt-outs.ts";
import { sharedPageVerdict } from "./http/shares.ts";
import { statisticsApi } from "./http/statistics-api.ts";
import { loggablePath } from "./http/shared-path.ts";

/** The database's parts (links, lister, stats, keys, sessions, overview, daily counts), and the rest. */
export type AppDeps = Pick<Storage, "links" | "lister" | "stats" | "keys" | "sessions" | "users" | "overview" | "dailyCounts" | "domains" | "visitPages" | "visitExport" | "orphans" | "shares"> & {
  config: Config;
  /** the database itself, for /health and /metrics (the parts come from it too) */
  storage: Pick<Storage, "engine" | "ping" | "size" | "domains">;
  /** SHA-256 of the systemd credential admin-key, if there is one */
  credentialHash: Uint8Array | null;
  /** sign-in through the OpenID provider (--oidc-issuer), or null */
  oidc: OidcClient | null;
  /** identities a trusted proxy puts in headers (--auth-header), or null */
  headerIdentity: HeaderIdentity | null;
  /** failed authentication attempts per client address */
  authFailures: RateLimiter;
  blocklist: () => Blocklist;
  /** who may read /metrics without an admin key; null = nobody */
  metricsAllow: TrustedProxies | null;
  requests: RequestMetrics;
  recorder: Pick<ClickRecorder, "record" | "stats" | "recordOrphan">;
  /** the dashboard's imports from other shorteners, on a thread of their own */
  imports: ImportJobs;
  /** webhooks and their delivery log; what they want; the delivery thread's poke (docs/webhooks.md: Webhooks) */
  events: EventStore;
  /** Webhooks were changed here: the events they want are read again (and written from the next change on). */
  webhooksChanged: () => Promise<void>;
  pokeDelivery: () => void;
  /** whether webhooks may post to special-purpose addresses, with the reason when not (src/events/webhook-leave.ts) */
  webhookLeave: () => Promise<WebhookLeave>;
  /** the live view's streams (docs/webhooks.md: Live view) */
  live: LiveHub;
  /** titles fetched for links created without one (--fetch-titles; docs/link-titles.md: Link titles); absent when off */
  titles?: TitleFetcher;
  /** what redirect rules read about a click, and the guard on link passwords */
  clickFacts: ClickFactsSource;
  passwords: PasswordGuard;
  /** an unknown short link: --not-found-redirect, or the 404 page (not-found.ts) */
  notFound: (request: Request, domain?: DomainEntry | null) => Response;
  /** a visit to no link handed to the recorder (src/http/orphan-visits.ts; docs/statistics.md: Visits to no link) */
  countOrphan: OrphanCounter;
  /** the domains and the hosts they answer on, in memory (docs/several-domains.md: Several domains) */
  directory: DomainDirectory;
  /** any other unknown page: the 404 page */
  pageNotFound: (request: Request) => Response;
  trusted: TrustedProxies;
  limiter: RateLimiter;
  /** --qr-logo, read at start (src/qr/logo.ts), and the QR codes drawn per address (docs/sharing.md: QR codes by URL) */
  qrLogo: QrLogo | null;
  qrRenders: RateLimiter;
  /** --no-count-param, --do-not-track: clicks answered but not recorded, and how many (docs/statistics.md: Not counting some clicks) */
  optOuts: ClickOptOuts;
  log: Logger;
  /** the answer to an error no handler caught (src/http/front-door.ts) */
  lastResort: LastResort;
  version: string;
  now: () => number;
};

/** Whether a request is sent to this service by name; the answer when it is, else 421. */
type Ours = (request: Request, server: PeerServer, answer: () => Promise<Response>) => Promise<Response> | Response;

export function createApp(deps: AppDeps) {
  // Built on the first request, then kept: it depends only on the code and the version. Not at
  // the start, nor its module loaded: its 1.6 MB (3.3 MB as a string of UTF-16) would be most of
  // an idle service's heap (docs/performance.md: At rest); kept as UTF-8 bytes.
  let openApi: Promise<Uint8Array<ArrayBuffer>> | null = null;
  const openApiBytes = () =>
    (openApi ??= import("./http/openapi/document.ts").then(({ openApiDocument }) => new TextEncoder().encode(JSON.stringify(openApiDocument(deps.version)))));
  // The app's own route list says which methods a path takes (read on first use: after the routes).
  let routeList: () => readonly { method: string; path: string }[] = () => [];
  let routes: RouteTable | null = null;
  // The management API and /metrics answer only a request sent to this service by name (with
  // --base-url): a page whose own DNS name points here (DNS rebinding) gets 421 (docs/security.md: Security).
  const ours: Ours = (request, server, answer) => (addressedToUs(deps.config, server, request, deps.trusted) ? answer() : misdirected());
  // standardHostname off: the router cuts the path at the first "/" after "http://", as the front
  // door does (src/http/front-door.ts). On, it skips 11 characters, and with `Host: x` it answered
  // `/zz/metrics` as `/metrics`.
  const app = new Elysia({ handler: { standardHostname: false } })
    // Every answer of the app is nosniff; the JSON ones have it already (responses.ts), the
    // rest (openapi.json, /metrics, an export, robots.txt, redirects) get it here.
    .mapResponse({ as: "global" }, ({ responseValue }) => {
      if (responseValue instanceof Response && !responseValue.headers.has("x-content-type-options")) {
        responseValue.headers.set("X-Content-Type-Options", NOSNIFF["X-Content-Type-Options"]);
      }
    })
    .onError(({ code, error, request }) => answerError(code, error, request, deps))
    .use(linkApi(deps, ours))
    .use(adminApi(deps, ours))
    .get("/api/openapi.json", async () => new Response(await openApiBytes(), { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache" } }))
    .use(sessionApi(deps, ours))
    .use(statisticsApi(deps, ours))
    .use(yourlsApi(deps, ours))
    .use(kuttApi(deps, ours))
    .use(shlinkApi(deps, ours, SHLINK_ROUTES))
    .all("/api/*", ({ request }) => {
      const path = new URL(request.url).pathname;
      const allow = (routes ??= routeTable(routeList())).allowed(path);
      if (allow) return apiError(405, "method_not_allowed", `${path} accepts ${allow} only`, undefined, { Allow: allow });
      return apiError(404, "not_found", `no API endpoint ${path}`);
    })
    // "/api" itself would otherwise reach the /:id route (GET routes are matched before ALL ones).
    .get("/api", () => apiError(404, "not_found", "no API endpoint /api"))
    .all("/api", () => apiError(404, "not_found", "no API endpoint /api"))
    .get("/health", () => handleHealth(deps))
    .get("/metrics", ({ request, server }) => ours(request, server, () => handleMetrics(request, server, deps)))
    .use(
      webRoutes({
        statsPage: (request, server, id) => statsPageVerdict(request, server, id, deps),
        statsPublic: () => deps.config.statsAccess === "public",
        sharedStatsPage: (request, server, token) => sharedPageVerdict(request, server, token, deps),
        now: deps.now,
        version: deps.version,
        root: (request) => {
          const answer = rootAnswer(requestDomain(request, deps.directory), deps.config.rootRedirect, deps.directory.defaultDomain);
          // A visit to the root (docs/statistics.md: Visits to no link); "none" is answered by the not-found page, which counts itself.
          if (answer !== "none") deps.countOrphan(request, "base_url");
          return answer;
        },
        robots: (request) => {
          const domain = requestDomain(request, deps.directory);
          return { key: domain.key, policy: robotsPolicy(domain) };
        },
        notFound: deps.pageNotFound,
        crawlable: () => deps.links.crawlable(),
      }),
    )
    // A link's QR code (docs/sharing.md: QR codes by URL); GET routes come before /api/*'s ALL one, so /api/qr is refused here.
    .get("/:id/qr", ({ request, params, server }) => {
      if (looksLikeId(params.id) && !isReserved(params.id)) return handleQr(request, params.id, server, deps);
      return params.id.toLowerCase() === "api" ? apiError(404, "not_found", "no API endpoint /api/qr") : deps.pageNotFound(request);
    })
    // What the click door passed over (it checked the id already): an id here may be anything.
    .get("/:id", ({ request, params, server }) => (looksLikeId(params.id) ? handleRedirect(appClick(request, params.id, server, deps), deps) : notAnId(request, server, deps)))
    // A password-protected link's form posts here (link-password.ts).
    .post("/:id", ({ request, params, server }) => (looksLikeId(params.id) ? handlePasswordForm(appClick(request, params.id, server, deps), deps) : deps.notFound(request, requestDomain(request, deps.directory))), { parse: "none" });
  routeList = () => app.routes;
  return app;
}

/** The answer to an error no route answered itself: an unknown route, a database away, a body unread, our bug. */
function answerError(code: string | number, error: unknown, request: Request, deps: AppDeps): Response {
  // The front door let only parsable URLs in; still, this handler must never throw itself.
  const path = loggablePath(URL.parse(request.url)?.pathname ?? "(unreadable)");
  if (code === "NOT_FOUND") return path.startsWith("/api/") ? apiError(404, "not_found", `no API endpoint ${path}`) : deps.pageNotFound(request);
  // The database cannot answer (a PostgreSQL server away, a disk gone): the operator's trouble
  // for a while, not a bug. Writes say so themselves (storage-failure.ts); this covers reads.
  if (isStorageFailure(error)) {
    deps.log.error("request failed: storage unavailable", { path, cause: describeStorageFailure(error) });
    return apiError(503, "storage_unavailable", "the database cannot be reached right now; try again later");
  }
  // The client's body did not parse: its trouble, said to it, not logged as ours.
  if (code === "PARSE" || code === "VALIDATION") return apiError(400, "bad_request", "the request could not be read");
  // Anything else reaching here is our bug, not the client's: logged under a request id, and
  // answered without details (docs/security.md: Security, "Hostile requests").
  return deps.lastResort(error, request);
}

/** Creating links, their statistics and live view, managing them (docs/managing-links.md: Managing links) and the overview. */
function linkApi(deps: AppDeps, ours: Ours) {
  return (
    new Elysia()
      .post("/api/create", ({ request, server }) => handleCreate(request, server, deps), { parse: "none" })
      .get("/api/stats", ({ request, server }) => handleStats(request, server, deps))
      // A link's live view follows its statistics' access; every link's needs a key (and our name).
      .get("/api/stats/live", ({ request, server }) =>
        new URL(request.url).searchParams.has("id") ? handleLive(request, server, deps) : ours(request, server, () => handleLive(request, server, deps)),
      )
      // Management: every route needs a key.
      .get("/api/links", ({ request, server }) => ours(request, server, () => handleListLinks(request, server, deps)))
      .get("/api/links/export", ({ request, server }) => ours(request, server, () => handleExport(request, server, deps)))
      .post("/api/links/import", ({ request, server }) => ours(request, server, () => handleImport(request, server, deps)), { parse: "none" })
      .get("/api/links/:id", ({ request, params, server }) => ours(request, server, () => handleGetLink(request, params.id ?? "", server, deps)))
      .patch("/api/links/:id", ({ request, params, server }) => ours(request, server, () => handlePatchLink(request, params.id ?? "", server, deps)), { parse: "none" })
      .delete("/api/links/:id", ({ request, params, server }) => ours(request, server, () => handleDeleteLink(request, params.id ?? "", server, deps)), { parse: "none" })
      .get("/api/overview", ({ request, server }) => ours(request, server, () => handleOverview(request, server, deps)))
  );
}

/** The admins' routes: imports from another shortener, webhooks and domains. */
function adminApi(deps: AppDeps, ours: Ours) {
  return (
    new Elysia()
      // Imports from another shortener (docs/importing.md: Moving from another shortener): admins only.
      .post("/api/imports", ({ request, server }) => ours(request, server, () => handleStartImport(request, server, deps)), { parse: "none" })
      .get("/api/imports/:id", ({ request, params, server }) => ours(request, server, () => handleImportJob(request, params.id ?? "", server, deps)))
      // Webhooks (docs/webhooks.md: Webhooks): admins only.
      .post("/api/webhooks", ({ request, server }) => ours(request, server, () => handleCreateWebhook(request, server, deps)), { parse: "none" })
      .get("/api/webhooks", ({ request, server }) => ours(request, server, () => handleListWebhooks(request, server, deps)))
      .get("/api/webhooks/:id", ({ request, params, server }) => ours(request, server, () => handleGetWebhook(request, params.id ?? "", server, deps)))
      .patch("/api/webhooks/:id", ({ request, params, server }) => ours(request, server, () => handlePatchWebhook(request, params.id ?? "", server, deps)), { parse: "none" })
      .delete("/api/webhooks/:id", ({ request, params, server }) => ours(request, server, () => handleDeleteWebhook(request, params.id ?? "", server, deps)), { parse: "none" })
      .get("/api/webhooks/:id/deliveries", ({ request, params, server }) => ours(request, server, () => handleDeliveries(request, params.id ?? "", server, deps)))
      .post("/api/webhooks/:id/deliveries/:delivery/redeliver", ({ request, params, server }) =>
        ours(request, server, () => handleRedeliver(request, params.id ?? "", params.delivery ?? "", server, deps)), { parse: "none" })
      // Domains (docs/several-domains.md: Managing domains): admins; the picker's list for creators.
      .get("/api/domains", ({ request, server }) => ours(request, server, () => handleListDomains(request, server, deps)))
      .post("/api/domains", ({ request, server }) => ours(request, server, () => handleAddDomain(request, server, deps)), { parse: "none" })
      // The certificate ask: no credentials, on whatever host the proxy asks under (its local address).
      .get("/api/domains/tls", ({ request }) => handleCertificateAsk(request, deps))
      .patch("/api/domains/:name", ({ request, params, server }) => ours(request, server, () => handlePatchDomain(request, params.name ?? "", server, deps)), { parse: "none" })
      .delete("/api/domains/:name", ({ request, params, server }) => ours(request, server, () => handleDeleteDomain(request, params.name ?? "", server, deps)), { parse: "none" })
  );
}

/** The dashboard's sign-in: a session cookie in place of the bearer key; and through the OpenID provider (docs/sign-in.md: Signing in). */
function sessionApi(deps: AppDeps, ours: Ours) {
  return new Elysia()
    .get("/api/session", ({ request, server }) => ours(request, server, () => handleWhoAmI(request, server, deps)))
    .post("/api/session", ({ request, server }) => ours(request, server, () => handleSignIn(request, server, deps)), { parse: "none" })
    .delete("/api/session", ({ request, server }) => ours(request, server, () => handleSignOut(request, server, deps)), { parse: "none" })
    .get("/api/session/oidc", ({ request, server }) => ours(request, server, () => handleOidcStart(request, server, deps)))
    .get(OIDC_CALLBACK_PATH, ({ request, server }) => ours(request, server, () => handleOidcCallback(request, server, deps)));
}

/** The stats page's verdict: the operation's (src/ops/stats/read.ts), in the page's words. */
async function statsPageVerdict(request: Request, server: PeerServer, id: string, deps: AppDeps): ReturnType<WebDeps["statsPage"]> {
  // The link on ?domain=, else on the domain the page is asked on (docs/api.md: Read statistics).
  const named = statsLinkKey(request, id, deps.directory);
  if (named === "domain_unknown") return "not_found";
  const asker = statsAsker(request, server, deps);
  const verdict = await admitStatsReader(named.key, asker.ask, deps);
  if (verdict === "not_found") return "not_found";
  if (typeof verdict === "object") {
    const base = linkBase(named.domain, () => publicBase(deps.config, server, request, deps.trusted));
    return { destinationHidden: !verdict.destinations, createdAt: verdict.link.createdAt, shortUrl: base === null ? null : `${base}/${verdict.link.id}` };
  }
  // Nobody known under --stats-access key, or a session ended: "private"; a proxy's bad header says so.
  return asker.headerRefused() ? "header_invalid" : "private";
}

/** A single-segment path that cannot be an alias: a page not found, counted as one (docs/statistics.md: Visits to no link). */
function notAnId(request: Request, server: PeerServer, deps: AppDeps): Response {
  deps.countOrphan(request, "regular_404", server);
  return deps.notFound(request, requestDomain(request, deps.directory));
}

/** A click the app answers (the password form's POST; a GET the door passed over), on the domain the door found. */
function appClick(request: Request, alias: string, server: PeerServer, deps: AppDeps): RequestClick {
  const click = new RequestClick(request, alias, server, deps.now());
  const domain = requestDomain(request, deps.directory);
  if (deps.directory.configured) click.onDomain(domain);
  return click;
}
