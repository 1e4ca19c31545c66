// GET /api/openapi.json: an OpenAPI 3.1 document of every route, built from one table of
// operations whose request and response shapes are the schemas in schemas.ts. The contract test
// (test/support/contract.ts) finds each real response's schema in the same table.

import { t, type TSchema } from "elysia";
import { LANGUAGES } from "../../lang.ts";
import { LINK_STATUSES } from "../../links/link.ts";
import { LIST_SORTS } from "../../links/list.ts";
import { MAX_PAGE } from "../link-query.ts";
import * as S from "../../api/schemas.ts";
import { EVENT_TYPES } from "../../events/types.ts";

type Auth = "none" | "optional" | "required" | "metrics";
type Parameter = { name: string; in: "path" | "query" | "header"; required?: boolean; description: string; schema: TSchema };
export type Reply = { description: string; json?: TSchema; content?: Record<string, TSchema>; headers?: Record<string, string> };
export type Operation = {
  method: "get" | "post" | "patch" | "delete";
  path: string;
  operationId: string;
  summary: string;
  auth: Auth;
  parameters?: Parameter[];
  body?: Record<string, TSchema>;
  responses: Record<number, Reply>;
};

const text = t.String();
const CODES: Record<number, string> = {
  401: "auth_required (no key; WWW-Authenticate: Bearer) or auth_invalid (a wrong or revoked key, or an ended session)",
  403: "origin_mismatch (a change made with the session cookie or a proxy's identity header from another site's page), user_disabled, group_not_allowed (a proxy's user outside --auth-allowed-group), or key_sign_in_off (--oidc-only)",
  404: "not_found",
  409: "alias_taken or alias_retired",
  413: "body_too_large (or too_many_rows for an import)",
  415: "unsupported_media_type",
  421: "host_mismatch: with --base-url, a Host (X-Forwarded-Host from a trusted proxy) that is not the service's own",
  429: "rate_limited (creates) or auth_rate_limited (failed key attempts); Retry-After says when to come back",
  503: "storage_unavailable: the database refuses writes (disk full, read-only) or cannot be reached (PostgreSQL away)",
};
/** Every route that asks who is calling reads a proxy's identity header (docs/sign-in.md: Auth proxy headers). */
const HEADER_400 = "auth_header_invalid: an --auth-header identity header from the trusted proxy that is not UTF-8, holds a control or invisible character, or came twice";
function withHeaderRefusal(op: Operation): Operation {
  if (op.auth !== "optional" && op.auth !== "required") return op;
  const bad = op.responses[400]?.description;
  return { ...op, responses: { ...op.responses, 400: { description: bad === undefined ? HEADER_400 : `${bad}; or ${HEADER_400}`, json: S.ApiError } } };
}

/** The error replies of an operation: each status with the codes it can carry. */
function errors(statuses: number[], bad400?: string): Record<number, Reply> {
  const out: Record<number, Reply> = {};
  for (const s of statuses) out[s] = { description: s === 400 ? (bad400 ?? "bad_request") : CODES[s]!, json: S.ApiError };
  return out;
}
const id = (description: string): Parameter => ({ name: "id", in: "path", required: true, description, schema: t.String({ pattern: "^[A-Za-z0-9_-]{1,64}$" }) });
const q = (name: string, description: string, schema: TSchema = t.String()): Parameter => ({ name, in: "query", description, schema });
const RETRY = { "Retry-After": "seconds until the limit lets another request through" };
/** The routes only admins may call (imports, webhooks). */
const ADMIN_ONLY: Reply = { description: `admin_only (a create key, or a user who is not an admin), or ${CODES[403]}`, json: S.ApiError };
const WEBHOOK_ID: Parameter = { name: "id", in: "path", required: true, description: "the webhook's id", schema: t.String() };

