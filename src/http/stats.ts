// GET /api/stats?id=…[&domain=…&from=YYYY-MM-DD&to=YYYY-MM-DD&bots=exclude]: a link and its statistics.

import { DEFAULT_DAYS, type StatsFilter } from "../stats/link-stats.ts";
import { addDays, dayOf, daysBetween, isDay } from "../util/day.ts";
import { readLinkStats, type Asker, type StatsOpsDeps, type StatsReading } from "../ops/stats/read.ts";
import { authenticate, isHeaderRefusal, unauthenticated, type AuthDeps } from "./auth.ts";
import type { DomainDirectory } from "../domains/directory.ts";
import type { PeerServer } from "./request-origin.ts";
import { apiError, json, linkNotFound } from "./responses.ts";
import { domainUnknown, statsLinkKey } from "./stats-link.ts";

/** The longest from..to span answered; visitsByDate lists every day of it. */
export const MAX_RANGE_DAYS = 3660;

export type StatsDeps = AuthDeps & StatsOpsDeps & { directory: DomainDirectory };

/**
 * Who is asking, found out only when the policy asks (src/ops/stats/read.ts): a refusal is kept to
 * be answered as it is; a session that has ended is said so where one is needed.
 */
export function statsAsker(request: Request, server: PeerServer, deps: AuthDeps) {
  let refusal: Response | null = null;
  let sessionEnded = false;
  return {
    ask: async (): Promise<Asker> => {
      const auth = await authenticate(request, server, deps);
      if (!auth.ok) {
        refusal = auth.response;
        return "refused";
      }
      sessionEnded = auth.sessionEnded;
      return auth.principal;
    },
    /** the answer to a reader the operation did not admit (its "not_found" is the surface's own) */
    refusal: (why: "auth_required" | "refused"): Response => (why === "refused" ? refusal! : unauthenticated({ sessionEnded })),
    /** whether the credentials were refused for a proxy's identity header (a page says so in its own words) */
    headerRefused: (): boolean => refusal !== null && isHeaderRefusal(refusal),
  };
}

/** The period and bot filter of a statistics request (docs/api.md: Read statistics), or the 400 that refuses them. */
export function statsFilter(query: URLSearchParams, now: number): StatsFilter | Response {
  const from = query.get("from") || null;
  const to = query.get("to") || null;
  if (from !== null && !isDay(from)) return apiError(400, "bad_range", "from must be a date as YYYY-MM-DD", "from");
  if (to !== null && !isDay(to)) return apiError(400, "bad_range", "to must be a date as YYYY-MM-DD", "to");
  const today = dayOf(now);
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
  return { from, to, excludeBots: bots === "exclude" };
}

export async function handleStats(request: Request, server: PeerServer, deps: StatsDeps): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const id = query.get("id")?.trim() ?? "";
  if (id === "") return apiError(400, "id_missing", "the query parameter id is required", "id");
  const filter = statsFilter(query, deps.now());
  if (filter instanceof Response) return filter;

  // On the domain ?domain= names, else the request's own (docs/api.md: Read statistics).
  const named = statsLinkKey(request, id, deps.directory);
  if (named === "domain_unknown") return domainUnknown();
  // An id longer than 30 characters is not looked up here (the API's limit since before imported codes).
  const asker = statsAsker(request, server, deps);
  const read = await readLinkStats({ key: id.length <= 30 ? named.key : "", filter }, asker.ask, deps);
  if (read === "not_found") return linkNotFound(id);
  if (typeof read === "string") return asker.refusal(read);
  return statsAnswer(read, deps.directory);
}

/** A link's statistics as the API answers them (GET /api/stats, and a share link's: src/http/shares.ts). */
export function statsAnswer(read: StatsReading, directory: DomainDirectory): Response {
  const { link, destinations: shown } = read;
  return json(200, {
    success: true,
    data: {
      link: {
        id: link.id,
        domain: directory.nameOf(link.domain),
        originalUrl: shown ? link.url : "",
        // A title says what the destination is: it is hidden where the destination is.
        title: shown ? link.title : null,
        createdAt: new Date(link.createdAt).toISOString(),
        passwordProtected: link.passwordHash !== null,
        // Whether it redirects now, and why not: public like its counts; never where it leads.
        status: read.activity,
        totalClicks: link.totalClicks,
      },
      stats: read.stats,
    },
  });
}
