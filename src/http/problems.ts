// The HTTP status of each error code (docs/api.md: Errors), and an operation's problem as the
// API's JSON error. One table, so that a code means one status on every route.

import type { ErrorCode } from "../errors.ts";
import type { Problem } from "../ops/outcome.ts";
import { json } from "./responses.ts";

export const STATUS_OF: Readonly<Record<ErrorCode, number>> = {
  url_missing: 400, url_invalid: 400, url_too_long: 400, url_scheme: 400, url_credentials: 400, url_self: 400, url_local: 400, url_blocked: 400,
  alias_invalid: 400, alias_reserved: 400, alias_taken: 409, alias_retired: 409,
  expires_invalid: 400, expires_past: 400, max_clicks_invalid: 400, tags_invalid: 400, tag_taken: 409, title_invalid: 400, card_invalid: 400,
  rules_invalid: 400, variants_invalid: 400, password_invalid: 400, redirect_type_invalid: 400, valid_from_invalid: 400,
  password_required: 401, password_wrong: 403, password_locked: 423,
  rate_limited: 429, body_too_large: 413, unsupported_media_type: 415, bad_request: 400, too_many_rows: 413,
  auth_required: 401, auth_invalid: 401, auth_rate_limited: 429, auth_header_invalid: 400, origin_mismatch: 403, host_mismatch: 421, metrics_forbidden: 403,
  user_disabled: 403, group_not_allowed: 403, key_sign_in_off: 403, oidc_off: 404,
  oidc_provider_down: 502, oidc_state_mismatch: 400, oidc_code_refused: 400, oidc_provider_refused: 403, oidc_wrong_audience: 401, oidc_token_expired: 401, oidc_token_invalid: 401,
  id_missing: 400, bad_range: 400, not_found: 404, method_not_allowed: 405, import_running: 409, admin_only: 403,
  url_private: 400, events_invalid: 400, too_many_streams: 429,
  qr_invalid: 400, link_blocked: 410,
  label_invalid: 400,
  host_unknown: 421, domain_invalid: 400, domain_unknown: 400, domain_forbidden: 403, domain_taken: 409, domain_not_found: 404, domain_clash: 409, domain_has_links: 409,
  storage_unavailable: 503, internal: 500,
};

/** A problem as the API's error: `{success:false, error, code, field?, errors?}` with its status. */
export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  const body: Record<string, unknown> = { success: false, error: problem.message, code: problem.code };
  if (problem.field !== undefined) body.field = problem.field;
  if (problem.fields !== undefined && problem.fields.length > 0) body.errors = problem.fields;
  const retry: Record<string, string> = problem.retryAfterSeconds === undefined ? {} : { "Retry-After": String(problem.retryAfterSeconds) };
  return json(STATUS_OF[problem.code], body, { ...retry, ...headers });
}
