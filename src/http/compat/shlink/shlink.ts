// Shlink's REST API (docs/shlink-api.md: Shlink API), for the clients people bring from Shlink: its
// web client, Shlink Manager, browser and launcher extensions, scripts. A translator over the same
// operations as our own API (src/ops): the same keys and scopes, URL rules, blocklist and audit
// lines; Shlink's paths, field names and problem documents. Off with --compat.

import { Elysia } from "elysia";
import { isStorageFailure } from "../../../db/errors.ts";
import type { Principal } from "../../../auth/policy.ts";
import { checkSecret } from "../../auth.ts";
import type { PeerServer } from "../../request-origin.ts";
import { requestDomain } from "../../request-domain.ts";
import { DEFAULT_DOMAIN } from "../../../domains/domain.ts";
import { storageFailureAnswer } from "../peer-failure.ts";
import { shlinkBody } from "./shlink-body.ts";
import { EVERY_METHOD, shlinkCors } from "./shlink-cors.ts";
import { asShlinkProblem, ourProblem, OurRefusal, problemDocument, ShlinkProblem, shlinkProblem } from "./shlink-problem.ts";
import { restPath, routeMatcher } from "./shlink-router.ts";
import type { ShlinkDeps, ShlinkRoute } from "./shlink-route.ts";

/** app.ts's guard: whether a request is addressed to this service, then the answer (421 otherwise). */
type Ours = (request: Request, server: PeerServer, answer: () => Promise<Response>) => Promise<Response> | Response;

/** The routes under /rest, or none when --compat leaves Shlink out (then /rest/… is an alias's 404). */
export function shlinkApi(deps: ShlinkDeps, ours: Ours, routes: readonly ShlinkRoute[]) {
  if (!deps.config.compat.shlink) return new Elysia();
  const match = routeMatcher(routes);
  const cors = shlinkCors(deps.config);
  const answer = async (request: Request, server: PeerServer): Promise<Response> => {
    const pathname = new URL(request.url).pathname;
    const path = restPath(pathname);
    if (path === null) return shlinkProblem("not-found", `${pathname} is not a route of this Shlink API.`);
    const found = match(request.method, path);
    if (found.kind === "none") return shlinkProblem("not-found", `${request.method} ${pathname} is not a route of this Shlink API.`);
    if (found.kind === "method") {
      const allow = [...new Set(found.allowed)].join(", ");
      // Shlink's router answers 405 with an empty body; the web client needs JSON on every error (FetchHttpClient.ts).
      return withHeader(ourProblem(405, "method_not_allowed", `${pathname} accepts ${allow} only.`), "Allow", allow);
    }
    const { route, params } = found;
    // A short domain answers health only: the rest is the main domain's (docs/several-domains.md: Hosts).
    if (route.auth !== "none" && requestDomain(request, deps.directory).key !== DEFAULT_DOMAIN) {
      return shlinkProblem("not-found", `${pathname} is answered on the service's main domain only.`);
    }
    const run = async (): Promise<Response> => {
      const principal = await caller(route, request, server, deps);
      if (principal instanceof Response) return principal;
      return route.handle({ request, server, deps, params, query: new URL(request.url).searchParams, principal, body: () => shlinkBody(request) });
    };
    // Health is asked of every domain, by name (the web client's domains page): no 421 there.
    return route.auth === "none" ? run() : asShlinkProblem(await ours(request, server, run));
  };
  const shlink = ({ request, server }: { request: Request; server: PeerServer }) => {
    // A preflight is never authenticated (the browser sends no key with it); a path no route has
    // gets every method, so that the request itself is made and reads our not-found problem.
    if (request.method === "OPTIONS") return cors.preflight(request, preflightMethods(request, match));
    return answer(request, server)
      .catch((err: unknown) => failureAnswer(err, request, deps))
      .then((response) => cors.withCors(request, response));
  };
  // /rest and /rest/ are no route either, but answered as one: a Shlink not-found problem, not the link 404 page.
  // /rest/qr too: the app's /:id/qr (a link's QR code) would take it before /rest/*.
  return new Elysia()
    .all("/rest/*", shlink, { parse: "none" })
    .all("/rest", shlink, { parse: "none" })
    .all("/rest/", shlink, { parse: "none" })
    .all("/rest/qr", shlink, { parse: "none" });
}

/** The methods a preflight is told a path takes. */
function preflightMethods(request: Request, match: ReturnType<typeof routeMatcher>): readonly string[] {
  const path = restPath(new URL(request.url).pathname);
  const found = path === null ? null : match("OPTIONS", path);
  // A literal route and a parameter route may both take GET there (/short-urls/shorten, /short-urls/:shortCode).
  return found?.kind === "method" ? [...new Set(found.allowed)] : EVERY_METHOD;
}

/** What a handler threw, as a problem document: Shlink's type, ours, 503 for the database, or our bug under a request id. */
function failureAnswer(err: unknown, request: Request, deps: ShlinkDeps): Response {
  if (err instanceof ShlinkProblem) return shlinkProblem(err.type, err.detail, err.extra);
  if (err instanceof OurRefusal) return err.response;
  if (isStorageFailure(err)) return storageFailureAnswer(err, request, deps.log, (message) => ourProblem(503, "storage_unavailable", message));
  // Our bug: logged under a request id by the last resort (src/http/front-door.ts), told as Shlink's 500 type (its config/autoload/error-handler.global.php).
  const requestId = deps.lastResort(err, request).headers.get("x-request-id") ?? "";
  const answer = problemDocument(500, "https://shlink.io/api/error/internal-server-error", "Internal Server Error", `Internal error; the service's log names it as request ${requestId}.`);
  return withHeader(answer, "X-Request-Id", requestId);
}

/** The key a route asks for (X-Api-Key, or ?apiKey= on the shorten route), or the refusal as a problem. */
async function caller(route: ShlinkRoute, request: Request, server: PeerServer, deps: ShlinkDeps): Promise<Principal | null | Response> {
  if (route.auth === "none") return null;
  const fromQuery = route.auth === "api-key-param";
  const sent = (fromQuery ? new URL(request.url).searchParams.get("apiKey") : request.headers.get("x-api-key"))?.trim() ?? "";
  if (sent === "") {
    const extra = fromQuery ? { param: "apiKey" } : { expectedHeaders: ["X-Api-Key"] };
    return shlinkProblem("missing-authentication", fromQuery ? "Expected authentication to be provided in \"apiKey\" query param" : "Expected one of the following authentication headers, [\"X-Api-Key\"], but none were provided", extra);
  }
  const checked = await checkSecret(sent, request, server, deps);
  if (checked.ok) return checked.principal;
  return checked.response.status === 401 ? shlinkProblem("invalid-api-key", "Provided API key does not exist or is invalid.") : asShlinkProblem(checked.response);
}

function withHeader(response: Response, name: string, value: string): Response {
  response.headers.set(name, value);
  return response;
}
