// What the OpenAPI document is built from: an operation (a route, its auth, parameters, body and
// replies) and the pieces the area files share (the error codes each status carries).

import { t, type TSchema } from "elysia";
import * as S from "../../api/schemas.ts";

export type Auth = "none" | "optional" | "required" | "metrics";
export type Parameter = { name: string; in: "path" | "query" | "header"; required?: boolean; description: string; schema: TSchema };
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

export const text = t.String();
export const CODES: Record<number, string> = {
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
/** The error replies of an operation: each status with the codes it can carry. */
export function errors(statuses: number[], bad400?: string): Record<number, Reply> {
  const out: Record<number, Reply> = {};
  for (const s of statuses) out[s] = { description: s === 400 ? (bad400 ?? "bad_request") : CODES[s]!, json: S.ApiError };
  return out;
}
export const id = (description: string): Parameter => ({ name: "id", in: "path", required: true, description, schema: t.String({ pattern: "^[A-Za-z0-9_-]{1,64}$" }) });
export const q = (name: string, description: string, schema: TSchema = t.String()): Parameter => ({ name, in: "query", description, schema });
export const RETRY = { "Retry-After": "seconds until the limit lets another request through" };
/** The routes only admins may call (imports, webhooks). */
export const ADMIN_ONLY: Reply = { description: `admin_only (a create key, or a user who is not an admin), or ${CODES[403]}`, json: S.ApiError };
