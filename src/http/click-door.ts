// The front door for clicks. A GET or HEAD of /<id> is the request that matters most, so it goes
// straight to the redirect handler; everything else is handed to the Elysia app. Elysia's per-request
// context costs about as much as the redirect itself (measured: 33k vs 31k redirects/s, raw vs routed).

import { isReserved, looksLikeId } from "../links/alias.ts";
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

/** A fetch handler: clicks answered here, the rest by `app`. */
export function withClickDoor(app: (request: Request) => Response | Promise<Response>, deps: RedirectDeps) {
  return (request: Request, server: PeerServer): Response | Promise<Response> => {
    // request.url builds a new string on every read: read it once for the id and the query.
    const url = request.url;
    const id = clickId(request.method, url);
    return id === null ? app(request) : handleRedirect(request, id, server, deps, url);
  };
}
