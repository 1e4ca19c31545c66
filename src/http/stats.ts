// GET /api/stats?id=…[&from=YYYY-MM-DD&to=YYYY-MM-DD&bots=exclude]: a link and its statistics.

import type { Config } from "../config.ts";
import type { LinkStore } from "../links/store.ts";
import { activityNow, type Link } from "../links/link.ts";
import { DEFAULT_DAYS, type StatsReader } from "../stats/link-stats.ts";
import { addDays, dayOf, daysBetween, isDay } from "../util/day.ts";
import { statsWithoutDestinations, variantLabels } from "../stats/hidden-destinations.ts";
import { authenticate, authRequired, unauthenticated, type AuthDeps } from "./auth.ts";
import { maySee, maySeeDestinations } from "../auth/policy.ts";
import type { PeerServer } from "./request-origin.ts";
import { apiError, json, linkNotFound } from "./responses.ts";

/** The longest from..to span answered; visitsByDate lists every day of it. */
export const MAX_RANGE_DAYS = 3660;

export type StatsDeps = AuthDeps & { config: Pick<Config, "statsAccess">; links: LinkStore; stats: StatsReader };

/**
 * May read the stats, or why not. `destinations`: and see where the link leads (maySeeDestinations);
 * `manages`: the asker is known to be its owner or an admin (false when no one was asked).
 */
export type StatsVerdict = { destinations: boolean; manages: boolean } | "not_found" | "auth_required" | { refused: Response };

/**
 * Whether this request may read a link's statistics, and its destinations with them: decided once
 * per request, for the API, the stats page and the live view alike. With --stats-access key only
 * the link's owner or an admin may read them; an unknown link and another's link look the same
 * (not_found). With public statistics, who asks matters only for a link with a password (only
 * then is anyone authenticated): its counts are public, where it leads is not.
 */
export async function mayReadStats(request: Request, server: PeerServer, link: Link | null, deps: StatsDeps): Promise<StatsVerdict> {
  const open = deps.config.statsAccess === "public";
  if (open && link === null) return "not_found";
  if (open && link!.passwordHash === null) return { destinations: true, manages: false };
  const auth = await authenticate(request, server, deps);
  // A key that is not valid is refused, even for public statistics: it would be asking as no one.
  if (!auth.ok) return { refused: auth.response };
  if (open) return { destinations: maySeeDestinations(auth.principal, link!), manages: auth.principal !== null && maySee(auth.principal, link!) };
  if (auth.principal === null) return auth.sessionEnded ? { refused: unauthenticated(auth) } : "auth_required";
  return link && maySee(auth.principal, link) ? { destinations: true, manages: true } : "not_found";
}

export async function handleStats(request: Request, server: PeerServer, deps: StatsDeps): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const id = query.get("id")?.trim() ?? "";
  if (id === "") return apiError(400, "id_missing", "the query parameter id is required", "id");
  const from = query.get("from") || null;
  const to = query.get("to") || null;
  if (from !== null && !isDay(from)) return apiError(400, "bad_range", "from must be a date as YYYY-MM-DD", "from");
  if (to !== null && !isDay(to)) return apiError(400, "bad_range", "to must be a date as YYYY-MM-DD", "to");
  const today = dayOf(deps.now());
  if (from !== null) {
    const span = daysBetween(from, to ?? today);
    if (span < 0) return apiError(400, "bad_range", "from must not be after to", "from");
    if (span >= MAX_RANGE_DAYS) return apiError(400, "bad_range", `from..to may span at most ${MAX_RANGE_DAYS} days`, "from");
  } else if (to !== null && daysBetween(addDays(today, -(DEFAULT_DAYS - 1)), to) >= MAX_RANGE_DAYS) {
    // Without from, the range starts at most DEFAULT_DAYS back: a far `to` alone is as long a list.
    return apiError(400, "bad_range", `from..to may span at most ${MAX_RANGE_DAYS} days (from defaults to ${DEFAULT_DAYS} days ago)`, "to");
  }
  const bots = query.get("bots") ?? "include";
  if (bots !== "include" && bots !== "exclude") return apiError(400, "bad_request", "bots must be include or exclude", "bots");

  const link = id.length <= 30 ? await deps.links.get(id) : null;
  const verdict = await mayReadStats(request, server, link, deps);
  if (verdict === "auth_required") return authRequired();
  if (typeof verdict === "object" && "refused" in verdict) return verdict.refused;
  if (verdict === "not_found" || !link) return linkNotFound(id);
  const now = deps.now();
  const stats = await deps.stats.read(link, { from, to, excludeBots: bots === "exclude" }, now);
  const shown = verdict.destinations;
  return json(200, {
    success: true,
    data: {
      link: {
        id: link.id,
        originalUrl: shown ? link.url : "",
        createdAt: new Date(link.createdAt).toISOString(),
        passwordProtected: link.passwordHash !== null,
        // Whether it redirects now, and why not: public like its counts; never where it leads.
        status: activityNow(link, deps.links.clicksAnswered(link.id), now),
        totalClicks: link.totalClicks,
      },
      stats: shown ? stats : statsWithoutDestinations(stats, variantLabels(link)),
    },
  });
}
