// The front door for clicks. A GET or HEAD of /<id> is the request that matters most, so it goes
// straight to the redirect handler; everything else is handed to the Elysia app. Elysia's per-request
// context costs about as much as the redirect itself (measured: 33k vs 31k redirects/s, raw vs routed).

import { isReserved, looksLikeId } from "../links/alias.ts";
import type { RequestMetrics } from "../metrics/requests.ts";
import type { RouteTable } from "./route-table.ts";
import { handleRedirect, type RedirectDeps } from "./redirect.ts";
import type { PeerServer } from "./request-origin.ts";

/** The link id of a GET/HEAD request's URL, or null when the request is for anything else. */
export function clickId(method: string, url: string): string | null {
  if (method !== "GET" && method !== "HEAD") return null;
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  if (pathStart === -1) return null;
  const query = url.indexOf("?", pathStart);
  const id = url.slice(pathStart + 1, query === -1 ? undefined : query);
  // Reserved words (api, health, stats, …) are pages, never links: let the app route them.
  return looksLikeId(id) && !isReserved(id) ? id : null;
}

/** A fetch handler: clicks answered here, the rest by `app`; each request counted for /metrics under its route's pattern. */
export function withClickDoor(app: (request: Request) => Response | Promise<Response>, routes: Pick<RouteTable, "routeOf">, deps: RedirectDeps & { requests: RequestMetrics }) {
  return (request: Request, server: PeerServer): Response | Promise<Response> => {
    const started = performance.now();
    // request.url builds a new string on every read: read it once for the id and the query.
    const url = request.url;
    const id = clickId(request.method, url);
    if (id !== null) {
      const response = handleRedirect(request, id, server, deps, url);
      if (response instanceof Promise) return answered(response, "/:id", started, deps.requests);
      deps.requests.observe("/:id", response.status, (performance.now() - started) / 1000);
      return response;
    }
    return answered(app(request), routes.routeOf(new URL(url).pathname), started, deps.requests);
  };
}

async function answered(pending: Response | Promise<Response>, route: string, started: number, requests: RequestMetrics): Promise<Response> {
  const response = await pending;
  requests.observe(route, response.status, (performance.now() - started) / 1000);
  return response;
}
