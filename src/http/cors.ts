// Cross-origin answers (CORS) for a surface that pages on other origins call with a key in a header,
// such as Shlink's web client at app.shlink.io (docs/shlink-api.md: CORS). Only the origins the
// operator lists (--cors-origin) may read the answers; with none listed, no answer carries CORS
// headers and browsers keep every other origin's page from reading them. The key travels in a
// header a page must hold already, never in a cookie, so allowing an origin lends it nothing ambient.

import type { CorsOrigins } from "../config.ts";

export type CorsSettings = {
  /** request headers a preflight always allows (the surface's key header, Content-Type) */
  allowHeaders: readonly string[];
  /** how long a browser may keep a preflight's answer */
  maxAgeSeconds: number;
};

export type CorsPolicy = {
  /** The answer with the CORS headers the request's Origin earns (none for an origin not allowed). */
  withCors(request: Request, response: Response): Response;
  /** The answer to an OPTIONS request of a path that takes `methods`: 204, `Allow`, and for an allowed origin what it may send. */
  preflight(request: Request, methods: readonly string[]): Response;
};

/** A request header's name (RFC 9110 token): anything else asked in a preflight is not echoed. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/** A browser asks for the few headers a page sets; more than this is no web client's preflight. */
const MAX_ECHOED = 16;

export function corsPolicy(origins: CorsOrigins, settings: CorsSettings): CorsPolicy {
  const any = origins === "*";
  const listed = new Set(any ? [] : origins);
  // With a list the answer depends on Origin, so shared caches must key on it; with "*" or none it does not.
  const varies = listed.size > 0;
  const allowedOrigin = (request: Request): string | null => {
    const origin = request.headers.get("origin");
    if (origin === null) return null;
    if (any) return "*";
    return listed.has(origin) ? origin : null;
  };
  const originHeaders = (headers: Headers, allowed: string): void => {
    headers.set("Access-Control-Allow-Origin", allowed);
    // Credentials (cookies or a proxy's basic auth, which the web client forwards when told to)
    // only with an exact origin: browsers refuse them with "*" anyway. This surface reads none.
    if (allowed !== "*") headers.set("Access-Control-Allow-Credentials", "true");
  };
  return {
    withCors(request, response) {
      if (varies) response.headers.append("Vary", "Origin");
      const allowed = allowedOrigin(request);
      if (allowed !== null) originHeaders(response.headers, allowed);
      return response;
    },
    preflight(request, methods) {
      const headers = new Headers({ Allow: methods.join(", ") });
      if (varies) headers.set("Vary", "Origin, Access-Control-Request-Headers");
      const allowed = allowedOrigin(request);
      if (allowed !== null) {
        originHeaders(headers, allowed);
        headers.set("Access-Control-Allow-Methods", methods.join(", "));
        headers.set("Access-Control-Allow-Headers", allowedHeaders(settings.allowHeaders, request.headers.get("access-control-request-headers")).join(", "));
        headers.set("Access-Control-Max-Age", String(settings.maxAgeSeconds));
        // A public page (app.shlink.io) calling a service on a private address: Chromium's Private
        // Network Access asks first, and the operator allowed this origin already.
        if (request.headers.get("access-control-request-private-network") === "true") headers.set("Access-Control-Allow-Private-Network", "true");
      }
      return new Response(null, { status: 204, headers });
    },
  };
}

/**
 * The surface's own headers, and those a preflight asks for that are header names (as Shlink
 * echoes them: its CrossDomainMiddleware). Echoing is safe: the surface reads only its key header
 * and Content-Type, whatever else a page sends.
 */
export function allowedHeaders(own: readonly string[], requested: string | null): string[] {
  const out = [...own];
  const seen = new Set(own.map((h) => h.toLowerCase()));
  for (const raw of (requested ?? "").split(",").slice(0, MAX_ECHOED)) {
    const name = raw.trim().toLowerCase();
    if (!TOKEN.test(name) || seen.has(name)) continue;
    seen.add(name);
    out.push(name);
  }
  return out;
}
