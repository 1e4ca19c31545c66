// The front door: what every request passes before any handler, the click door's included
// (docs/security.md: Security, "Hostile requests"). It decides three things once per request:
// - the Host names an authority, or the request gets 400 `bad_request` before anything else runs.
//   Bun builds request.url from the Host; with an unusable one (empty, blank, spaces, a bad port,
//   unbalanced brackets, a path or query character) request.url is a bare path or a URL that
//   does not parse, and every reader after us would trip on it;
// - the path: request.url is a URL Bun has already normalized (dot segments, backslashes,
//   percent-encoding), cut at its first "/" after the scheme's "//". The router is told to cut at
//   the same place (Elysia's `standardHostname: false`, src/app.ts), so that the router, the route
//   labels of /metrics and every handler's `new URL(request.url)` see the same path;
// - the last resort: whatever a handler throws becomes a 500 JSON `internal` with a request id, the
//   error is logged under that id, and the process goes on serving.

import { describeError, type Logger } from "../log.ts";
import { apiError } from "./responses.ts";
import { loggablePath } from "./shared-path.ts";

/** A host name or address literal, with an optional port (RFC 3986 authority, without userinfo). */
const AUTHORITY = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;

/** Whether a Host header names an authority this service can be reached by. */
export function isAuthority(host: string): boolean {
  const m = AUTHORITY.exec(host);
  if (m === null) return false;
  if (m[1] !== undefined && Number(m[1]) > 65535) return false;
  // The WHATWG parser has the last word on address literals (`[::1:` and `[1::2::3]` fail there).
  return URL.canParse(`http://${host}/`);
}

/** Where the path starts in a URL Bun built (`http://host/…`), or -1. */
export function pathStart(url: string): number {
  return url.indexOf("/", url.indexOf("//") + 2);
}

/**
 * The path of a request target that is in its normal form, or null: one that does not parse, carries
 * a fragment (a request target never does: RFC 9112 §3.2), or parses to another path than the one
 * the router cuts out of the same string.
 */
export function targetPath(url: string): string | null {
  const start = pathStart(url);
  if (start === -1) return null;
  const parsed = URL.parse(url);
  if (parsed === null || parsed.hash !== "" || url.includes("#")) return null;
  const query = url.indexOf("?", start);
  const path = url.slice(start, query === -1 ? undefined : query);
  return parsed.pathname === path ? path : null;
}

/**
 * The front door's check of the Host, remembering the last good one (every click of a busy
 * instance names the same host: one comparison). `ownHost`: the host a request without any Host
 * (HTTP/1.0 health checks of old load balancers) is taken to name; such a request is answered at
 * /health only, because a request made anew here has no socket, and the peer address decides
 * what proxies' headers are believed.
 */
export function createHostCheck(ownHost: () => string): (request: Request) => Request | Response {
  let lastGood = "\u0000"; // no header holds a NUL: matches nothing until a Host passed
  return (request) => {
    const host = request.headers.get("host");
    if (host === lastGood) return request; // nothing allocated on the click path
    if (host === null) return withoutHost(request, ownHost());
    if (!isAuthority(host) || !request.url.startsWith("http")) return badRequest("the Host header must name a host (and port) of this service");
    lastGood = host;
    return request;
  };
}

function withoutHost(request: Request, ownHost: string): Request | Response {
  const target = request.url;
  const query = target.indexOf("?");
  const path = query === -1 ? target : target.slice(0, query);
  if ((request.method === "GET" || request.method === "HEAD") && path === "/health") {
    return new Request(`http://${ownHost}/health`, { method: request.method });
  }
  return badRequest("a request without a Host header is answered at /health only; name the host this service is reached by");
}

export function badRequest(message: string): Response {
  return apiError(400, "bad_request", message);
}

/** The answer to an error no handler caught (`request`: null when the HTTP server caught it). */
export type LastResort = (error: unknown, request: Request | null) => Response;

/**
 * The last-resort answer to an error no handler caught: logged under a request id, never shown.
 * One per process, for the click door, the app's error handler and the HTTP server's alike.
 */
export function createLastResort(log: Logger): LastResort {
  const boot = Math.floor(Math.random() * 0x10000).toString(16).padStart(4, "0");
  let count = 0;
  return (error, request) => {
    const requestId = `${boot}-${(++count).toString(36)}`;
    const target = request === null ? null : URL.parse(request.url);
    log.error("request failed", {
      requestId,
      method: request === null ? null : request.method.slice(0, 16),
      // The path only: a query may hold what a client would not want in a log.
      path: target === null ? "(unknown)" : loggablePath(target.pathname).slice(0, 200),
      error: describeError(error),
    });
    return apiError(500, "internal", `internal error; the service's log names it as request ${requestId}`, undefined, { "X-Request-Id": requestId });
  };
}
