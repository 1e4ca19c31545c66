// GET /api/openapi.json: an OpenAPI 3.1 document of every route, built from one table of
// operations whose request and response shapes are the schemas in schemas.ts. The contract test
// (test/support/contract.ts) finds each real response's schema in the same table.

import type { TSchema } from "elysia";
import { LANGUAGES } from "../../lang.ts";
import * as S from "../../api/schemas.ts";
import { EVENT_TYPES } from "../../events/types.ts";
import { type Auth, type Operation, RETRY } from "./operation.ts";
import { CREATE_LINK, LINK_BY_ID, LINK_COLLECTION } from "./links.ts";
import { LIVE_STATS, ORPHAN_VISITS, ORPHAN_VISITS_EXPORT, OVERVIEW, READ_STATS } from "./stats.ts";
import { IMPORT_ROUTES } from "./imports.ts";
import { WEBHOOK_ROUTES } from "./webhooks.ts";
import { DOMAIN_ROUTES } from "./domains.ts";
import { SESSION_ROUTES } from "./session.ts";
import { SERVICE_ROUTES } from "./service.ts";
import { CLICK_ROUTES } from "./clicks.ts";
import { QR_ROUTES } from "./qr.ts";
import { VISIT_EXPORT } from "./visit-export.ts";
import { AGGREGATE_ROUTES } from "./aggregate.ts";
import { SHARE_ROUTES } from "./shares.ts";

export type { Operation, Reply } from "./operation.ts";

/** Every route that asks who is calling reads a proxy's identity header (docs/sign-in.md: Auth proxy headers). */
const HEADER_400 = "auth_header_invalid: an --auth-header identity header from the trusted proxy that is not UTF-8, holds a control or invisible character, or came twice";
function withHeaderRefusal(op: Operation): Operation {
  if (op.auth !== "optional" && op.auth !== "required") return op;
  const bad = op.responses[400]?.description;
  return { ...op, responses: { ...op.responses, 400: { description: bad === undefined ? HEADER_400 : `${bad}; or ${HEADER_400}`, json: S.ApiError } } };
}

// In the order the document has always listed them.
const ROUTES: Operation[] = [
  CREATE_LINK, READ_STATS, ...LINK_COLLECTION, ...IMPORT_ROUTES, LIVE_STATS, ...WEBHOOK_ROUTES, ...DOMAIN_ROUTES, ...LINK_BY_ID, OVERVIEW, VISIT_EXPORT,
  ...SESSION_ROUTES, ...SERVICE_ROUTES, ...CLICK_ROUTES, ...QR_ROUTES,
  ORPHAN_VISITS,
  ...AGGREGATE_ROUTES,
  ...SHARE_ROUTES,
  ORPHAN_VISITS_EXPORT,
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
  "link.created": "data: {link}: a link was made (not by an import); link.domain names its domain",
  "link.updated": "data: {link, changed}: a link was edited; changed names the fields",
  "link.deleted": "data: {link}: a link was deleted, as it was",
  "link.gone": "data: {id, domain, reason}: a link stopped redirecting: expired, click_limit or disabled",
  "link.clicks": "data: {clicks: [{id, domain, timestamp, browser, os, device, country, referrer, isBot, utmSource, utmMedium, utmCampaign, rule?, variant?}]}: at most one a second per webhook, up to 1,000 clicks",
  "link.milestone": "data: {id, domain, milestone, totalClicks}: a link's clicks passed 10, 100, 1,000, …",
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
