// GET /api/overview: the dashboard's figures above the list, for the links the key may see.

import type { OverviewReader } from "../stats/overview.ts";
import { requirePrincipal, type AuthDeps } from "./auth.ts";
import { ownerFilter } from "../auth/policy.ts";
import { logAction } from "./audit.ts";
import type { PeerServer } from "./request-origin.ts";
import { json } from "./responses.ts";

export type OverviewDeps = AuthDeps & { overview: OverviewReader };

export async function handleOverview(request: Request, server: PeerServer, deps: OverviewDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const data = await deps.overview(ownerFilter(auth.principal), deps.now());
  logAction(deps.log, auth.principal, "overview", null, "ok");
  return json(200, { success: true, data });
}
