// Response builders shared by the HTTP surfaces: JSON bodies and API errors in one shape.

export type ErrorCode =
  | "url_missing" | "url_invalid" | "url_too_long" | "url_scheme" | "url_credentials" | "url_self" | "url_blocked"
  | "alias_invalid" | "alias_reserved" | "alias_taken" | "alias_retired"
  | "expires_invalid" | "expires_past" | "max_clicks_invalid" | "tags_invalid"
  | "rate_limited" | "body_too_large" | "unsupported_media_type" | "bad_request" | "too_many_rows"
  | "auth_required" | "auth_invalid" | "auth_rate_limited" | "origin_mismatch"
  | "id_missing" | "bad_range" | "not_found" | "method_not_allowed"
  | "storage_unavailable" | "internal";

/** The request field an error concerns, named as the client sent it. */
export type ErrorField =
  | "url" | "custom_url" | "expires_at" | "max_clicks" | "tags"
  | "expiresAt" | "maxClicks" | "disabled"
  | "id" | "from" | "to" | "bots"
  | "q" | "tag" | "status" | "sort" | "order" | "limit" | "cursor" | "include" | "format" | "ids" | "key";

/** One field's problem; a 400 that found several lists them all in `errors`. */
export type FieldProblem = { code: ErrorCode; field: ErrorField; error: string };

const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** `{success:false, error, code, field?}`: `error` for people, `code` and `field` for the UI. */
export function apiError(status: number, code: ErrorCode, error: string, field?: ErrorField, headers: Record<string, string> = {}): Response {
  return json(status, field ? { success: false, error, code, field } : { success: false, error, code }, headers);
}

/** A 400 for one or more field problems: the first as `error`/`code`/`field`, all of them in `errors`. */
export function fieldErrors(problems: readonly FieldProblem[]): Response {
  const [first] = problems;
  if (!first) throw new Error("fieldErrors needs a problem");
  return json(400, { success: false, error: first.error, code: first.code, field: first.field, errors: problems });
}
