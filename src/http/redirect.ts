// GET /<id>: the click. Answers from memory with a 302 and hands the click's raw facts to the recorder.

import type { Admission, LinkStore } from "../links/store.ts";
import { describeStorageFailure, isStorageFailure } from "../db/errors.ts";
import { unavailablePage } from "./unavailable.ts";
import { looksLikeId } from "../links/alias.ts";
import type { TrustedProxies } from "../visits/client-ip.ts";
import type { ClickRecorder } from "../visits/recorder.ts";
import { peerAddress, type PeerServer } from "./request-origin.ts";
import { notFoundPage } from "./not-found.ts";
import { gonePage } from "./gone.ts";
import { compileDestination, withClickQuery } from "../links/destination.ts";
import type { Logger } from "../log.ts";
import type { Blocklist } from "../links/blocklist.ts";

export type RedirectDeps = {
  links: LinkStore;
  recorder: Pick<ClickRecorder, "record">;
  trusted: TrustedProxies;
  now: () => number;
  log: Pick<Logger, "error">;
  /** --blocklist, for a Location that a click's query changed */
  blocklist: () => Pick<Blocklist, "matches" | "patterns">;
};

const CACHE_CONTROL = "no-store, max-age=0";

export function handleRedirect(request: Request, id: string, server: PeerServer, deps: RedirectDeps, requestUrl = request.url): Response | Promise<Response> {
  const click = request.method === "GET";
  const now = deps.now();
  if (!looksLikeId(id)) return notFoundPage();
  const admitted = deps.links.admit(id, click, now);
  // SQLite answers from the cache or a synchronous read: no promise on the way. A database behind
  // the network (PostgreSQL, on a cache miss or a click limit) answers later.
  if (admitted instanceof Promise) {
    return admitted.then(
      (a) => answer(a, request, id, server, deps, requestUrl, click, now),
      (err: unknown) => {
        if (!isStorageFailure(err)) throw err;
        deps.log.error("a click could not be looked up: storage unavailable", { id, cause: describeStorageFailure(err) });
        return unavailablePage();
      },
    );
  }
  return answer(admitted, request, id, server, deps, requestUrl, click, now);
}

function answer(admitted: Admission | null, request: Request, id: string, server: PeerServer, deps: RedirectDeps, requestUrl: string, click: boolean, now: number): Response | Promise<Response> {
  if (admitted === null) return notFoundPage();
  // Disabled, expired, blocked or deleted: 410, and not a click.
  if ("gone" in admitted) return gonePage(admitted.gone, request.headers.get("accept-language"));
  const destination = (admitted.compiled ??= compileDestination(admitted.url));
  const q = requestUrl.indexOf("?");
  const withQuery = q !== -1 && q < requestUrl.length - 1;
  const location = withQuery ? withClickQuery(destination, requestUrl.slice(q + 1)) : destination.location;
  // A click's query may add parameters the blocklist refuses (?url=https://phish…): the merged
  // Location is checked as a created URL would be. Only /regex/ entries can tell it from the link's
  // own URL (the host is the same), so a list without them, like plain clicks, costs nothing here.
  if (location !== destination.location) {
    const blocklist = deps.blocklist();
    if (blocklist.patterns > 0 && blocklist.matches(location)) return gonePage("blocked", request.headers.get("accept-language"));
  }
  // no-store: a browser that cached the 302 would skip us on the next click and it would go uncounted.
  const response = new Response(null, { status: 302, headers: { "Cache-Control": CACHE_CONTROL, Location: location } });
  // HEAD is what link checkers and previews send first: answer it, but it is not a click.
  if (click) {
    const headers = request.headers;
    // Forwarding headers matter only behind a trusted proxy; otherwise they are not even read.
    // X-Forwarded-For wins over Forwarded (client-ip.ts), so Forwarded is read only without it.
    const proxied = !deps.trusted.empty;
    const forwardedFor = proxied ? headers.get("x-forwarded-for") : null;
    const caughtUp = deps.recorder.record({
      linkId: id,
      ts: now,
      userAgent: headers.get("user-agent"),
      referer: headers.get("referer"),
      peer: peerAddress(server, request),
      forwardedFor,
      forwarded: proxied && forwardedFor === null ? headers.get("forwarded") : null,
      destination: destination.utm || (withQuery && requestUrl.includes("utm_", q)) ? location : null,
    });
    // The visit writer is far behind a database that answers: the click is queued, its answer waits (catch-up.ts).
    if (caughtUp !== undefined) return caughtUp.then(() => response);
  }
  return response;
}
