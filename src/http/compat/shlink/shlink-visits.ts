// Shlink's visits routes (docs/shlink-api.md: Visits; Shlink docs/swagger/paths/v2_visits.json,
// v1_short-urls_{shortCode}_visits.json, v2_tags_{tag}_visits.json, v2_domains_{domain}_visits.json,
// v2_visits_orphan.json, v2_visits_non-orphan.json). Pages come from src/ops/stats/visits.ts, read
// off the click thread; orphan visits (to no link): shlink-orphans.ts.

import type { ShlinkVisitsOverview } from "@shlinkio/shlink-js-sdk/api-contract";
import { getLink } from "../../../ops/links/get.ts";
import { readVisits, visitsOverview, type VisitsOf } from "../../../ops/stats/visits.ts";
import { linkPlace } from "../../link-json.ts";
import { publicBase } from "../../request-origin.ts";
import { DEFAULT_DOMAIN } from "../../../domains/domain.ts";
import { domainParam, notFound, shortUrlKey } from "./shlink-ids.ts";
import { refusal } from "./shlink-ours.ts";
import { problemDocument, ShlinkProblem, shlinkJson } from "./shlink-problem.ts";
import type { ShlinkCall, ShlinkRoute } from "./shlink-route.ts";
import { pagination, visitsJson, visitsParams } from "./shlink-visit.ts";
import { ORPHAN_ROUTES } from "./shlink-orphans.ts";
import { orphanSummary, seesOrphans } from "../../../ops/orphans/read.ts";

/**
 * A page of visits of `of`, in Shlink's list shape. Each domain's short URL base goes with the
 * read, so that SQLite's reader thread writes the page's text where it reads the rows
 * (docs/performance.md: Downloading a link's visits); a source that does not (PostgreSQL) answers
 * the rows, written here with the same code (shlink-visit-json.ts).
 */
async function visitsPage(call: ShlinkCall, of: VisitsOf, notFound: (field: string | undefined) => ShlinkProblem | null): Promise<Response> {
  const params = visitsParams(call.query);
  const { deps } = call;
  const base = publicBase(deps.config, call.server, call.request, deps.trusted) ?? new URL(call.request.url).origin;
  const bases: Record<string, string> = { [DEFAULT_DOMAIN]: linkPlace(DEFAULT_DOMAIN, base, deps.directory).base };
  for (const entry of deps.directory.all()) bases[entry.key] = linkPlace(entry.key, base, deps.directory).base;
  const writing = { shlink: { bases } };
  const input = { of, fromTs: params.fromTs, toTs: params.toTs, excludeBots: params.excludeBots, offset: (params.page - 1) * params.itemsPerPage, limit: params.itemsPerPage, writing };
  const read = await readVisits(call.principal!, input, deps);
  if (!read.ok) {
    const mapped = read.problem.code === "not_found" ? notFound(read.problem.field) : null;
    if (mapped !== null) throw mapped;
    return refusal(read.problem);
  }
  const { written, visits, links, total } = read.value;
  const shortUrls = written === undefined ? new Map(links.map((l) => [l.seq, `${linkPlace(l.domain, base, deps.directory).base}/${l.alias}`])) : null;
  const data = written?.bytes ?? visitsJson(visits.map((v) => ({ visit: v.visit, shortUrl: shortUrls?.get(v.linkSeq) ?? "" })));
  const paging = pagination(params.page, params.itemsPerPage, written?.count ?? visits.length, total);
  // The page's text as written, not built again as objects nor copied into one string (shlinkJson's headers).
  return new Response(new Blob(['{"visits":{"data":', data, `,"pagination":${JSON.stringify(paging)}}}`]), { status: 200, headers: { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff" } });
}

/** A domain named by a path or `domain` parameter as its stored key; "DEFAULT" (or the default's name) is the default. */
function storedDomain(call: ShlinkCall, value: string | null): string | null {
  if (value === null || value === "") return null;
  const name = domainParam(value, call.deps.directory);
  if (name === null) return DEFAULT_DOMAIN;
  const entry = call.deps.directory.byName(name);
  if (entry === null) throw new ShlinkProblem("domain-not-found", `Domain with authority "${name}" could not be found`, { authority: name });
  return entry.key;
}

/** Every visit to no link, counted (an admin's; another key sees none: src/ops/orphans/read.ts). */
async function orphanTotals(call: ShlinkCall) {
  if (!seesOrphans(call.principal!)) return { total: 0, humans: 0, bots: 0 };
  const read = await orphanSummary(call.principal!, { fromDay: "0000-01-01", toDay: "9999-12-31", excludeBots: false }, call.deps);
  return read.ok ? read.value.counts : { total: 0, humans: 0, bots: 0 };
}

function shortUrlIds(call: ShlinkCall) {
  return { shortCode: call.params.shortCode!, domain: domainParam(call.query.get("domain"), call.deps.directory) };
}

export const VISITS_ROUTES: readonly ShlinkRoute[] = [
  {
    method: "GET",
    path: "/visits",
    auth: "key",
    async handle(call) {
      const totals = await visitsOverview(call.principal!, call.deps);
      if (!totals.ok) return refusal(totals.problem);
      const { total, humans } = totals.value;
      const orphans = await orphanTotals(call);
      const visits = {
        nonOrphanVisits: { total, nonBots: humans, bots: total - humans },
        orphanVisits: { total: orphans.total, nonBots: orphans.humans, bots: orphans.bots },
      } satisfies ShlinkVisitsOverview;
      return shlinkJson(200, { visits });
    },
  },
  ...ORPHAN_ROUTES,
  {
    method: "GET",
    path: "/visits/non-orphan",
    auth: "key",
    handle: (call) => visitsPage(call, { every: true, domain: storedDomain(call, call.query.get("domain")) }, () => null),
  },
  {
    method: "GET",
    path: "/short-urls/:shortCode/visits",
    auth: "key",
    handle: (call) => {
      const ids = shortUrlIds(call);
      return visitsPage(call, { link: shortUrlKey(ids, call.deps.directory) }, () => notFound(ids));
    },
  },
  {
    method: "DELETE",
    path: "/short-urls/:shortCode/visits",
    auth: "key",
    async handle(call) {
      // We keep a link's statistics for its life: no operation deletes its visits, and we do not pretend to.
      const ids = shortUrlIds(call);
      const found = await getLink(call.principal!, { id: shortUrlKey(ids, call.deps.directory) }, call.deps);
      if (!found.ok) return refusal(found.problem, ids);
      return problemDocument(409, "urn:shortener:error:visits_kept", "Visits are kept", "This server keeps a short URL's visits for its life: they cannot be deleted (deleting the short URL deletes them).");
    },
  },
  {
    method: "GET",
    path: "/tags/:tag/visits",
    auth: "key",
    handle: (call) => {
      const tag = call.params.tag!;
      return visitsPage(call, { tag, domain: storedDomain(call, call.query.get("domain")) }, (field) =>
        field === "tag" ? new ShlinkProblem("tag-not-found", `Tag with name "${tag}" could not be found`, { tag }) : null);
    },
  },
  {
    method: "GET",
    path: "/domains/:domain/visits",
    auth: "key",
    handle: (call) => visitsPage(call, { domain: storedDomain(call, call.params.domain!)! }, () => null),
  },
];