const ROUTES: Operation[] = [
  {
    method: "post", path: "/api/create", operationId: "createLink", auth: "optional",
    summary: "Create a short link (no key needed unless --create-access key; with a key the link is the key's and not rate limited)",
    body: { "multipart/form-data": S.CreateForm, "application/x-www-form-urlencoded": S.CreateForm, "application/json": S.CreateJson },
    responses: {
      201: { description: "created", json: S.Created },
      ...errors([400, 401, 403, 409, 413, 415, 429, 503], "url_*, alias_*, expires_*, max_clicks_invalid, tags_invalid, url_blocked or bad_request; every field problem is in errors"),
    },
  },
  {
    method: "get", path: "/api/stats", operationId: "readStats", auth: "optional",
    summary: "Statistics of a link (public unless --stats-access key: then the owner key or an admin key); a password-protected link's destination and variant URLs only for its owner and admins (docs/security.md: Security)",
    parameters: [
      { name: "id", in: "query", required: true, description: "the link's id or alias", schema: t.String() },
      q("from", "first UTC day, YYYY-MM-DD"),
      q("to", "last UTC day, YYYY-MM-DD"),
      q("bots", "exclude: leave bot clicks out of every figure", t.Union([t.Literal("include"), t.Literal("exclude")])),
    ],
    responses: { 200: { description: "the link and its statistics", json: S.Stats }, ...errors([400, 401, 403, 404, 429, 503], "id_missing, bad_range or bad_request") },
  },
  {
    method: "get", path: "/api/links", operationId: "listLinks", auth: "required",
    summary: "The links a key may see, a page at a time (newest first by default)",
    parameters: [
      q("q", "a substring of the id or the destination (ASCII letters in any case)"),
      q("tag", "only links with this tag"),
      q("status", "only links in this status", t.Union(LINK_STATUSES.map((s) => t.Literal(s)))),
      q("sort", "createdAt (default), totalClicks or lastClickAt", t.Union(LIST_SORTS.map((s) => t.Literal(s)))),
      q("order", "desc (default) or asc", t.Union([t.Literal("asc"), t.Literal("desc")])),
      q("limit", `links per page, 1 to ${MAX_PAGE} (default 50)`, t.Integer({ minimum: 1, maximum: MAX_PAGE })),
      q("cursor", "the nextCursor of the previous page"),
      q("include", "daily: add each link's clicks per day of the last 30", t.Literal("daily")),
      q("owner", "an admin's filter: the links of the user or the key (of nobody's) with this name"),
    ],
    responses: { 200: { description: "a page of links", json: S.LinkPage }, ...errors([400, 401, 403, 421, 429, 503], "bad_request naming the parameter") },
  },
  {
    method: "get", path: "/api/links/export", operationId: "exportLinks", auth: "required",
    summary: "Every link the key may see (or the ids given), with its totals, as CSV or JSON",
    parameters: [q("format", "csv (default) or json", t.Union([t.Literal("csv"), t.Literal("json")])), q("ids", "comma-separated ids, at most 200")],
    responses: {
      200: { description: "a download (Content-Disposition: attachment)", content: { "text/csv": text, "application/json": S.ExportJson } },
      ...errors([400, 401, 403, 421, 429, 503]),
    },
  },
  {
    method: "post", path: "/api/links/import", operationId: "importLinks", auth: "required",
    summary: "Create each row like a create would; at most 10,000 rows and 4 MiB",
    body: { "text/csv": text, "application/json": S.ImportRows },
    responses: {
      200: { description: "every row's outcome (row: the number of the data record)", json: S.ImportOutcome },
      ...errors([400, 401, 403, 413, 415, 421, 429]),
      503: { description: `${CODES[503]}; data: the rows' outcome so far and stoppedAtRow`, json: S.ImportStopped },
    },
  },
  {
    method: "post", path: "/api/imports", operationId: "startImport", auth: "required",
    summary: "Start an import from Shlink, YOURLS, Kutt, Bitly or a CSV (admins; one at a time; as `shortener import`)",
    body: { "application/json": S.ImportRequest },
    responses: {
      202: { description: "started: poll GET /api/imports/{id}", json: S.ImportJob },
      ...errors([400, 401, 413, 415, 421, 429], "bad_request: an unknown source, or an option it needs is missing or wrong; url_private: url or sourceDb is a special-purpose address (loopback, private, link-local...) without --import-allow-private"),
      403: ADMIN_ONLY,
      409: { description: "import_running: another import is under way", json: S.ApiError },
    },
  },
  {
    method: "get", path: "/api/imports/{id}", operationId: "getImport", auth: "required",
    summary: "How far an import is; at the end its result (the last ten are kept until a restart)",
    parameters: [{ name: "id", in: "path", required: true, description: "the import's id", schema: t.String() }],
    responses: {
      200: { description: "the import", json: S.ImportJob },
      ...errors([401, 404, 421, 429]),
      403: ADMIN_ONLY,
    },
  },
  {
    method: "get", path: "/api/stats/live", operationId: "liveStats", auth: "optional",
    summary: "Server-Sent Events: with id, the link's visits as they are written (as its statistics' access, variant URLs as its statistics show them); without, clicks of every link the key may see (docs/webhooks.md: Live view)",
    parameters: [q("id", "the link's id; leave out for every link (a key or session needed)")],
    responses: {
      200: { description: "text/event-stream: event ready, then visit (with id) or clicks (without), and heartbeat every 5 s", content: { "text/event-stream": text } },
      ...errors([400, 401, 403, 404, 421, 503]),
      429: { description: `too_many_streams: at most ${10} streams from one address and ${500} in all`, json: S.ApiError },
    },
  },
  {
    method: "post", path: "/api/webhooks", operationId: "createWebhook", auth: "required",
    summary: "Add a webhook (admins): deliveries are signed as Standard Webhooks says; the secret is answered this once (docs/webhooks.md: Webhooks)",
    body: { "application/json": S.WebhookFields },
    responses: {
      201: { description: "the webhook and its secret", json: S.WebhookCreated },
      ...errors([400, 401, 413, 415, 421, 429, 503], "url_* (url_private: an address, written or resolved, that the service would not post to: without --webhook-allow-private here, or on another running instance), events_invalid, tags_invalid or bad_request"),
      403: ADMIN_ONLY,
    },
  },
  {
    method: "get", path: "/api/webhooks", operationId: "listWebhooks", auth: "required", summary: "Every webhook (admins), never its secret",
    responses: { 200: { description: "the webhooks", json: S.WebhookList }, ...errors([401, 421, 429, 503]), 403: ADMIN_ONLY },
  },
  {
    method: "get", path: "/api/webhooks/{id}", operationId: "getWebhook", auth: "required", summary: "One webhook (admins)",
    parameters: [WEBHOOK_ID],
    responses: { 200: { description: "the webhook", json: S.WebhookResponse }, ...errors([401, 404, 421, 429, 503]), 403: ADMIN_ONLY },
  },
  {
    method: "patch", path: "/api/webhooks/{id}", operationId: "updateWebhook", auth: "required", summary: "Change a webhook (admins); enabled: true starts it again after a 410 or a day of failures",
    parameters: [WEBHOOK_ID],
    body: { "application/json": S.WebhookChanges },
    responses: {
      200: { description: "the webhook", json: S.WebhookResponse },
      ...errors([400, 401, 404, 413, 415, 421, 429, 503], "url_* (url_private as for the create), events_invalid, tags_invalid or bad_request"),
      403: ADMIN_ONLY,
    },
  },
  {
    method: "delete", path: "/api/webhooks/{id}", operationId: "deleteWebhook", auth: "required", summary: "Delete a webhook and its delivery log (admins)",
    parameters: [WEBHOOK_ID],
    responses: { 200: { description: "deleted", json: S.WebhookDeleted }, ...errors([401, 404, 421, 429, 503]), 403: ADMIN_ONLY },
  },
  {
    method: "get", path: "/api/webhooks/{id}/deliveries", operationId: "listDeliveries", auth: "required", summary: "The webhook's delivery log, newest first, 7 days (admins)",
    parameters: [
      WEBHOOK_ID,
      q("before", "a delivery's id: the page after it (nextBefore)"), q("limit", "1..200, default 50"),
    ],
    responses: { 200: { description: "a page of deliveries", json: S.DeliveryPage }, ...errors([400, 401, 404, 421, 429, 503]), 403: ADMIN_ONLY },
  },
  {
    method: "post", path: "/api/webhooks/{id}/deliveries/{delivery}/redeliver", operationId: "redeliver", auth: "required",
    summary: "Send a delivery again, with the same webhook-id, after those already queued (admins)",
    parameters: [
      WEBHOOK_ID,
      { name: "delivery", in: "path", required: true, description: "the delivery's id", schema: t.String() },
    ],
    responses: { 202: { description: "queued", json: S.DeliveryResponse }, ...errors([401, 404, 421, 429, 503]), 403: ADMIN_ONLY },
  },
  {
    method: "get", path: "/api/links/{id}", operationId: "getLink", auth: "required",
    summary: "One link", parameters: [id("the link's id; another key's link is a 404 to a create key")],
    responses: { 200: { description: "the link", json: S.LinkResponse }, ...errors([401, 403, 404, 421, 429, 503]) },
  },
  {
    method: "patch", path: "/api/links/{id}", operationId: "updateLink", auth: "required",
    summary: "Change a link's destination, expiry, click limit, state or tags; the next click uses them",
    parameters: [id("the link's id")],
    body: { "application/json": S.LinkChanges },
    responses: { 200: { description: "the changed link", json: S.LinkResponse }, ...errors([400, 401, 403, 404, 413, 415, 421, 429, 503], "the field at fault, as for a create") },
  },
  {
    method: "delete", path: "/api/links/{id}", operationId: "deleteLink", auth: "required",
    summary: "Delete a link, its visits and rollups; the id is retired for ever",
    parameters: [id("the link's id")],
    responses: { 200: { description: "deleted", json: S.Deleted }, ...errors([401, 403, 404, 421, 429, 503]) },
  },
  {
    method: "get", path: "/api/overview", operationId: "overview", auth: "required",
    summary: "The dashboard's figures for the links a key may see",
    responses: { 200: { description: "links, clicks today / 7 / 30 days, per day, top 5", json: S.Overview }, ...errors([401, 403, 421, 429, 503]) },
  },
  {
    method: "get", path: "/api/session", operationId: "whoAmI", auth: "optional",
    summary: "Who is signed in, and the access policy",
    responses: { 200: { description: "signed in or not", json: S.Session }, ...errors([401, 403, 421, 429, 503]) },
  },
  {
    method: "post", path: "/api/session", operationId: "signIn", auth: "none",
    summary: "Sign in with a key: sets the session cookie (HttpOnly, SameSite=Strict)",
    body: { "application/json": S.SignIn, "application/x-www-form-urlencoded": S.SignIn, "multipart/form-data": S.SignIn },
    responses: { 200: { description: "signed in; Set-Cookie: shortener_session", json: S.SignedIn }, ...errors([400, 401, 403, 413, 415, 421, 429, 503]) },
  },
  {
    method: "delete", path: "/api/session", operationId: "signOut", auth: "optional",
    summary: "Sign out: ends the session on the server and clears the cookie",
    responses: { 200: { description: "signed out", json: S.SignedOut }, ...errors([401, 403, 421, 429, 503]) },
  },
  {
    method: "get", path: "/api/session/oidc", operationId: "signInWithProvider", auth: "none",
    summary: "Sign in through the OpenID provider (--oidc-issuer): 302 to it, with a flow cookie (SameSite=Lax, 10 minutes)",
    parameters: [q("next", "a path on this service to return to (default: the dashboard)")],
    responses: {
      302: { description: "to the provider's authorization endpoint", headers: { Location: "the provider", "Set-Cookie": "shortener_oidc" } },
      404: { description: "oidc_off: no provider is configured", json: S.ApiError },
      421: { description: CODES[421]!, json: S.ApiError },
      502: { description: "oidc_provider_down (a page, or JSON with Accept: application/json)", content: { "text/html": text, "application/json": S.ApiError } },
    },
  },
  {
    method: "get", path: "/api/session/oidc/callback", operationId: "providerCallback", auth: "none",
    summary: "Where the provider sends the browser back: the session cookie and a page that goes on to next (a refresh, so that the SameSite=Strict cookie goes along); every refusal a page in the visitor's language (JSON with Accept: application/json)",
    parameters: [q("code", "the provider's code"), q("state", "the flow's state"), q("error", "the provider's refusal")],
    responses: {
      200: { description: "signed in: Set-Cookie shortener_session, the flow cookie cleared; the page refreshes to next", content: { "text/html": text } },
      400: { description: "oidc_state_mismatch or oidc_code_refused (used already, expired)", content: { "text/html": text, "application/json": S.ApiError } },
      401: { description: "oidc_wrong_audience, oidc_token_expired or oidc_token_invalid", content: { "text/html": text, "application/json": S.ApiError } },
      403: { description: "oidc_provider_refused, user_disabled or group_not_allowed", content: { "text/html": text, "application/json": S.ApiError } },
      404: { description: "oidc_off: no provider is configured", json: S.ApiError },
      421: { description: CODES[421]!, json: S.ApiError },
      502: { description: "oidc_provider_down", content: { "text/html": text, "application/json": S.ApiError } },
      503: { description: CODES[503]!, json: S.ApiError },
    },
  },
  {
    method: "get", path: "/api/openapi.json", operationId: "openApi", auth: "none",
    summary: "This document", responses: { 200: { description: "OpenAPI 3.1", json: t.Object({ openapi: t.Literal("3.1.0") }) } },
  },
  {
    method: "get", path: "/health", operationId: "health", auth: "none",
    summary: "For uptime monitors: 200 when the database answers and visits are being written",
    responses: { 200: { description: "ok", json: S.Health }, 503: { description: "degraded", json: S.Health } },
  },
  {
    method: "get", path: "/metrics", operationId: "metrics", auth: "metrics",
    summary: "Prometheus text format: from an address in --metrics-allow (default loopback) or with an admin key",
    responses: {
      200: { description: "metrics", content: { "text/plain; version=0.0.4": text } },
      401: { description: CODES[401]!, json: S.ApiError },
      403: { description: "metrics_forbidden: the address is not allowed and no admin key came", json: S.ApiError },
      421: { description: CODES[421]!, json: S.ApiError },
      429: { description: CODES[429]!, json: S.ApiError, headers: RETRY },
      503: { description: CODES[503]!, json: S.ApiError },
    },
  },
  {
    method: "get", path: "/{id}", operationId: "click", auth: "none",
    summary: "A click: 302 (or the link's redirectType) to the destination its rules choose, with the click's query merged in (HEAD: the same, not counted)",
    parameters: [
      id("the link's id or alias"),
      { name: "X-Link-Password", in: "header", description: "a password-protected link's password, for scripts (browsers get a page with a form)", schema: t.String() },
    ],
    responses: {
      301: { description: "the link's redirectType 301", headers: { Location: "the destination" } },
      302: { description: "to the destination (Location; Cache-Control: no-store); also to a gone link's fallbackUrl, and --not-found-redirect", headers: { Location: "the destination" } },
      307: { description: "the link's redirectType 307", headers: { Location: "the destination" } },
      308: { description: "the link's redirectType 308", headers: { Location: "the destination" } },
      401: { description: "password-protected: a page with the password form (HEAD and link previews get it too)", content: { "text/html": text } },
      403: { description: "password_wrong: X-Link-Password holds a wrong password", json: S.ApiError },
      404: { description: "no such link, or one not valid yet (an HTML page)", content: { "text/html": text } },
      410: { description: "disabled, expired, blocked or deleted (an HTML page in the visitor's language; not counted)", content: { "text/html": text } },
      423: { description: "password_locked: the stored password hash is outside the bounds this version verifies; locked until the owner sets a new password (JSON with X-Link-Password, else an HTML page; not counted)", content: { "application/json": S.ApiError, "text/html": text } },
      429: { description: "rate_limited: too many wrong passwords from this address or for this link, a guess from this address already being checked, or the password queue full", json: S.ApiError },
      503: { description: "the link is not in memory and the database cannot be reached (an HTML page; Retry-After)", content: { "text/html": text }, headers: { "Retry-After": "seconds" } },
    },
  },
  {
    method: "post", path: "/{id}", operationId: "unlock", auth: "none",
    summary: "The password page's form: the right password is a click, answered 303 to the destination",
    parameters: [id("the link's id or alias")],
    body: { "application/x-www-form-urlencoded": t.Object({ password: t.String() }), "multipart/form-data": t.Object({ password: t.String() }) },
    responses: {
      303: { description: "to the destination (counted); or back to the link when it is not password-protected", headers: { Location: "the destination" } },
      401: { description: "no password in the form: the page again", content: { "text/html": text } },
      403: { description: "a wrong password: the page again, saying so", content: { "text/html": text } },
      404: { description: "no such link (an HTML page)", content: { "text/html": text } },
      423: { description: "the link's stored password hash is outside the bounds this version verifies: a page saying it is locked", content: { "text/html": text } },
      429: { description: "too many wrong passwords, a guess from this address already being checked, or the password queue full: the page, with Retry-After", content: { "text/html": text } },
      503: { description: "the link is not in memory and the database cannot be reached (an HTML page; Retry-After)", content: { "text/html": text }, headers: { "Retry-After": "seconds" } },
    },
  },
];
export const OPERATIONS: readonly Operation[] = ROUTES.map(withHeaderRefusal);

