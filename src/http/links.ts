// The management API: GET /api/links, GET|PATCH|DELETE /api/links/<id>, translated to the links'
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
import { linkJson } from "./link-json.ts";
import { parseListQuery } from "./link-query.ts";
import { problemResponse } from "./problems.ts";
import { publicBase, type PeerServer } from "./request-origin.ts";
import { apiError, badHost, fieldErrors, json } from "./responses.ts";
import { storageUnavailable } from "./storage-failure.ts";

export type LinksDeps = AuthDeps & Omit<LinkOpsDeps, "config" | "log" | "now"> & { config: Config };

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
  const listed = await listLinks(auth.principal, parsed.params, deps);
  if (!listed.ok) return problemResponse(listed.problem);
  const { daily, next } = listed.value;
  const links = listed.value.links.map((l) => (daily ? { ...render(l), daily: daily.get(l.id) ?? [] } : render(l)));
  return json(200, { success: true, data: { links, nextCursor: next === null ? null : encodeCursor(next) } });
}

export async function handleGetLink(request: Request, id: string, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const render = linkRenderer(request, server, deps);
  if (render === null) return badHost();
  const found = await getLink(auth.principal, { id }, deps);
  return found.ok ? json(200, { success: true, data: render(found.value) }) : problemResponse(found.problem);
}

export async function handlePatchLink(request: Request, id: string, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const render = linkRenderer(request, server, deps);
  if (render === null) return badHost();
  const body = await changesBody(request);
  if (body instanceof Response) return body;
  const ownHosts = ownHostsOf(deps, publicBase(deps.config, server, request, deps.trusted)!, request, server);
  const changed = await changeLink(auth.principal, { id, changes: body.value, ownHosts }, deps).catch((err: unknown) => storageUnavailable(err, deps.log, "updating a link"));
  if (changed instanceof Response) return changed;
  return changed.ok ? json(200, { success: true, data: render(changed.value) }) : problemResponse(changed.problem);
}

export async function handleDeleteLink(request: Request, id: string, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const removed = await removeLink(auth.principal, { id }, deps).catch((err: unknown) => storageUnavailable(err, deps.log, "deleting a link"));
  if (removed instanceof Response) return removed;
  return removed.ok ? json(200, { success: true, data: removed.value }) : problemResponse(removed.problem);
}

/** A PATCH body: JSON, within the size limit, its text valid Unicode; the refusal otherwise. */
async function changesBody(request: Request): Promise<{ value: unknown } | Response> {
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
