// The routes of statistics beyond one link's page (docs/statistics.md): a tag's, a domain's and
// compared statistics, exports of visits and of visits to no link, their summary, and share links.
// Each route says who may call it; the handlers decide nothing else about the request.

import { Elysia } from "elysia";
import type { PeerServer } from "./request-origin.ts";
import { handleCompareStats, handleDomainStats, handleTagStats, type AggregateHttpDeps } from "./stats-aggregate.ts";
import { handleOrphanSummary, type OrphanApiDeps } from "./orphan-visits-api.ts";
import { handleVisitExport, type VisitExportDeps } from "./visit-export.ts";
import { handleOrphanExport, type OrphanExportDeps } from "./orphan-visits-export.ts";
import { exportSlots } from "./export-slots.ts";
import { handleCreateShare, handleListShares, handleRevokeShare, handleSharedStats, type SharesDeps } from "./shares.ts";

/** What `handleSharedStats` needs, as the app passes it. */
type SharedDeps = Parameters<typeof handleSharedStats>[2];

export type StatisticsApiDeps = AggregateHttpDeps & OrphanApiDeps & VisitExportDeps & OrphanExportDeps & SharesDeps & SharedDeps;

/** The app's guard for its own routes (a key, session or proxy identity, found out by the handler). */
type Ours = (request: Request, server: PeerServer, answer: () => Promise<Response>) => Promise<Response> | Response;

export function statisticsApi(deps: StatisticsApiDeps, ours: Ours) {
  // The exports running, of a link's visits and of visits to no link together (docs/statistics.md: Exporting visits).
  const slots = exportSlots();
  return (
    new Elysia()
      // Above the single link: a key or a session, whatever --stats-access says (docs/statistics.md: Tags and domains).
      .get("/api/stats/tag", ({ request, server }) => ours(request, server, () => handleTagStats(request, server, deps)))
      .get("/api/stats/domain", ({ request, server }) => ours(request, server, () => handleDomainStats(request, server, deps)))
      .get("/api/stats/compare", ({ request, server }) => ours(request, server, () => handleCompareStats(request, server, deps)))
      // An export of visits (docs/statistics.md: Exporting visits): a key or session; the caller's own links, admins every link.
      .get("/api/visits/export", ({ request, server }) => ours(request, server, () => handleVisitExport(request, server, deps, slots)))
      // Visits to no link (docs/statistics.md: Visits to no link), their summary and their export: admins only.
      .get("/api/orphan-visits", ({ request, server }) => ours(request, server, () => handleOrphanSummary(request, server, deps)))
      .get("/api/orphan-visits/export", ({ request, server }) => ours(request, server, () => handleOrphanExport(request, server, deps, slots)))
      // Share links (docs/statistics.md: Sharing statistics): made by who may change the link; read with the token alone.
      .post("/api/links/:id/shares", ({ request, params, server }) => ours(request, server, () => handleCreateShare(request, params.id ?? "", server, deps)), { parse: "none" })
      .get("/api/links/:id/shares", ({ request, params, server }) => ours(request, server, () => handleListShares(request, params.id ?? "", server, deps)))
      .delete("/api/links/:id/shares/:share", ({ request, params, server }) => ours(request, server, () => handleRevokeShare(request, params.id ?? "", params.share ?? "", server, deps)), { parse: "none" })
      .get("/api/stats/shared/:token", ({ request, params }) => handleSharedStats(request, params.token ?? "", deps))
  );
}
