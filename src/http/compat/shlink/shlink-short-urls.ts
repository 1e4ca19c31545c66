// Shlink's short-URL routes (docs/shlink-api.md: Short URLs), translated to the links' operations
// (src/ops/links/), which decide who may see and change what and write the audit lines. A create
// key is Shlink's AUTHORED_SHORT_URLS role: another's link is short-url-not-found (contract D11).
// Paths as Shlink's docs/swagger/paths/v1_short-urls.json, v1_short-urls_{shortCode}.json and
// v1_short-urls_shorten.json give them.

import type { ShlinkShortUrlsList } from "@shlinkio/shlink-js-sdk/api-contract";
import type { Link } from "../../../links/link.ts";
import { getLink } from "../../../ops/links/get.ts";
import { countLinks, listLinks } from "../../../ops/links/list.ts";
import { removeLink } from "../../../ops/links/remove.ts";
import { shortUrlKey } from "./shlink-ids.ts";
import { shortUrlsAsk, type ShortUrlsAsk } from "./shlink-list-query.ts";
import { refusal } from "./shlink-ours.ts";
import { shlinkJson } from "./shlink-problem.ts";
import type { ShlinkCall, ShlinkRoute } from "./shlink-route.ts";
import { shortUrlShower } from "./shlink-short-url.ts";
import { createShortUrl, editShortUrl, idsOf, shortenUrl } from "./shlink-short-urls-write.ts";

/** Shlink's Pagination (docs/swagger/definitions/Pagination.json); at least one page, as its paginator counts. */
function pagination(ask: ShortUrlsAsk, total: number, inPage: number) {
  return { currentPage: ask.page, pagesCount: Math.max(1, Math.ceil(total / ask.itemsPerPage)), itemsPerPage: ask.itemsPerPage, itemsInCurrentPage: inPage, totalItems: total };
}

/** GET /short-urls: `{shortUrls: {data, pagination}}`, the key's own links (every link for an admin key). */
async function listShortUrls(call: ShlinkCall): Promise<Response> {
  const principal = call.principal!;
  const ask = shortUrlsAsk(call.query, principal, call.deps.directory);
  const show = shortUrlShower(call);
  if (show instanceof Response) return show;
  if (ask.nothing) return shlinkJson(200, { shortUrls: { data: [], pagination: pagination(ask, 0, 0) } });
  const counted = await countLinks(principal, ask.filter, call.deps);
  if (!counted.ok) return refusal(counted.problem);
  const total = counted.value.links;
  const offset = (ask.page - 1) * ask.itemsPerPage;
  let links: Link[] = [];
  // A page past the last one is empty, as Shlink's; the count says so without reading.
  if (offset < total) {
    const listed = await listLinks(principal, { ...ask.filter, sort: ask.sort, order: ask.order, limit: ask.itemsPerPage, cursor: null, offset, daily: false }, call.deps);
    if (!listed.ok) return refusal(listed.problem);
    links = listed.value.links;
  }
  const shortUrls = { data: links.map(show), pagination: pagination(ask, total, links.length) } satisfies ShlinkShortUrlsList;
  return shlinkJson(200, { shortUrls });
}

/** GET /short-urls/:shortCode: the ShortUrl, or short-url-not-found (unknown, or another's). */
async function getShortUrl(call: ShlinkCall): Promise<Response> {
  const ids = idsOf(call);
  const show = shortUrlShower(call);
  if (show instanceof Response) return show;
  const got = await getLink(call.principal!, { id: shortUrlKey(ids, call.deps.directory) }, call.deps);
  return got.ok ? shlinkJson(200, show(got.value)) : refusal(got.problem, ids);
}

/**
 * DELETE /short-urls/:shortCode: 204. Shlink refuses to delete a link past its visits threshold
 * (invalid-short-url-deletion, 422); we have no such threshold, so never (contract D5).
 */
async function deleteShortUrl(call: ShlinkCall): Promise<Response> {
  const ids = idsOf(call);
  const removed = await removeLink(call.principal!, { id: shortUrlKey(ids, call.deps.directory) }, call.deps);
  return removed.ok ? new Response(null, { status: 204 }) : refusal(removed.problem, ids);
}

export const SHORT_URL_ROUTES: readonly ShlinkRoute[] = [
  { method: "GET", path: "/short-urls", auth: "key", handle: listShortUrls },
  { method: "POST", path: "/short-urls", auth: "key", handle: createShortUrl },
  { method: "GET", path: "/short-urls/shorten", auth: "api-key-param", handle: shortenUrl },
  { method: "GET", path: "/short-urls/:shortCode", auth: "key", handle: getShortUrl },
  { method: "PATCH", path: "/short-urls/:shortCode", auth: "key", handle: editShortUrl },
  { method: "DELETE", path: "/short-urls/:shortCode", auth: "key", handle: deleteShortUrl },
];
