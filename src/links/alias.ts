// Rules for custom aliases and for what no link id may be: the service's own first path segments.

import { LANGUAGES } from "../lang.ts";

export const ALIAS_PATTERN = /^[A-Za-z0-9_-]{3,30}$/;

// Every first path segment the service answers itself, now or planned, so that a link can never
// shadow a page. Compared case-insensitively: "API" would confuse people even though ids are
// case-sensitive.
const RESERVED = new Set<string>([
  ...LANGUAGES,
  "api", "assets", "static", "stats", "health", "healthz", "metrics", "favicon.ico", "favicon",
  "robots.txt", "robots", "sitemap.xml", "manifest.json", "manifest.webmanifest", "apple-touch-icon.png",
  "well-known", ".well-known", "admin", "login", "logout", "dashboard", "settings", "docs", "about",
  "new", "create", "shorten", "index", "index.html", "version",
  // the owner's pages and the management API's fixed paths (/links, /api/links/export, …)
  "links", "export", "import", "overview", "session", "signin", "signout", "keys", "openapi", "openapi.json",
  // the YOURLS API (docs/yourls-api.md)
  "yourls-api.php",
  // Shlink's REST API (docs/shlink-api.md)
  "rest",
]);

/** Every reserved word, lower-case. */
export const RESERVED_WORDS: readonly string[] = [...RESERVED];

export function isReserved(id: string): boolean {
  return RESERVED.has(id.toLowerCase());
}

export type AliasProblem = "alias_invalid" | "alias_reserved";

/** Why an alias cannot be used, or null when it can (taken-ness is the store's concern). */
export function aliasProblem(alias: string, pattern = ALIAS_PATTERN): AliasProblem | null {
  if (!pattern.test(alias)) return "alias_invalid";
  if (isReserved(alias)) return "alias_reserved";
  return null;
}

/**
 * What a code brought by an import may be (src/imports/plan.ts): wider than an alias made here, so
 * that YOURLS's one- and two-character keywords and longer codes of other shorteners go on working
 * exactly as printed. Still only characters that need no escaping in a path.
 */
export const IMPORTED_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Why an imported code cannot be kept here, or null when it can (taken-ness is the store's concern). */
export function importedCodeProblem(code: string): AliasProblem | null {
  return aliasProblem(code, IMPORTED_CODE_PATTERN);
}

/**
 * The shape any link id can have (generated, alias, or imported); cheaper than a lookup for junk paths.
 * Takes null too: Elysia 1.4 hands a route parameter as null when it cannot percent-decode it
 * (e.g. `/./%FF`), and a junk path must be a 404, not a TypeError and a 500.
 */
export function looksLikeId(value: string | null | undefined): value is string {
  // The widest id there is: an imported code's shape (generated ids and aliases fit inside it).
  return typeof value === "string" && IMPORTED_CODE_PATTERN.test(value);
}
