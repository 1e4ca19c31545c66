// GET /api/stats/tag, /api/stats/domain and /api/stats/compare (docs/api.md: Tag, domain and
// compared statistics): the request read, the operation (src/ops/stats/aggregate.ts) called, its
// answer written. They need a key or a session, whatever --stats-access says.

import { compareStats, readAggregateStats, type AggregateDeps } from "../ops/stats/aggregate.ts";
import { TAG_PATTERN } from "../links/options.ts";
import type { DomainDirectory } from "../domains/directory.ts";
import { requirePrincipal, type AuthDeps } from "./auth.ts";
import { problemResponse } from "./problems.ts";
import type { PeerServer } from "./request-origin.ts";
import { apiError, json } from "./responses.ts";
import { statsFilter } from "./stats.ts";
import { requestDomain } from "./request-domain.ts";
import { domainUnknown } from "./stats-link.ts";

export type AggregateHttpDeps = AuthDeps & AggregateDeps & { directory: DomainDirectory };

const badTag = (field: "tag" | "tags") => apiError(400, "tags_invalid", "a tag is 1 to 30 letters, digits, hyphens or underscores", field);

/** GET /api/stats/tag?tag=<name>[&domain=][&from&to&bots]: the tag's links' statistics summed. */
export async function handleTagStats(request: Request, server: PeerServer, deps: AggregateHttpDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const query = new URL(request.url).searchParams;
  const tag = query.get("tag")?.trim() ?? "";
  if (tag === "") return apiError(400, "bad_request", "the query parameter tag is required", "tag");
  if (!TAG_PATTERN.test(tag)) return badTag("tag");
  const filter = statsFilter(query, deps.now());
  if (filter instanceof Response) return filter;
  const domain = query.get("domain") || null;
  const read = await readAggregateStats(auth.principal, { tag, domain }, filter, deps);
  if (!read.ok) return problemResponse(read.problem);
  return json(200, { success: true, data: { tag, domain: domain === null ? null : deps.directory.nameOf(deps.directory.byName(domain)!.key), links: read.value.links, stats: read.value.stats } });
}

/**
 * GET /api/stats/domain[?domain=<name>][&from&to&bots]: the domain's links' statistics summed; without
 * a name (or empty), the domain the request is sent to, as GET /api/stats names a link's.
 */
export async function handleDomainStats(request: Request, server: PeerServer, deps: AggregateHttpDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const query = new URL(request.url).searchParams;
  const filter = statsFilter(query, deps.now());
  if (filter instanceof Response) return filter;
  const named = query.get("domain")?.trim() ?? "";
  const domain = named === "" ? requestDomain(request, deps.directory) : deps.directory.byName(named);
  if (domain === null) return domainUnknown();
  const read = await readAggregateStats(auth.principal, { domainKey: domain.key }, filter, deps);
  if (!read.ok) return problemResponse(read.problem);
  return json(200, { success: true, data: { domain: deps.directory.nameOf(domain.key), links: read.value.links, stats: read.value.stats } });
}

/** GET /api/stats/compare?ids=a,b[&domain=] or ?tags=x,y[&from&to&bots]: one series each. */
export async function handleCompareStats(request: Request, server: PeerServer, deps: AggregateHttpDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const query = new URL(request.url).searchParams;
  const ids = query.get("ids");
  const tags = query.get("tags");
  if ((ids === null) === (tags === null)) return apiError(400, "bad_request", "name either ids or tags (2 to 4, comma-separated)", ids === null ? "ids" : "tags");
  const names = (ids ?? tags ?? "").split(",").map((n) => n.trim()).filter((n) => n !== "");
  if (tags !== null && !names.every((n) => TAG_PATTERN.test(n))) return badTag("tags");
  const filter = statsFilter(query, deps.now());
  if (filter instanceof Response) return filter;
  const kind = ids !== null ? "link" : "tag";
  const read = await compareStats(auth.principal, { kind, names, domain: query.get("domain") || null }, filter, deps);
  if (!read.ok) return problemResponse(read.problem);
  return json(200, { success: true, data: { series: read.value } });
}
