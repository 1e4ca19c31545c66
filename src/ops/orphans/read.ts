// Visits to no link (docs/statistics.md: Visits to no link): admins only, since they are of no
// one's link and their paths may name anything anyone tried. The dashboard's summary, a page of the
// raw visits (Shlink's list), and their delete. One audit line each.

import { isAdmin, type Actor, type Principal } from "../../auth/policy.ts";
import type { Logger } from "../../log.ts";
import { MAX_VISITS_PAGE } from "../../stats/visit-pages.ts";
import type { OrphanPage, OrphanPageQuery, OrphanRange, OrphanSummary, OrphanVisitSource } from "../../stats/orphan-visits.ts";
import { adminRefusal } from "../accounts.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome, type Problem } from "../outcome.ts";

export type OrphanOpsDeps = { orphans: OrphanVisitSource; log: Logger };

/** The refusal of anyone but an admin (asked by a surface before anything else). */
export function orphansRefusal(actor: Actor): { ok: false; problem: Problem } | null {
  return adminRefusal(actor, "visits to no link are an admin's: they belong to no one's link");
}

/** Whether the principal sees orphan visits at all (Shlink's surface answers zero to the others). */
export function seesOrphans(actor: Actor): actor is Principal {
  return isAdmin(actor);
}

export async function orphanSummary(actor: Actor, range: OrphanRange, deps: OrphanOpsDeps): Promise<Outcome<OrphanSummary>> {
  const refusal = orphansRefusal(actor);
  if (refusal !== null) return refusal;
  const summary = await deps.orphans.summary(range);
  logAction(deps.log, actor!, "visits", "orphans", "ok");
  return done(summary);
}

export async function orphanPage(actor: Actor, q: OrphanPageQuery, deps: OrphanOpsDeps): Promise<Outcome<OrphanPage>> {
  const refusal = orphansRefusal(actor);
  if (refusal !== null) return refusal;
  const page = await deps.orphans.page({ ...q, limit: Math.min(q.limit, MAX_VISITS_PAGE) });
  logAction(deps.log, actor!, "visits", "orphans", "ok");
  return done(page);
}

/** Deletes every orphan visit; answers how many raw visits went. */
export async function deleteOrphanVisits(actor: Actor, deps: OrphanOpsDeps): Promise<Outcome<number>> {
  const refusal = orphansRefusal(actor);
  if (refusal !== null) return refusal;
  const deleted = await deps.orphans.remove();
  logAction(deps.log, actor!, "delete", "orphans", `deleted ${deleted}`);
  return done(deleted);
}
