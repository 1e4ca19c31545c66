// GET /api/orphan-visits[?from=YYYY-MM-DD&to=YYYY-MM-DD&bots=exclude]: the summary of visits to no
// link for the dashboard's overview (docs/statistics.md: Visits to no link). Admins only.

import { addDays, dayOf, daysBetween, isDay } from "../util/day.ts";
import { orphanSummary, orphansRefusal, type OrphanOpsDeps } from "../ops/orphans/read.ts";
import { requireAllowed, type AuthDeps } from "./auth.ts";
import { problemResponse } from "./problems.ts";
import type { PeerServer } from "./request-origin.ts";
import { apiError, json } from "./responses.ts";
import { MAX_RANGE_DAYS } from "./stats.ts";

/** The range without from: the last 30 days, today's included (the overview card's). */
export const ORPHAN_DEFAULT_DAYS = 30;

export type OrphanApiDeps = AuthDeps & OrphanOpsDeps & { now: () => number };

export async function handleOrphanSummary(request: Request, server: PeerServer, deps: OrphanApiDeps): Promise<Response> {
  const auth = await requireAllowed(request, server, deps, orphansRefusal);
  if (!auth.ok) return auth.response;
  const query = new URL(request.url).searchParams;
  const to = query.get("to") || dayOf(deps.now());
  if (!isDay(to)) return apiError(400, "bad_range", "to must be a date as YYYY-MM-DD", "to");
  const givenFrom = query.get("from") || null;
  const from = givenFrom ?? addDays(to, -(ORPHAN_DEFAULT_DAYS - 1));
  if (!isDay(from)) {
    // Without from, the range starts before `to`: a `to` in year 0 makes it start before any date.
    if (givenFrom === null) return apiError(400, "bad_range", `to is too early: without from, the range starts ${ORPHAN_DEFAULT_DAYS - 1} days before it`, "to");
    return apiError(400, "bad_range", "from must be a date as YYYY-MM-DD", "from");
  }
  const span = daysBetween(from, to);
  if (span < 0) return apiError(400, "bad_range", "from must not be after to", "from");
  if (span >= MAX_RANGE_DAYS) return apiError(400, "bad_range", `from..to may span at most ${MAX_RANGE_DAYS} days`, "from");
  const bots = query.get("bots") ?? "include";
  if (bots !== "include" && bots !== "exclude") return apiError(400, "bad_request", "bots must be include or exclude", "bots");
  const read = await orphanSummary(auth.principal, { fromDay: from, toDay: to, excludeBots: bots === "exclude" }, deps);
  return read.ok ? json(200, { success: true, data: read.value }) : problemResponse(read.problem);
}
