// Share links over HTTP (docs/statistics.md: Sharing statistics). Management, for whoever may change
// the link: POST|GET /api/links/<id>/shares[?domain=], DELETE /api/links/<id>/shares/<shareId>.
// Public, the token the only credential: GET /api/stats/shared/<token> (the JSON of GET /api/stats)
// and the page /stats/shared/<token>. A token that opens nothing is answered as GET /api/stats?id=<token>
// answers an unknown link, so an answer never tells a revoked or expired token from a guess.

import { keyOf } from "../ops/links/domain.ts";
import { createShare } from "../ops/shares/create.ts";
import type { ShareOpsDeps } from "../ops/shares/deps.ts";
import { listShares } from "../ops/shares/list.ts";
import { admitSharedReader, readSharedStats, type SharedStatsDeps } from "../ops/shares/read.ts";
import { revokeShare } from "../ops/shares/revoke.ts";
import type { Share } from "../stats/shares.ts";
import { SHARED_PAGE_PATH } from "./shared-path.ts";
import { requirePrincipal, type AuthDeps } from "./auth.ts";
import { changesBody } from "./links.ts";
import { problemResponse } from "./problems.ts";
import { publicBase, type PeerServer } from "./request-origin.ts";
import { badHost, json, linkNotFound } from "./responses.ts";
import { statsAnswer, statsFilter, type StatsDeps } from "./stats.ts";
import { linkBase } from "./stats-link.ts";
import { storageUnavailable } from "./storage-failure.ts";
import type { WebDeps } from "./web.ts";

export type SharesDeps = AuthDeps & ShareOpsDeps & Pick<StatsDeps, "directory">;
type SharedPageDeps = SharedStatsDeps & Pick<StatsDeps, "directory"> & Pick<AuthDeps, "config" | "trusted">;

/** A share as the API shows it; `url` (it holds the token) only when it is made. */
export function shareJson(share: Share): { id: number; label: string; createdAt: string; expiresAt: string | null; lastUsedAt: string | null } {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return { id: share.id, label: share.label, createdAt: iso(share.createdAt)!, expiresAt: iso(share.expiresAt), lastUsedAt: iso(share.lastUsedAt) };
}

/** The link's key from the path's id and ?domain=, or the refusal of an unknown domain. */
function pathKey(request: Request, id: string, deps: SharesDeps): string | Response {
  const key = keyOf(id, new URL(request.url).searchParams.get("domain"), deps.directory);
  return key.ok ? key.value : problemResponse(key.problem);
}

export async function handleCreateShare(request: Request, id: string, server: PeerServer, deps: SharesDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return badHost();
  const key = pathKey(request, id, deps);
  if (key instanceof Response) return key;
  // No body at all is a share with no label and no expiry.
  const body = request.headers.get("content-length") === "0" || request.body === null ? { value: {} } : await changesBody(request);
  if (body instanceof Response) return body;
  const made = await createShare(auth.principal, { id: key, body: body.value }, deps).catch((err: unknown) => storageUnavailable(err, deps.log, "making a share link"));
  if (made instanceof Response) return made;
  if (!made.ok) return problemResponse(made.problem);
  const { token, share } = made.value;
  return json(201, { success: true, data: { ...shareJson(share), token, url: `${base}${SHARED_PAGE_PATH}${token}` } });
}

export async function handleListShares(request: Request, id: string, server: PeerServer, deps: SharesDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const key = pathKey(request, id, deps);
  if (key instanceof Response) return key;
  const listed = await listShares(auth.principal, { id: key }, deps);
  return listed.ok ? json(200, { success: true, data: { shares: listed.value.map(shareJson) } }) : problemResponse(listed.problem);
}

export async function handleRevokeShare(request: Request, id: string, shareId: string, server: PeerServer, deps: SharesDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const key = pathKey(request, id, deps);
  if (key instanceof Response) return key;
  const revoked = await revokeShare(auth.principal, { id: key, shareId }, deps).catch((err: unknown) => storageUnavailable(err, deps.log, "revoking a share link"));
  if (revoked instanceof Response) return revoked;
  return revoked.ok ? json(200, { success: true, data: revoked.value }) : problemResponse(revoked.problem);
}

/** GET /api/stats/shared/<token>[?from&to&bots]: the shape of GET /api/stats, whatever --stats-access says. */
export async function handleSharedStats(request: Request, token: string, deps: SharedStatsDeps & Pick<StatsDeps, "directory">): Promise<Response> {
  const filter = statsFilter(new URL(request.url).searchParams, deps.now());
  if (filter instanceof Response) return filter;
  const read = await readSharedStats(token, filter, deps);
  return read === "not_found" ? linkNotFound(token) : statsAnswer(read, deps.directory);
}

/** The shared page's verdict: the link's stats page as a stranger sees it, or "not_found" (src/http/web.ts). */
export async function sharedPageVerdict(request: Request, server: PeerServer, token: string, deps: SharedPageDeps): ReturnType<WebDeps["sharedStatsPage"]> {
  const admitted = await admitSharedReader(token, deps);
  if (admitted === "not_found") return admitted;
  const { link, destinations } = admitted;
  // The short URL on the link's own domain: the page is on the service's origin, whatever the link's.
  const domain = deps.directory.byKey(link.domain);
  const base = domain === null ? null : linkBase(domain, () => publicBase(deps.config, server, request, deps.trusted));
  return { id: link.id, destinationHidden: !destinations, createdAt: link.createdAt, shortUrl: base === null ? null : `${base}/${link.id}` };
}
