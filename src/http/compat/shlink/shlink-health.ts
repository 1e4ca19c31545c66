// Shlink's health and Mercure routes (docs/shlink-api.md: Version). The web client reads `version`
// from GET /rest/v3/health when a server is chosen and hides what that version lacks
// (shlink-web-component src/utils/features.ts), and asks the same route of each domain's host for
// the domains page (src/domains/reducers/domainsList.ts): no key, on every domain, CORS as the rest.

import type { ShlinkHealth } from "@shlinkio/shlink-js-sdk/api-contract";
import { ShlinkProblem } from "./shlink-problem.ts";
import type { ShlinkDeps, ShlinkRoute } from "./shlink-route.ts";

/**
 * The Shlink version this surface says it is: the release whose API it speaks (5.1's routes,
 * fields and rule conditions). Our own version would be 0.x, and the web client would hide most
 * of itself (docs/shlink-api.md: Version); ours goes in X-Shortener-Version.
 */
export const SPOKEN_SHLINK_VERSION = "5.1.0";

const LINKS = {
  about: "https://github.com/shortener/shortener/blob/main/docs/shlink-api.md#version",
  project: "https://github.com/shortener/shortener",
};

/** 200 pass when the database answers, 503 fail when not; as Shlink's HealthAction (module/Rest/src/Action/HealthAction.php). */
async function health(deps: Pick<ShlinkDeps, "storage" | "version">): Promise<Response> {
  let reachable = true;
  try {
    await deps.storage.ping();
  } catch {
    // The cause is /health's to tell (and the log's); this answer only says pass or fail.
    reachable = false;
  }
  // The SDK's type has status and version; links is Shlink's own (docs/swagger/definitions/Health.json).
  const body = { status: reachable ? "pass" : "fail", version: SPOKEN_SHLINK_VERSION, links: LINKS } satisfies ShlinkHealth & { links: Record<"about" | "project", string> };
  return new Response(JSON.stringify(body), {
    status: reachable ? 200 : 503,
    headers: { "Content-Type": "application/health+json", "Cache-Control": "no-store", "X-Shortener-Version": deps.version, "X-Content-Type-Options": "nosniff" },
  });
}

export const HEALTH_ROUTES: readonly ShlinkRoute[] = [
  { method: "GET", path: "/health", auth: "none", handle: ({ deps }) => health(deps) },
  // No Mercure hub: the web client then shows no live updates and goes on (its mercureInfo reducer).
  // Asked with a key, as Shlink's MercureInfoAction is (docs/swagger/paths/v2_mercure-info.json).
  {
    method: "GET",
    path: "/mercure-info",
    auth: "key",
    handle: () => Promise.reject(new ShlinkProblem("mercure-not-configured", "This Shlink instance is not integrated with a mercure hub.")),
  },
];
