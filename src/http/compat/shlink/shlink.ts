// Shlink's REST API (docs/shlink-api.md: Shlink API), for the clients people bring from Shlink: its
// web client, Shlink Manager, browser and launcher extensions, scripts. A translator over the same
// operations as our own API (src/ops): the same keys and scopes, URL rules, blocklist and audit
// lines; Shlink's paths, field names and problem documents. Off with --compat.

import { Elysia } from "elysia";
import { isStorageFailure } from "../../../db/errors.ts";
import type { Principal } from "../../../auth/policy.ts";
import { checkSecret } from "../../auth.ts";
import type { PeerServer } from "../../request-origin.ts";
import { storageFailureAnswer } from "../peer-failure.ts";
import { shlinkBody } from "./shlink-body.ts";
import { preflight, withCors } from "./shlink-cors.ts";
import { asShlinkProblem, problemDocument, ShlinkProblem, shlinkProblem } from "./shlink-problem.ts";
import { restPath, routeMatcher } from "./shlink-router.ts";
import type { ShlinkDeps, ShlinkRoute } from "./shlink-route.ts";

/** app.ts's guard: whether a request is addressed to this service, then the answer (421 otherwise). */
type Ours = (request: Request, server: PeerServer, answer: () => Promise<Response>) => Promise<Response> | Response;

/** The routes under /rest, or none when --compat leaves Shlink out (then /rest/… is an alias's 404). */
export function shlinkApi(deps: ShlinkDeps, ours: Ours, routes: readonly ShlinkRoute[]) {
  if (!deps.config.compat.shlink) return new Elysia();
  const match = routeMatcher(routes);
  const answer = async (request: Request, server: PeerServer): Promise<Response> => {
    const path = restPath(new URL(request.url).pathname);
    if (path === null) return shlinkProblem("not-found", "This path is not a route of this Shlink API.");
    if (request.method === "OPTIONS") {
      // No route takes OPTIONS, so a path of ours comes back as "method", with the methods it takes.
      const found = match("OPTIONS", path);
      return preflight(request, found.kind === "method" ? found.allowed : []) ?? shlinkProblem("not-found", "This path is not a route of this Shlink API.");
    }
    const found = match(request.method, path);
    if (found.kind === "none") return shlinkProblem("not-found", `${request.method} ${new URL(request.url).pathname} is not a route of this Shlink API.`);
    if (found.kind === "method") {
      const allow = found.allowed.join(", ");
      return withHeader(problemDocument(405, "https://shlink.io/api/error/method-not-allowed", "Method not allowed", `This route accepts ${allow} only.`), "Allow", allow);
    }
    const { route, params } = found;
    const run = async (): Promise<Response> => {
      const principal = await caller(route, request, server, deps);
      if (principal instanceof Response) return principal;
      return route.handle({ request, server, deps, params, query: new URL(request.url).searchParams, principal, body: () => shlinkBody(request) });
    };
    // Health is asked of every domain, by name (the web client's domains page): no 421 there.
    return route.auth === "none" ? run() : asShlinkProblem(await ours(request, server, run));
  };
  const shlink = ({ request, server }: { request: Request; server: PeerServer }) =>
    answer(request, server)
      .catch((err: unknown) => {
        if (err instanceof ShlinkProblem) return shlinkProblem(err.type, err.detail, err.extra);
        if (isStorageFailure(err)) return storageFailureAnswer(err, request, deps.log, (message) => problemDocument(503, "urn:shortener:error:storage_unavailable", "Service unavailable", message));
        throw err;
      })
      .then((response) => withCors(request, response));
  return new Elysia().all("/rest/*", shlink, { parse: "none" });
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
