// Visits to no link, as the click thread sees them (docs/statistics.md: Visits to no link): the
// root, an unknown alias, any other page not found, handed to the recorder as a click of no link
// (src/visits/orphans.ts). Nothing is worked out here: the raw facts go, the recorder classifies.
// Off (--orphan-visits off), nothing is handed over.

import type { ClickRecorder } from "../visits/recorder.ts";
import type { TrustedProxies } from "../visits/client-ip.ts";
import { ORPHAN_SEQ, orphanText, type OrphanType } from "../visits/orphans.ts";
import { peerAddress, type PeerServer } from "./request-origin.ts";
import { pathStart } from "./front-door.ts";
import { loggablePath } from "./shared-path.ts";
import type { ClickOptOuts } from "../visits/opt-outs.ts";

export type OrphanCounter = (request: Request, type: OrphanType, server?: PeerServer) => void;

// The socket of a request the door let in that is not a click (the app's handlers see the request
// only): the peer the recorder's country and trusted-proxy rule read.
const servers = new WeakMap<Request, PeerServer>();

/** Called by the door for a request that is not a click (never on the click path). */
export function rememberServer(request: Request, server: PeerServer): void {
  servers.set(request, server);
}

/**
 * `on`: --orphan-visits; `optOuts`: the click's opt-outs, which keep a visit to no link out as they
 * keep a click out (docs/statistics.md: Not counting some clicks); `now`: the service's clock.
 */
export function orphanCounter(on: boolean, recorder: Pick<ClickRecorder, "recordOrphan">, trusted: TrustedProxies, optOuts: Pick<ClickOptOuts, "skips">, now: () => number): OrphanCounter {
  if (!on) return () => {};
  return (request, type, server) => {
    // A HEAD is a check, not a visit (as a HEAD of a link spends no click).
    if (request.method !== "GET") return;
    const url = request.url;
    const start = pathStart(url);
    const query = url.indexOf("?", start === -1 ? 0 : start);
    if (optOuts.skips(query === -1 ? "" : url.slice(query + 1), { header: (name) => request.headers.get(name) }) !== null) return;
    // A share link's token is a credential: a path that holds one is kept without it, as it is logged.
    const path = loggablePath(start === -1 ? "/" : url.slice(start));
    const proxied = !trusted.empty;
    const forwardedFor = proxied ? request.headers.get("x-forwarded-for") : null;
    const socket = server ?? servers.get(request);
    recorder.recordOrphan({
      linkSeq: ORPHAN_SEQ,
      linkId: "",
      ts: now(),
      userAgent: request.headers.get("user-agent"),
      referer: request.headers.get("referer"),
      peer: socket === undefined ? "" : peerAddress(socket, request),
      forwardedFor,
      forwarded: proxied && forwardedFor === null ? request.headers.get("forwarded") : null,
      destination: null,
      route: orphanText(type, path),
    });
  };
}
