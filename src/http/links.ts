// The management API: GET /api/links, GET|PATCH|DELETE /api/links/<id>[?domain=<name>], translated to the links'
// operations (src/ops/links/): who is asking, the request read, the operation's answer written as
// JSON. Every route needs a key; what it may see and change, and the audit line, are the operations'.

import type { Config } from "../config.ts";
import { pickLanguage } from "../lang.ts";
import type { Link } from "../links/link.ts";
import { encodeCursor } from "../links/list.ts";
import { changeLink } from "../ops/links/change.ts";
import type { LinkOpsDeps } from "../ops/links/deps.ts";
import { getLink } from "../ops/links/get.ts";
import { listLinks } from "../ops/links/list.ts";
import { removeLink } from "../ops/links/remove.ts";
import { requirePrincipal, type AuthDeps } from "./auth.ts";
import { ownHostsOf } from "./destination-rules.ts";
import { mediaType, MAX_BODY_BYTES, readBodyText, wellFormedText } from "./form-body.ts";
import { linkJson, linkPlace } from "./link-json.ts";
import { linkKey } from "../domains/link-key.ts";
import { keyOf, namedDomain } from "../ops/links/domain.ts";
import { parseListQuery } from "./link-query.ts";
import { problemResponse } from "./problems.ts";
import { publicBase, type PeerServer } from "./request-origin.ts";
import { apiError, badHost, fieldErrors, json } from "./responses.ts";
import { storageUnavailable } from "./storage-failure.ts";

export type LinksDeps = AuthDeps & Omit<LinkOpsDeps, "config" | "log" | "now"> & { config: Config };

/** How links are rendered for this request: on their domains (the default's on its public base), with the stats pages' language. */
export function linkRenderer(request: Request, server: PeerServer, deps: LinksDeps): ((link: Link) => ReturnType<typeof linkJson>) | null {
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return null;
  const lang = pickLanguage(request.headers.get("accept-language"));
  const now = deps.now();
  return (link) => linkJson(link, linkPlace(link.domain, base, deps.directory), lang, now, deps.links.clicksAnswered(linkKey(link.domain, link.id)));
}

/** The key of the link a route names: its id in the path, its domain by `?domain=` (absent: the default). */
function addressedKey(request: Request, id: string, deps: LinksDeps): string | Response {
  const key = keyOf(id, new URL(request.url).searchParams.get("domain"), deps.directory);
  return key.ok ? key.value : problemResponse(key.problem);
}

export async function handleListLinks(request: Request, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const query = new URL(request.url).searchParams;
  const parsed = parseListQuery(query);
  if (!parsed.ok) return fieldErrors([parsed.problem]);
  // ?domain=<name>: that domain's links only; absent or empty, every domain's.
  const domain = query.get("domain") ? namedDomain(query.get("domain"), deps.directory) : null;
  if (domain !== null && !domain.ok) return problemResponse(domain.problem);
  const render = linkRenderer(request, server, deps);
  if (render === null) return badHost();
  const listed = await listLinks(auth.principal, { ...parsed.params, domain: domain?.value.key ?? null }, deps);
  if (!listed.ok) return problemResponse(listed.problem);
  const { daily, next } = listed.value;
  const links = listed.value.links.map((l) => (daily ? { ...render(l), daily: daily.get(linkKey(l.domain, l.id)) ?? [] } : render(l)));
  return json(200, { success: true, data: { links, nextCursor: next === null ? null : encodeCursor(next) } });
}

export async function handleGetLink(request: Request, id: string, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const render = linkRenderer(request, server, deps);
  if (render === null) return badHost();
  const key = addressedKey(request, id, deps);
  if (key instanceof Response) return key;
  const found = await getLink(auth.principal, { id: key }, deps);
  return found.ok ? json(200, { success: true, data: render(found.value) }) : problemResponse(found.problem);
}

export async function handlePatchLink(request: Request, id: string, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const render = linkRenderer(request, server, deps);
  if (render === null) return badHost();
  const key = addressedKey(request, id, deps);
  if (key instanceof Response) return key;
  const body = await changesBody(request);
  if (body instanceof Response) return body;
  const ownHosts = ownHostsOf(deps, publicBase(deps.config, server, request, deps.trusted)!, request, server);
  const changed = await changeLink(auth.principal, { id: key, changes: body.value, ownHosts }, deps).catch((err: unknown) => storageUnavailable(err, deps.log, "updating a link"));
  if (changed instanceof Response) return changed;
  return changed.ok ? json(200, { success: true, data: render(changed.value) }) : problemResponse(changed.problem);
}

export async function handleDeleteLink(request: Request, id: string, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const key = addressedKey(request, id, deps);
  if (key instanceof Response) return key;
  const removed = await removeLink(auth.principal, { id: key }, deps).catch((err: unknown) => storageUnavailable(err, deps.log, "deleting a link"));
  if (removed instanceof Response) return removed;
  return removed.ok ? json(200, { success: true, data: removed.value }) : problemResponse(removed.problem);
}

/** A PATCH body (and a share's: src/http/shares.ts): JSON, within the size limit, its text valid Unicode; the refusal otherwise. */
export async function changesBody(request: Request): Promise<{ value: unknown } | Response> {
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
  return { value };
}
