// GET /api/stats/live (docs/webhooks.md: Live view): a link's visits as they are written, by Server-Sent
// Events, under the same access rules as its statistics (a password-protected link's variant URLs
// named by label to anyone but its owner and admins, docs/security.md: Security); without an id, the clicks
// of every link the asker may see (the dashboard's live counter), which needs a key or a session.

import type { LiveHub } from "../events/live-hub.ts";
import type { LiveVisit } from "../events/live.ts";
import { variantLabels, visitWithoutDestination } from "../stats/hidden-destinations.ts";
import { MAX_STREAMS, MAX_STREAMS_PER_ADDRESS } from "../events/live-hub.ts";
import { admitStatsReader } from "../ops/stats/read.ts";
import { liveCounted } from "../ops/stats/live.ts";
import { requirePrincipal } from "./auth.ts";
import { statsAsker, type StatsDeps } from "./stats.ts";
import { requestClient, type PeerServer } from "./request-origin.ts";
import { apiError, linkNotFound } from "./responses.ts";
import { domainUnknown, statsLinkKey } from "./stats-link.ts";

export type LiveDeps = StatsDeps & { live: LiveHub };

/** The stream, or why the hub would not open one. */
function answer(opened: ReturnType<LiveHub["open"]>): Response {
  if (opened === "closed") return apiError(503, "storage_unavailable", "the service is stopping; reconnect in a moment", undefined, { "Retry-After": "5" });
  if (opened === "too_many") {
    return apiError(429, "too_many_streams", `too many live streams: at most ${MAX_STREAMS_PER_ADDRESS} from one address and ${MAX_STREAMS} in all; close one and try again`, undefined, { "Retry-After": "10" });
  }
  return opened;
}

export async function handleLive(request: Request, server: PeerServer, deps: LiveDeps): Promise<Response> {
  const id = new URL(request.url).searchParams.get("id")?.trim() ?? null;
  const address = requestClient(server, request, deps.trusted);
  if (id === null || id === "") return openOverview(request, server, deps, address, id === "");
  // The link on ?domain=, else on the request's own domain; the hub follows it by its key.
  const named = statsLinkKey(request, id, deps.directory);
  if (named === "domain_unknown") return domainUnknown();
  const decidedAt = deps.live.version();
  const asker = statsAsker(request, server, deps);
  const verdict = await admitStatsReader(named.key, asker.ask, deps);
  if (verdict === "not_found") return linkNotFound(id);
  if (typeof verdict === "string") return asker.refusal(verdict);
  const { link } = verdict;
  // A viewer not known to manage the link (its owner or an admin; with public statistics, the
  // viewers of a link without a password are not asked who they are) sees what it allows now: a
  // change to it (a password set, a split edited) ends their stream, and the page opens it again.
  const label = verdict.destinations ? null : variantLabels(link);
  const guarded = verdict.manages ? undefined : { shown: label === null ? null : (visit: LiveVisit) => visitWithoutDestination(visit, label), decidedAt };
  const shownAs = { id: link.id, domain: deps.directory.nameOf(link.domain) };
  return answer(deps.live.open({ address, linkId: named.key, shownAs, ready: { ...shownAs, totalClicks: link.totalClicks, humanClicks: link.humanClicks }, guarded }));
}

async function openOverview(request: Request, server: PeerServer, deps: LiveDeps, address: string, emptyId: boolean): Promise<Response> {
  if (emptyId) return apiError(400, "id_missing", "id is empty: leave it out for every link you may see, or name one", "id");
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  return answer(deps.live.open({ address, linkId: null, mayCount: liveCounted(auth.principal, deps), ready: {} }));
}
