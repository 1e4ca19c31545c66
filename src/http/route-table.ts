// What the app's own routes say about a request path: which methods it takes (the Allow header of
// a 405) and which route pattern answers it (the label of the request metrics). Derived from the
// Elysia app's route list, the one place routes are declared, so neither can drift from it.

import { LANGUAGES } from "../lang.ts";

export type RouteTable = {
  /** The methods the app answers at this path ("GET, HEAD, PATCH, DELETE"), or null when none. */
  allowed(path: string): string | null;
  /** The pattern of the route that answers this path (`/api/links/:id`, `/:lang/stats/:id`), or "other". */
  routeOf(path: string): string;
};

type Pattern = { pattern: string; regex: RegExp; static: boolean; methods: Set<string> };

const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
const LANGUAGE_SET = new Set<string>(LANGUAGES);

/**
 * The pattern a route is reported under: pages registered once per interface language count as
 * one (`/de/stats/:id` is `/:lang/stats/:id`), and a trailing slash is not a route of its own.
 */
export function patternOf(path: string): string {
  const segments = path.split("/");
  if (LANGUAGE_SET.has(segments[1] ?? "")) segments[1] = ":lang";
  const pattern = segments.join("/");
  return pattern.length > 1 && pattern.endsWith("/") ? pattern.slice(0, -1) : pattern;
}

/** `routes`: the app's (Elysia's app.routes); ALL routes are the catch-alls and are left out of Allow. */
export function routeTable(routes: readonly { method: string; path: string }[]): RouteTable {
  const byPattern = new Map<string, Pattern>();
  for (const route of routes) {
    const pattern = patternOf(route.path);
    let entry = byPattern.get(pattern);
    if (entry === undefined) {
      const source = pattern.split("/").map((s) => (s === "*" ? ".*" : s.startsWith(":") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/");
      const regex = new RegExp(`^${source.replace("/:lang", "/[^/]+")}/?$`);
      byPattern.set(pattern, (entry = { pattern, regex, static: !/[:*]/.test(pattern), methods: new Set() }));
    }
    if (route.method === "ALL") continue;
    entry.methods.add(route.method);
    if (route.method === "GET") entry.methods.add("HEAD");
  }
  // As the router does: an exact path before a parameter, a parameter before a wildcard.
  const rank = (p: Pattern) => (p.static ? 0 : p.pattern.includes("*") ? 2 : 1);
  const patterns = [...byPattern.values()].sort((a, b) => rank(a) - rank(b));
  const languagePage = (p: Pattern, path: string) => !p.pattern.startsWith("/:lang") || LANGUAGE_SET.has(path.split("/")[1] ?? "");
  return {
    allowed(path) {
      const methods = new Set<string>();
      for (const p of patterns) if (p.regex.test(path) && languagePage(p, path)) for (const m of p.methods) methods.add(m);
      return methods.size === 0 ? null : METHOD_ORDER.filter((m) => methods.has(m)).join(", ");
    },
    routeOf(path) {
      return patterns.find((p) => p.regex.test(path) && languagePage(p, path))?.pattern ?? "other";
    },
  };
}