/** The OpenAPI 3.1 document of the running version. */
export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const responses: Record<string, unknown> = {};
    for (const [status, reply] of Object.entries(op.responses)) {
      const content = reply.json ? { "application/json": { schema: plain(reply.json) } } : reply.content ? Object.fromEntries(Object.entries(reply.content).map(([type, schema]) => [type, { schema: plain(schema) }])) : undefined;
      const headers = { ...(reply.headers ?? {}), ...(status === "429" ? RETRY : {}) };
      responses[status] = {
        description: reply.description,
        ...(content ? { content } : {}),
        ...(Object.keys(headers).length > 0 ? { headers: Object.fromEntries(Object.entries(headers).map(([h, d]) => [h, { description: d, schema: { type: "string" } }])) } : {}),
      };
    }
    (paths[op.path] ??= {})[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.parameters ? { parameters: op.parameters.map((p) => ({ name: p.name, in: p.in, required: p.required ?? false, description: p.description, schema: plain(p.schema) })) } : {}),
      ...(op.body ? { requestBody: { required: true, content: Object.fromEntries(Object.entries(op.body).map(([type, schema]) => [type, { schema: plain(schema) }])) } } : {}),
      ...security(op.auth),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "shortener",
      version,
      description:
        "A link shortener with click analytics. Errors: {success:false, error, code, field?, errors?} (docs/api.md: Errors). " +
        `Statistics pages are at /{lang}/stats/{id} with lang one of ${LANGUAGES.join(", ")}. ` +
        "Malformed HTTP (a request line or headers Bun cannot parse, oversized headers or URL) is answered by the HTTP server itself, before this API.",
      license: { name: "MIT", identifier: "MIT" },
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "an API key (shortener key create) or the systemd credential admin-key" },
        session: { type: "apiKey", in: "cookie", name: "shortener_session", description: "set by POST /api/session; changes made with it need this service's Origin" },
      },
    },
    paths,
    // What a webhook receives (docs/webhooks.md: Webhooks): POSTed JSON, signed as Standard Webhooks says.
    webhooks: Object.fromEntries(
      EVENT_TYPES.map((type) => [
        type,
        {
          post: {
            summary: EVENT_SUMMARIES[type],
            parameters: ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => ({ name, in: "header", required: true, schema: { type: "string" } })),
            requestBody: { content: { "application/json": { schema: { type: "object", required: ["type", "timestamp", "data"], properties: { type: { const: type }, timestamp: { type: "string" }, data: { type: "object" } } } } } },
            responses: { "200": { description: "any 2xx: delivered; 410: the webhook is disabled; anything else: tried again" } },
          },
        },
      ]),
    ),
  };
}

