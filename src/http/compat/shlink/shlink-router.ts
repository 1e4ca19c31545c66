// Which Shlink route a request names (docs/shlink-api.md: Shlink API): /rest/v1, /rest/v2 and
// /rest/v3 answer alike, as in Shlink 5 (its module/Rest ConfigProvider routes v{1|2|3} to the same
// actions), and /rest/health is the health route without a version.

import type { ShlinkRoute } from "./shlink-route.ts";

type Compiled = { route: ShlinkRoute; segments: readonly string[] };

export type RouteMatch =
  | { kind: "route"; route: ShlinkRoute; params: Record<string, string> }
  /** the path is a route's, the method is not: these methods are */
  | { kind: "method"; allowed: readonly string[] }
  | { kind: "none" };

/** The part of a path after /rest/v{1,2,3} (or "/health" for /rest/health); null when not under /rest. */
export function restPath(pathname: string): string | null {
  if (pathname === "/rest/health") return "/health";
  const m = /^\/rest\/v[123](\/.*)$/.exec(pathname);
  return m ? m[1]! : null;
}

/** A matcher over the routes; a `:name` segment takes any one segment, percent-decoded once. */
export function routeMatcher(routes: readonly ShlinkRoute[]): (method: string, path: string) => RouteMatch {
  // A literal segment wins over a parameter (/short-urls/shorten before /short-urls/:shortCode).
  const params = (c: Compiled) => c.segments.filter((s) => s.startsWith(":")).length;
  const compiled: Compiled[] = routes.map((route) => ({ route, segments: route.path.split("/").slice(1) })).sort((a, b) => params(a) - params(b));
  return (method, path) => {
    const asked = path.split("/").slice(1);
    const allowed: string[] = [];
    for (const { route, segments } of compiled) {
      const found = matchSegments(segments, asked);
      if (found === null) continue;
      if (route.method === method || (method === "HEAD" && route.method === "GET")) return { kind: "route", route, params: found };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: "method", allowed } : { kind: "none" };
  };
}

function matchSegments(pattern: readonly string[], asked: readonly string[]): Record<string, string> | null {
  if (pattern.length !== asked.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i]!;
    const got = asked[i]!;
    if (want.startsWith(":")) {
      if (got === "") return null;
      try {
        params[want.slice(1)] = decodeURIComponent(got);
      } catch {
        return null; // not percent-encoding: no short code or tag of ours is named so
      }
    } else if (want !== got) return null;
  }
  return params;
}
