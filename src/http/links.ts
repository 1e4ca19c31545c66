// The management API: GET /api/links, GET|PATCH|DELETE /api/links/<id>. Every route needs a key;
// a create key sees and changes only its own links (another's link is a 404, never a 403 that
// would confirm it exists). Each action is one log line: key name, action, id, result.

import type { Config } from "../config.ts";
import { pickLanguage } from "../lang.ts";
import { looksLikeId } from "../links/alias.ts";
import type { Blocklist } from "../links/blocklist.ts";
import { parseChanges } from "../links/changes.ts";
import { hashBehaviour } from "../links/behaviour.ts";
import type { Link } from "../links/link.ts";
import { encodeCursor, type LinkLister } from "../links/list.ts";
import type { LinkStore } from "../links/store.ts";
import type { ClickRecorder } from "../visits/recorder.ts";
import { OVERVIEW_DAYS, type DailyCounts } from "../stats/overview.ts";
import { requirePrincipal, type AuthDeps } from "./auth.ts";
import { maySee, ownerFilter, type Principal } from "../auth/policy.ts";
import { mediaType, MAX_BODY_BYTES, readBodyText, wellFormedText } from "./form-body.ts";
import { linkJson } from "./link-json.ts";
import { parseListQuery } from "./link-query.ts";
import { publicBase, type PeerServer } from "./request-origin.ts";
import { destinationRules } from "./destination-rules.ts";
import { apiError, badHost, fieldErrors, json, linkNotFound } from "./responses.ts";
import { storageUnavailable } from "./storage-failure.ts";
import { logAction } from "./audit.ts";

export type LinksDeps = AuthDeps & {
  config: Config;
  links: LinkStore;
  lister: LinkLister;
  /** clicks per day of the last days, per link id (stats/overview.ts) */
  dailyCounts: DailyCounts;
  blocklist: () => Blocklist;
  recorder: Pick<ClickRecorder, "hurry">;
};

/** How links are rendered for this request: its public base and the stats pages' language. */
export function linkRenderer(request: Request, server: PeerServer, deps: LinksDeps): ((link: Link) => ReturnType<typeof linkJson>) | null {
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return null;
  const lang = pickLanguage(request.headers.get("accept-language"));
  const now = deps.now();
  return (link) => linkJson(link, base, lang, now, deps.links.clicksAnswered(link.id));
}


export async function handleListLinks(request: Request, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const parsed = parseListQuery(new URL(request.url).searchParams);
  if (!parsed.ok) return fieldErrors([parsed.problem]);
  const render = linkRenderer(request, server, deps);
  if (render === null) return badHost();
  const { daily, ...params } = parsed.params;
  const now = deps.now();
  const page = await deps.lister.page({ ...params, owner: ownerFilter(auth.principal), now });
  const counts = daily ? await deps.dailyCounts(page.links.map((l) => l.id), now, OVERVIEW_DAYS) : null;
  const links = page.links.map((l) => (counts ? { ...render(l), daily: counts.get(l.id) ?? [] } : render(l)));
  logAction(deps.log, auth.principal, "list", null, `ok ${page.links.length}`);
  return json(200, { success: true, data: { links, nextCursor: page.next === null ? null : encodeCursor(page.next) } });
}

/** The link a key may see, or null (unknown, malformed, or another key's). */
export async function visibleLink(id: string, principal: Principal, deps: Pick<LinksDeps, "links">): Promise<Link | null> {
  const link = looksLikeId(id) ? await deps.links.get(id) : null;
  return link !== null && maySee(principal, link) ? link : null;
}

export async function handleGetLink(request: Request, id: string, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const render = linkRenderer(request, server, deps);
  if (render === null) return badHost();
  const link = await visibleLink(id, auth.principal, deps);
  logAction(deps.log, auth.principal, "get", id, link ? "ok" : "not_found");
  return link ? json(200, { success: true, data: render(link) }) : linkNotFound(id);
}

export async function handlePatchLink(request: Request, id: string, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const principal = auth.principal;
  const render = linkRenderer(request, server, deps);
  if (render === null) return badHost();
  if (mediaType(request) !== "application/json") return apiError(415, "unsupported_media_type", "send the changes as application/json");
  const body = await readBodyText(request, MAX_BODY_BYTES);
  if (!body.ok) return apiError(body.status, body.code, body.error);
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    return apiError(400, "bad_request", "the JSON body could not be parsed");
  }
  if (!wellFormedText(value)) return apiError(400, "bad_request", "the JSON body holds text that is not valid Unicode (a lone surrogate)");
  if ((await visibleLink(id, principal, deps)) === null) {
    logAction(deps.log, principal, "update", id, "not_found");
    return linkNotFound(id);
  }
  const rules = destinationRules(deps, publicBase(deps.config, server, request, deps.trusted)!, request, server);
  const parsed = parseChanges(value, { ...rules, now: deps.now() });
  if (!parsed.ok) {
    logAction(deps.log, principal, "update", id, "malformed" in parsed ? "bad_request" : parsed.problems[0]!.code);
    return "malformed" in parsed ? apiError(400, "bad_request", parsed.malformed) : fieldErrors(parsed.problems);
  }
  let updated: Link | null;
  try {
    // The store drops its cached entry before this returns: the next click uses the new values.
    const changes = { ...parsed.changes, ...(await hashBehaviour(parsed.behaviour)) };
    updated = await deps.links.update(id, changes);
  } catch (err) {
    logAction(deps.log, principal, "update", id, "storage_unavailable");
    return storageUnavailable(err, deps.log, "updating a link");
  }
  if (updated === null) return linkNotFound(id); // deleted in between
  logAction(deps.log, principal, "update", id, `ok ${[...Object.keys(parsed.changes), ...Object.keys(parsed.behaviour)].join(",")}`);
  return json(200, { success: true, data: render(updated) });
}

export async function handleDeleteLink(request: Request, id: string, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const principal = auth.principal;
  if ((await visibleLink(id, principal, deps)) === null) {
    logAction(deps.log, principal, "delete", id, "not_found");
    return linkNotFound(id);
  }
  let removed: boolean;
  try {
    removed = await deps.links.remove(id, deps.now());
  } catch (err) {
    logAction(deps.log, principal, "delete", id, "storage_unavailable");
    return storageUnavailable(err, deps.log, "deleting a link");
  }
  logAction(deps.log, principal, "delete", id, removed ? "ok" : "not_found");
  return removed ? json(200, { success: true, data: { id, deleted: true } }) : linkNotFound(id);
}
