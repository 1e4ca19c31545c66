// GET /api/overview[?domain=<name>]: the dashboard's figures above the list, for the links the key
// may see, of every domain or of one (src/ops/links/overview.ts).

import { linksOverview, type OverviewDomains } from "../ops/links/overview.ts";
import type { LinkOpsDeps } from "../ops/links/deps.ts";
import { requirePrincipal, type AuthDeps } from "./auth.ts";
import { problemResponse } from "./problems.ts";
import type { PeerServer } from "./request-origin.ts";
import { json } from "./responses.ts";

export type OverviewDeps = AuthDeps & Pick<LinkOpsDeps, "overview"> & { directory: OverviewDomains };

export async function handleOverview(request: Request, server: PeerServer, deps: OverviewDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const domain = new URL(request.url).searchParams.get("domain");
  const overview = await linksOverview(auth.principal, { domain }, { ...deps, domains: deps.directory });
  return overview.ok ? json(200, { success: true, data: overview.value }) : problemResponse(overview.problem);
}
