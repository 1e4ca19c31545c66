// POST /api/create: who may create (public or key), rate limit for public creates, read the form,
// create the link, answer with its two URLs.

import type { Config } from "../config.ts";
import { pickLanguage } from "../lang.ts";
import { createLink } from "../links/create.ts";
import { CREATE_SPELLINGS, createNames, type CreateField } from "../links/field-names.ts";
import type { LinkStore } from "../links/store.ts";
import type { Blocklist } from "../links/blocklist.ts";
import type { RateLimiter } from "./rate-limit.ts";
import type { ClickRecorder } from "../visits/recorder.ts";
import { authenticate, unauthenticated, type AuthDeps } from "./auth.ts";
import { creatorOf } from "../auth/policy.ts";
import { readFormFields, type FieldKind } from "./form-body.ts";
import { destinationRules } from "./destination-rules.ts";
import { publicBase, requestClient, type PeerServer } from "./request-origin.ts";
import { apiError, badHost, fieldErrors, json } from "./responses.ts";
import { storageUnavailable } from "./storage-failure.ts";
import { logAction } from "./audit.ts";
import { warnings } from "./link-json.ts";

export type CreateDeps = AuthDeps & {
  config: Config;
  links: LinkStore;
  limiter: RateLimiter;
  blocklist: () => Blocklist;
  recorder: Pick<ClickRecorder, "hurry">;
};

const KINDS: Record<CreateField, FieldKind> = {
  url: "text", custom_url: "text", expires_at: "text", max_clicks: "count", tags: "list",
  rules: "json", variants: "json", password: "text", redirect_type: "count", valid_from: "text", fallback_url: "text", crawlable: "flag",
};
/** Every field under both its names; which names a body may use is createNames's rule (docs/api.md: Create a short link). */
export const CREATE_FIELDS: Record<string, FieldKind> = Object.fromEntries(
  (Object.keys(KINDS) as CreateField[]).flatMap((f) => [[f, KINDS[f]], [CREATE_SPELLINGS[f], KINDS[f]]]),
);

export async function handleCreate(request: Request, server: PeerServer, deps: CreateDeps): Promise<Response> {
  const auth = await authenticate(request, server, deps);
  if (!auth.ok) return auth.response;
  const principal = auth.principal;
  if (principal === null && deps.config.createAccess === "key") return unauthenticated(auth);
  const now = deps.now();
  // A key holder is the owner or someone the owner trusts: the flood limit is for anonymous creates.
  if (principal === null) {
    const verdict = deps.limiter.take(requestClient(server, request, deps.trusted), now);
    if (!verdict.allowed) {
      return apiError(429, "rate_limited", `too many links created from your address; try again in ${verdict.retryAfterSeconds} s`, undefined, {
        "Retry-After": String(verdict.retryAfterSeconds),
      });
    }
  }
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return badHost();

  const body = await readFormFields(request, CREATE_FIELDS);
  if (!body.ok) return apiError(body.status, body.code, body.error);
  const spelled = createNames(body.given, body.json);
  if (!spelled.ok) return apiError(400, "bad_request", spelled.error);

  const rules = destinationRules(deps, base, request, server);
  let result;
  try {
    result = await createLink(deps.links, { ...rules, fields: body.fields, names: spelled.names, creator: creatorOf(principal), now });
  } catch (err) {
    return storageUnavailable(err, deps.log, "creating a link");
  }
  if (!result.ok) {
    if (result.status === 400) return fieldErrors(result.problems);
    const [problem] = result.problems;
    return apiError(409, problem.code, problem.error, problem.field);
  }
  if (principal !== null) logAction(deps.log, principal, "create", result.link.id, "ok");

  const lang = pickLanguage(request.headers.get("accept-language"));
  return json(201, {
    success: true,
    data: { shortUrl: `${base}/${result.link.id}`, statsUrl: `${base}/${lang}/stats/${result.link.id}`, ...warnings(result.link) },
  });
}