const EVENT_SUMMARIES: Record<(typeof EVENT_TYPES)[number], string> = {
  "link.created": "data: {link}: a link was made (not by an import)",
  "link.updated": "data: {link, changed}: a link was edited; changed names the fields",
  "link.deleted": "data: {link}: a link was deleted, as it was",
  "link.gone": "data: {id, reason}: a link stopped redirecting: expired, click_limit or disabled",
  "link.clicks": "data: {clicks: [{id, timestamp, browser, os, device, country, referrer, isBot, utmSource, utmMedium, utmCampaign, rule?, variant?}]}: at most one a second per webhook, up to 1,000 clicks",
  "link.milestone": "data: {id, milestone, totalClicks}: a link's clicks passed 10, 100, 1,000, …",
};

function security(auth: Auth): Record<string, unknown> {
  if (auth === "required") return { security: [{ bearer: [] }, { session: [] }] };
  if (auth === "optional") return { security: [{}, { bearer: [] }, { session: [] }] };
  if (auth === "metrics") return { security: [{}, { bearer: [] }] };
  return { security: [] };
}

/** A TypeBox schema as plain JSON Schema (TypeBox keeps its own marks in symbol keys). */
function plain(schema: TSchema): unknown {
  return JSON.parse(JSON.stringify(schema));
}

/**
 * The operation a request is answered by (HEAD by its GET), or null: the route of that method and
 * path, else the template route of that method the path fits (as the router does: DELETE
 * /api/links/export is answered by DELETE /api/links/{id}, though GET has the exact path).
 */
export function operationFor(method: string, path: string): Operation | null {
  const m = (method === "HEAD" ? "get" : method.toLowerCase()) as Operation["method"];
  const exact = OPERATIONS.find((op) => op.method === m && op.path === path);
  if (exact) return exact;
  return OPERATIONS.find((op) => op.method === m && op.path.includes("{") && new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path)) ?? null;
}
