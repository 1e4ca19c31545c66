// CORS for the Shlink surface: its web client runs on another origin (docs/shlink-api.md: CORS).
// Placeholder until the CORS part lands: no cross-origin headers, preflights refused as not found.

/** The answer with this surface's CORS headers for the request's Origin (none yet). */
export function withCors(_request: Request, response: Response): Response {
  return response;
}

/** The answer to a preflight (OPTIONS) of a path that takes `methods`; null: not a preflight we answer. */
export function preflight(_request: Request, _methods: readonly string[]): Response | null {
  return null;
}
