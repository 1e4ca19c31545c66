// CORS for the Shlink surface (docs/shlink-api.md: CORS): Shlink's web client runs on another origin
// (app.shlink.io, or wherever it is hosted) and sends X-Api-Key on every call, so every call is
// preflighted. As Shlink's CrossDomainMiddleware and CorsOptions (module/Rest/src/Middleware,
// module/Core/src/Config/Options): headers on every answer, errors included, and a preflight is
// 204 with the route's methods, the asked headers and a max age of 3600 s. Unlike Shlink, no origin
// is allowed unless --cors-origin lists it.

import type { Config } from "../../../config.ts";
import { corsPolicy, type CorsPolicy } from "../../cors.ts";

/** What the SDK sends: the key, and Content-Type with a body (shlink-js-sdk src/fetch/FetchHttpClient.ts). */
const SHLINK_HEADERS = ["X-Api-Key", "Content-Type"];
/** Shlink's CORS_MAX_AGE default. */
const MAX_AGE_SECONDS = 3600;
/** A preflight of a path no route has gets every method (as Shlink's): the request then reads our not-found problem. */
export const EVERY_METHOD: readonly string[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** The Shlink surface's CORS policy for --cors-origin. */
export function shlinkCors(config: Pick<Config, "corsOrigins">): CorsPolicy {
  return corsPolicy(config.corsOrigins, { allowHeaders: SHLINK_HEADERS, maxAgeSeconds: MAX_AGE_SECONDS });
}

/**
 * A /rest request for a host no domain has (src/http/click-door.ts), `refusal` being its 421: with
 * the CORS headers its Origin earns, so a browser shows the problem, not a CORS error. A preflight
 * is answered as any other (a browser fails a preflight that is not 2xx, and would hide the 421 the
 * request itself then gets); it does nothing and names no link.
 */
export function misdirectedRest(request: Request, cors: CorsPolicy, refusal: Response): Response {
  if (request.method === "OPTIONS") return cors.preflight(request, EVERY_METHOD);
  return cors.withCors(request, refusal);
}
