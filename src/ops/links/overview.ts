// The dashboard's figures above the list (docs/web-ui.md: Web UI), over the links the principal may see.

import { ownerFilter, type Principal } from "../../auth/policy.ts";
import type { Overview } from "../../stats/overview.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome } from "../outcome.ts";
import type { LinkOpsDeps } from "./deps.ts";

export async function linksOverview(actor: Principal, _input: Record<string, never>, deps: Pick<LinkOpsDeps, "overview" | "log" | "now">): Promise<Outcome<Overview>> {
  const data = await deps.overview(ownerFilter(actor), deps.now());
  logAction(deps.log, actor, "overview", null, "ok");
  return done(data);
}
