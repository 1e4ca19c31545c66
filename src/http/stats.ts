// GET /api/stats?id=…[&from=YYYY-MM-DD&to=YYYY-MM-DD&bots=exclude]: a link and its statistics.

import type { Config } from "../config.ts";
import type { LinkStore } from "../links/store.ts";
import type { Link } from "../links/link.ts";
import { DEFAULT_DAYS, type StatsReader } from "../stats/link-stats.ts";
import { addDays, dayOf, daysBetween, isDay } from "../util/day.ts";
import { authenticate, authRequired, maySee, unauthenticated, type AuthDeps } from "./auth.ts";
import type { PeerServer } from "./request-origin.ts";
import { apiError, json, linkNotFound } from "./responses.ts";

/** The longest from..to span answered; visitsByDate lists every day of it. */
export const MAX_RANGE_DAYS = 3660;

export type StatsDeps = AuthDeps & { config: Pick<Config, "statsAccess">; links: LinkStore; stats: StatsReader };

export type StatsVerdict = "ok" | "not_found" | "auth_required" | { refused: Response };

/**
 * Whether this request may read a link's statistics. With --stats-access key only the link's
 * owner key or an admin key may; an unknown link and another's link look the same (not_found).
 */
export async function mayReadStats(request: Request, server: PeerServer, link: Link | null, deps: StatsDeps): Promise<StatsVerdict> {
  if (deps.config.statsAccess === "public") return link ? "ok" : "not_found";
  const auth = await authenticate(request, server, deps);
  if (!auth.ok) return { refused: auth.response };
  if (auth.principal === null) return auth.sessionEnded ? { refused: unauthenticated(auth) } : "auth_required";
  return link && maySee(auth.principal, link) ? "ok" : "not_found";
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
  if (typeof verdict === "object") return verdict.refused;
  if (verdict === "not_found" || !link) return linkNotFound(id);
  const now = deps.now();
  const stats = await deps.stats.read(link, { from, to, excludeBots: bots === "exclude" }, now);
  return json(200, {
    success: true,
    data: {
      link: { id: link.id, originalUrl: link.url, createdAt: new Date(link.createdAt).toISOString() },
      stats,
    },
  });
}
