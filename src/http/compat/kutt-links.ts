// Kutt's link routes (docs/kutt-api.md: Links): POST, GET /api/v2/links and PATCH, DELETE
// /api/v2/links/<id>, translated to the links' operations (src/ops/links/), which decide who may
// do what and write the audit lines.

import { keyParts } from "../../domains/link-key.ts";
import type { Link } from "../../links/link.ts";
import type { Cursor } from "../../links/list.ts";
import { MAX_URL_LENGTH } from "../../links/url-rules.ts";
import { changeLink } from "../../ops/links/change.ts";
import { admitCreate, create } from "../../ops/links/create.ts";
import { namedDomain } from "../../ops/links/domain.ts";
import { countLinks, listLinks } from "../../ops/links/list.ts";
import { removeLink } from "../../ops/links/remove.ts";
import { reusableLink } from "../../ops/links/reuse.ts";
import { ownHostsOf } from "../destination-rules.ts";
import { linkPlace } from "../link-json.ts";
import { publicBase, requestClient, type PeerServer } from "../request-origin.ts";
import { json } from "../responses.ts";
import { storageUnavailable } from "../storage-failure.ts";
import { seqOfKuttId } from "./kutt-id.ts";
import { expiryOf, kuttBoolean, kuttError, kuttLink, kuttProblem, LINK_NOT_FOUND, UNAUTHORIZED, withProtocol } from "./kutt-json.ts";
import { kuttBody, kuttCaller, kuttPrincipal, type KuttDeps } from "./kutt-request.ts";
import { NO_HOST } from "./peer-failure.ts";

/** Kutt's page size: 10 unless asked, at most 50 (server/handlers/helpers.handler.js parseQuery). */
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;
/** How many links the list reads at a time to reach `skip` (the page asked for, at most 50, comes after). */
const WALK_PAGE = 200;

/** How this request shows a link: on its own domain's base, as our API does. */
function shower(request: Request, server: PeerServer, deps: KuttDeps): ((link: Link) => ReturnType<typeof kuttLink>) | null {
  const base = publicBase(deps.config, server, request, deps.trusted);
  return base === null ? null : (link) => kuttLink(link, linkPlace(link.domain, base, deps.directory).base);
}

// A field Kutt's validators skip when "falsy" (optional({ checkFalsy: true })): absent, null or "".
const given = (value: unknown) => value !== undefined && value !== null && value !== "";

/** The key of the link a Kutt id names; Kutt's 400 for an id that is no UUID, 404 for one of no link here. */
export async function addressedKey(id: string, deps: KuttDeps): Promise<string | Response> {
  if (id.length !== 36) return kuttError(400, "ID is invalid.");
  const seq = seqOfKuttId(id.toLowerCase());
  const key = seq === null ? null : await deps.links.keyOfSeq(seq);
  return key ?? kuttError(404, LINK_NOT_FOUND);
}

/** POST /api/v2/links: target, customurl, description, expire_in, password, reuse, domain (Kutt's links.handler.js create). */
export async function kuttCreate(request: Request, server: PeerServer, deps: KuttDeps): Promise<Response> {
  const caller = await kuttCaller(request, server, deps);
  if (!caller.ok) return caller.response;
  const actor = caller.principal;
  const admitted = admitCreate(actor, requestClient(server, request, deps.trusted), deps);
  if (!admitted.ok) return admitted.problem.code === "auth_required" ? kuttError(401, `${UNAUTHORIZED} Send it in the X-API-KEY header.`) : kuttProblem(admitted.problem);
  const show = shower(request, server, deps);
  if (show === null) return kuttError(400, NO_HOST);
  const body = await kuttBody(request);
  if (!body.ok) return body.response;
  const f = body.fields;
  const reuse = given(f.reuse) ? kuttBoolean(f.reuse) : false;
  if (reuse === null) return kuttError(400, "Reuse must be boolean.");
  const fields: Record<string, unknown> = { url: withProtocol(f.target) };
  if (given(f.customurl)) fields.custom_url = f.customurl;
  if (given(f.description)) fields.title = f.description;
  if (given(f.password)) fields.password = f.password;
  if (given(f.domain)) fields.domain = f.domain;
  if (given(f.expire_in)) {
    const expiry = expiryOf(f.expire_in, deps.now());
    if (!expiry.ok) return kuttError(400, expiry.error);
    fields.expires_at = new Date(expiry.at).toISOString();
  }
  const base = publicBase(deps.config, server, request, deps.trusted)!;
  const input = { fields, ownHosts: ownHostsOf(deps, base, request, server) };
  if (reuse && actor !== null) {
    const domain = namedDomain(given(f.domain) ? f.domain : null, deps.directory);
    const found = domain.ok ? await reusableLink(actor, { url: fields.url, domain: domain.value.key, ownHosts: input.ownHosts }, deps) : null;
    if (found !== null) return json(200, show(found));
  }
  const created = await create(actor, input, deps).catch((err: unknown) => storageUnavailable(err, deps.log, "creating a link"));
  if (created instanceof Response) return created;
  return created.ok ? json(201, show(created.value)) : kuttProblem(created.problem);
}

