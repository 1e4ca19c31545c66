// The front door for clicks. A GET or HEAD of /<id> is the request that matters most, so it goes
// straight to the redirect handler; everything else is handed to the Elysia app. Elysia's per-request
// context costs about as much as the redirect itself (measured: 33k vs 31k redirects/s, raw vs routed).
// Every request first passes the Host check and, if not a click, the path check of front-door.ts;
// no request's error can escape (docs/security.md: Security, "Hostile requests").

import { isReserved, looksLikeId } from "../links/alias.ts";
import type { RequestMetrics } from "../metrics/requests.ts";
import type { RouteTable } from "./route-table.ts";
import { handleRedirect, type RedirectDeps } from "./redirect.ts";
import { peerAddress, type PeerServer } from "./request-origin.ts";
import type { DomainDirectory } from "../domains/directory.ts";
import { DEFAULT_DOMAIN } from "../domains/domain.ts";
import { hostDomain, isRestPath, misdirected, onlyOnMainDomain, rememberDomain, servedOnShortDomains } from "./request-domain.ts";
import { misdirectedRest, shlinkCors } from "./compat/shlink/shlink-cors.ts";
import type { CorsPolicy } from "./cors.ts";
import type { Config } from "../config.ts";
import { RequestClick } from "./click.ts";
import { badRequest, createHostCheck, pathStart, targetPath, type LastResort } from "./front-door.ts";
import { rememberServer } from "./orphan-visits.ts";

/** The link id of a GET/HEAD request's URL, or null when the request is for anything else. */
export function clickId(method: string, url: string): string | null {
  if (method !== "GET" && method !== "HEAD") return null;
  const start = pathStart(url);
  if (start === -1) return null;
  // A fragment is never part of a request target (RFC 9112 §3.2): such a request is the front
  // door's to refuse, not a click whose Location would carry it.
  if (url.includes("#", start)) return null;
  const query = url.indexOf("?", start);
  const id = url.slice(start + 1, query === -1 ? undefined : query);
  // Reserved words (api, health, stats, …) are pages, never links: let the app route them.
  return looksLikeId(id) && !isReserved(id) ? id : null;
}

export type ClickDoorDeps = RedirectDeps & {
  requests: RequestMetrics;
  /** the domains and the hosts they answer on (docs/several-domains.md: Hosts) */
  directory: DomainDirectory;
  /** any other unknown page (a management surface asked on a short domain) */
  pageNotFound: (request: Request) => Response;
  /** the host a request without a Host header is taken to name (front-door.ts) */
  ownHost: () => string;
  lastResort: LastResort;
  /** --compat and --cors-origin: a 421 under /rest carries the Shlink surface's CORS headers */
  config: Pick<Config, "compat" | "corsOrigins">;
};

/** A fetch handler: clicks answered here, the rest by `app`; each request counted for /metrics under its route's pattern. */
export function withClickDoor(app: (request: Request) => Response | Promise<Response>, routes: Pick<RouteTable, "routeOf">, deps: ClickDoorDeps) {
  const checkHost = createHostCheck(deps.ownHost);
  const lastResort = deps.lastResort;
  const directory = deps.directory;
  // The Shlink surface's CORS for its 421 under /rest, made on the first one.
  let restCors: CorsPolicy | undefined;
  const restMisdirected = (request: Request, path: string) => misdirectedRest(request, (restCors ??= shlinkCors(deps.config)), misdirected(path));
  return (request: Request, server: PeerServer): Response | Promise<Response> => {
    const started = performance.now();
    try {
      const admitted = checkHost(request);
      if (admitted instanceof Response) return observed(admitted, "other", started, deps.requests);
      request = admitted;
      const now = deps.now();
      directory.refreshIfStale(now);
      // request.url builds a new string on every read: read it once for the id and the click.
      const url = request.url;
      const id = clickId(request.method, url);
      if (id !== null) {
        const click = new RequestClick(request, id, server, now, url);
        // One domain (none configured): the alias is the link's key, and nothing more is asked.
        if (directory.configured && !onItsDomain(click, deps)) return observed(misdirected(null), "other", started, deps.requests);
        const response = handleRedirect(click, deps);
        if (response instanceof Promise) return answered(response, "/:id", started, deps.requests, (e) => lastResort(e, request));
        return observed(response, "/:id", started, deps.requests);
      }
      const path = targetPath(url);
      if (path === null) return observed(badRequest("the request target is not a path in its normal form"), "other", started, deps.requests);
      rememberServer(request, server); // its peer, should it be a visit to no link (orphan-visits.ts)
      if (directory.configured) {
        const refused = domainRefusal(request, server, path, deps, restMisdirected);
        if (refused !== null) return observed(refused, "other", started, deps.requests);
      }
      return answered(app(request), routes.routeOf(path), started, deps.requests, (e) => lastResort(e, request));
    } catch (error) {
      return observed(lastResort(error, request), "other", started, deps.requests);
    }
  };
}

/** The click's domain found from its host and its key made from it; false for a host no domain has. */
function onItsDomain(click: RequestClick, deps: ClickDoorDeps): boolean {
  const domain = hostDomain(click.request, click, deps.trusted, deps.directory);
  if (domain === null) return false;
  click.onDomain(domain);
  return true;
}

/** Why a request that is not a click is not let in: a host no domain has, or a main-domain page asked on a short domain; null when it is. */
function domainRefusal(request: Request, server: PeerServer, path: string, deps: ClickDoorDeps, restMisdirected: (request: Request, path: string) => Response): Response | null {
  const domain = hostDomain(request, { peer: () => peerAddress(server, request) }, deps.trusted, deps.directory);
  if (domain === null) return isRestPath(path) && deps.config.compat.shlink ? restMisdirected(request, path) : misdirected(path);
  if (domain.key !== DEFAULT_DOMAIN && !servedOnShortDomains(path)) return onlyOnMainDomain(path, () => deps.pageNotFound(request));
  rememberDomain(request, domain);
  return null;
}

function observed(response: Response, route: string, started: number, requests: RequestMetrics): Response {
  requests.observe(route, response.status, (performance.now() - started) / 1000);
  return response;
}

async function answered(pending: Response | Promise<Response>, route: string, started: number, requests: RequestMetrics, lastResort: (error: unknown) => Response): Promise<Response> {
  let response: Response;
  try {
    response = await pending;
  } catch (error) {
    response = lastResort(error);
  }
  return observed(response, route, started, requests);
}
