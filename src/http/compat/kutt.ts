// The Kutt v2 API (docs/kutt-api.md: Kutt API), for the clients people bring from Kutt: ShareX's
// Kutt shortener, the Kutt browser extension, scripts. A translator over the same operations as our
// own API (src/ops): the same keys and scopes, URL rules, blocklist, flood limit and audit lines;
// Kutt's paths, field names, link object and `{ "error": "..." }` errors. Off with --compat.

import { createHash } from "node:crypto";
import { Elysia } from "elysia";
import { domainsForCreate } from "../../ops/domains/list.ts";
import { json } from "../responses.ts";
import type { PeerServer } from "../request-origin.ts";
import { asKutt, kuttError, kuttProblem } from "./kutt-json.ts";
import { kuttPrincipal, type KuttDeps } from "./kutt-request.ts";
import { kuttCreate, kuttDelete, kuttList, kuttPatch } from "./kutt-links.ts";
import { kuttStats } from "./kutt-stats.ts";
import { storageFailureAnswer } from "./peer-failure.ts";

/** app.ts's guard: whether a request is addressed to this service, then the answer (421 otherwise). */
type Ours = (request: Request, server: PeerServer, answer: () => Promise<Response>) => Promise<Response> | Response;

/** The routes under /api/v2, or none when --compat leaves Kutt out (then /api/v2/… is our API's 404). */
export function kuttApi(deps: KuttDeps, ours: Ours) {
  if (!deps.config.compat.kutt) return new Elysia();
  // Every answer in Kutt's shape: ours's 421, the shared helpers' refusals, and the database away
  // (the key check reads it before any route's own code) too.
  const kutt = (request: Request, server: PeerServer, answer: () => Promise<Response>) =>
    Promise.resolve(ours(request, server, answer))
      .then(asKutt)
      .catch((err: unknown) => storageFailureAnswer(err, request, deps.log, (message) => kuttError(503, message)));
  return (
    new Elysia()
      // Kutt answers its health check with a bare OK (server/routes/health.routes.js).
      .get("/api/v2/health", ({ request, server }) => kutt(request, server, async () => new Response("OK", { headers: { "Content-Type": "text/html; charset=utf-8" } })))
      .get("/api/v2/users", ({ request, server }) => kutt(request, server, () => kuttUser(request, server, deps)))
      .get("/api/v2/links", ({ request, server }) => kutt(request, server, () => kuttList(request, server, deps)))
      .post("/api/v2/links", ({ request, server }) => kutt(request, server, () => kuttCreate(request, server, deps)), { parse: "none" })
      .patch("/api/v2/links/:id", ({ request, params, server }) => kutt(request, server, () => kuttPatch(request, params.id ?? "", server, deps)), { parse: "none" })
      .delete("/api/v2/links/:id", ({ request, params, server }) => kutt(request, server, () => kuttDelete(request, params.id ?? "", server, deps)), { parse: "none" })
      .get("/api/v2/links/:id/stats", ({ request, params, server }) => kutt(request, server, () => kuttStats(request, params.id ?? "", server, deps)))
      // Anything else under /api/v2 is Kutt's, answered in its words, not our API's.
      .all("/api/v2/*", ({ request }) => kuttError(404, `${request.method} ${new URL(request.url).pathname} is not a route of this Kutt API`))
  );
}

/**
 * GET /api/v2/users: `{apikey, email, domains}` as Kutt's users.handler.js gives it. We keep only
 * a key's hash, so `apikey` is the key as this request sent it (the client holds it already);
 * `email`: the user's, else the key's name; `domains`: the named domains this key may create on.
 */
async function kuttUser(request: Request, server: PeerServer, deps: KuttDeps): Promise<Response> {
  const auth = await kuttPrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  deps.directory.refreshIfStale(deps.now());
  const listed = domainsForCreate(auth.principal, null, { directory: deps.directory, createAccess: deps.config.createAccess });
  if (!listed.ok) return kuttProblem(listed.problem);
  const domains = listed.value.filter((d) => !d.isDefault && d.name !== null).map((d) => kuttDomain(d.name!));
  return json(200, { apikey: auth.sent, email: auth.principal.user?.email ?? auth.principal.name, domains });
}

/** A domain as Kutt's sanitize.domain shows it; its id a UUID made from its name (domains have no other id here). */
function kuttDomain(name: string): Record<string, unknown> {
  const hex = createHash("sha256").update(name).digest("hex");
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return { id, address: name, banned: false, homepage: name, created_at: null, updated_at: null };
}