/** Kutt's whole numbers of a query (parseInt, then its defaults): a number, or the default. */
function whole(text: string | null, fallback: number): number {
  const n = Number.parseInt(text ?? "", 10);
  return Number.isNaN(n) || n === 0 ? fallback : n;
}

/**
 * GET /api/v2/links?limit&skip&search: `{limit, skip, total, data}`, newest first. A create key
 * sees its own links, an admin key every link (with or without `all`, Kutt's admins' switch).
 * `total` is counted by reading the matching links a thousand at a time.
 */
export async function kuttList(request: Request, server: PeerServer, deps: KuttDeps): Promise<Response> {
  const auth = await kuttPrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const query = new URL(request.url).searchParams;
  const asked = whole(query.get("limit"), DEFAULT_LIMIT);
  const limit = asked < 1 ? DEFAULT_LIMIT : Math.min(asked, MAX_LIMIT);
  const skip = Math.max(0, whole(query.get("skip"), 0));
  const search = query.get("search") || null;
  if (search !== null && search.length > MAX_URL_LENGTH) return kuttError(400, "search query is not valid.");
  const show = shower(request, server, deps);
  if (show === null) return kuttError(400, NO_HOST);
  const counted = await countLinks(auth.principal, { ownerName: null, q: search, tag: null, domain: null, status: null }, deps);
  if (!counted.ok) return kuttProblem(counted.problem);
  // Kutt pages by skip: the links before it are read and passed over, up to skip + limit, never more.
  const read: Link[] = [];
  let cursor: Cursor | null = null;
  while (read.length < skip + limit && skip < counted.value.links) {
    const page = Math.min(WALK_PAGE, skip + limit - read.length);
    const listed = await listLinks(auth.principal, { ownerName: null, q: search, tag: null, domain: null, status: null, sort: "createdAt", order: "desc", limit: page, cursor, daily: false }, deps);
    if (!listed.ok) return kuttProblem(listed.problem);
    read.push(...listed.value.links);
    cursor = listed.value.next;
    if (cursor === null) break;
  }
  return json(200, { limit, skip, total: counted.value.links, data: read.slice(skip, skip + limit).map(show) });
}

/**
 * PATCH /api/v2/links/<id>: target, description, expire_in, password (Kutt's links.handler.js
 * edit). Absent or "" leaves a field as it is; null clears description and expire_in; password ""
 * or null removes the password, one of only "•" (Kutt's form's mask) keeps it. `address` may only
 * name the alias the link has: our links keep their alias.
 */
export async function kuttPatch(request: Request, id: string, server: PeerServer, deps: KuttDeps): Promise<Response> {
  const auth = await kuttPrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const key = await addressedKey(id, deps);
  if (key instanceof Response) return key;
  const show = shower(request, server, deps);
  if (show === null) return kuttError(400, NO_HOST);
  const body = await kuttBody(request);
  if (!body.ok) return body.response;
  const f = body.fields;
  if (given(f.address) && f.address !== keyParts(key).alias) return kuttError(400, "address cannot be changed here: a link keeps its alias (make a new link for another).");
  const changes: Record<string, unknown> = {};
  if (given(f.target)) changes.url = withProtocol(f.target);
  if (f.description === null || given(f.description)) changes.title = f.description;
  if (f.expire_in === null) changes.expiresAt = null;
  else if (given(f.expire_in)) {
    const expiry = expiryOf(f.expire_in, deps.now());
    if (!expiry.ok) return kuttError(400, expiry.error);
    changes.expiresAt = new Date(expiry.at).toISOString();
  }
  if (f.password === null || f.password === "") changes.password = null;
  else if (f.password !== undefined && !(typeof f.password === "string" && /^•+$/.test(f.password))) changes.password = f.password;
  if (Object.keys(changes).length === 0) return kuttError(400, "Should at least update one field.");
  const ownHosts = ownHostsOf(deps, publicBase(deps.config, server, request, deps.trusted)!, request, server);
  const changed = await changeLink(auth.principal, { id: key, changes, ownHosts }, deps).catch((err: unknown) => storageUnavailable(err, deps.log, "updating a link"));
  if (changed instanceof Response) return changed;
  return changed.ok ? json(200, show(changed.value)) : kuttProblem(changed.problem);
}

/** DELETE /api/v2/links/<id>: Kutt's `{message}` (its links.handler.js remove). */
export async function kuttDelete(request: Request, id: string, server: PeerServer, deps: KuttDeps): Promise<Response> {
  const auth = await kuttPrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const key = await addressedKey(id, deps);
  if (key instanceof Response) return key;
  const removed = await removeLink(auth.principal, { id: key }, deps).catch((err: unknown) => storageUnavailable(err, deps.log, "deleting a link"));
  if (removed instanceof Response) return removed;
  return removed.ok ? json(200, { message: "Link has been deleted successfully." }) : kuttProblem(removed.problem);
}
