// Shlink's orphan visits (docs/shlink-api.md: Visits; Shlink docs/swagger/paths/v2_visits_orphan.json,
// definitions/OrphanVisit.json: a Visit with visitedUrl and type base_url, invalid_short_url or
// regular_404; the SDK's ShlinkOrphanVisit). Visits to no link are an admin's
// (src/ops/orphans/read.ts): another key sees none of them, as if there were none, and its delete
// deletes none of them, as Shlink answers a key with its NO_ORPHAN_VISITS role.

import type { ShlinkOrphanVisit, ShlinkOrphanVisitType } from "@shlinkio/shlink-js-sdk/api-contract";
import { deleteOrphanVisits, orphanPage, seesOrphans } from "../../../ops/orphans/read.ts";
import { ORPHAN_TYPES, type OrphanType, type StoredOrphan } from "../../../visits/orphans.ts";
import { DIRECT } from "../../../visits/visit.ts";
import { publicBase } from "../../request-origin.ts";
import { refusal } from "./shlink-ours.ts";
import { invalidData, shlinkJson } from "./shlink-problem.ts";
import type { ShlinkCall, ShlinkRoute } from "./shlink-route.ts";
import { pagination, visitLocation, visitsParams } from "./shlink-visit.ts";
import { synthesizedUserAgent } from "./shlink-user-agent.ts";
import { atomTime } from "./shlink-time.ts";

/** One stored orphan visit; `base`: the service's URL the visited path is joined to (we keep no host). */
export function shlinkOrphanVisit(v: StoredOrphan, base: string): ShlinkOrphanVisit {
  const [ts, type, path, browser, os, device, country, referrer, isBot] = v;
  return {
    referer: referrer === DIRECT ? "" : referrer,
    date: atomTime(ts),
    userAgent: synthesizedUserAgent(browser, os, device),
    visitLocation: visitLocation(country),
    potentialBot: isBot === 1,
    visitedUrl: `${base}${path}`,
    redirectUrl: null, // as Shlink answers it for a visit it did not redirect (we keep no redirect of these)
    type: type satisfies ShlinkOrphanVisitType,
  };
}

function typeParam(call: ShlinkCall): OrphanType | null {
  const type = call.query.get("type");
  if (type === null || type === "") return null;
  if (!(ORPHAN_TYPES as readonly string[]).includes(type)) throw invalidData("type is base_url, invalid_short_url or regular_404", ["type"]);
  return type as OrphanType;
}

export const ORPHAN_ROUTES: readonly ShlinkRoute[] = [
  {
    method: "GET",
    path: "/visits/orphan",
    auth: "key",
    async handle(call) {
      const params = visitsParams(call.query);
      const type = typeParam(call);
      if (!seesOrphans(call.principal!)) return shlinkJson(200, { visits: { data: [], pagination: pagination(params.page, params.itemsPerPage, 0, 0) } });
      const q = { fromTs: params.fromTs, toTs: params.toTs, excludeBots: params.excludeBots, type, offset: (params.page - 1) * params.itemsPerPage, limit: params.itemsPerPage };
      const read = await orphanPage(call.principal!, q, call.deps);
      if (!read.ok) return refusal(read.problem);
      const base = publicBase(call.deps.config, call.server, call.request, call.deps.trusted) ?? new URL(call.request.url).origin;
      const data = read.value.visits.map((v) => shlinkOrphanVisit(v, base));
      return shlinkJson(200, { visits: { data, pagination: pagination(params.page, params.itemsPerPage, data.length, read.value.total) } });
    },
  },
  {
    method: "DELETE",
    path: "/visits/orphan",
    auth: "key",
    async handle(call) {
      // A key that sees no orphan visits deletes none, and is told so rather than refused: Shlink's
      // VisitsDeleter::deleteOrphanVisits answers 0 for a key with the NO_ORPHAN_VISITS role
      // (Shlink CHANGELOG 3.7.0, #1780), and its clients show that count (docs/shlink-api.md: Visits).
      if (!seesOrphans(call.principal!)) return shlinkJson(200, { deletedVisits: 0 });
      const deleted = await deleteOrphanVisits(call.principal!, call.deps);
      return deleted.ok ? shlinkJson(200, { deletedVisits: deleted.value }) : refusal(deleted.problem);
    },
  },
];
