// Response builders shared by the HTTP surfaces: JSON bodies and API errors in one shape.

export type ErrorCode =
  | "url_missing" | "url_invalid" | "url_too_long" | "url_scheme" | "url_credentials" | "url_self"
  | "alias_invalid" | "alias_reserved" | "alias_taken"
  | "rate_limited" | "body_too_large" | "unsupported_media_type" | "bad_request"
  | "id_missing" | "bad_range" | "not_found" | "method_not_allowed"
  | "storage_unavailable" | "internal";

export type ErrorField = "url" | "custom_url" | "id" | "from" | "to" | "bots";

const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** `{success:false, error, code, field?}`: `error` for people, `code` and `field` for the UI. */
export function apiError(status: number, code: ErrorCode, error: string, field?: ErrorField, headers: Record<string, string> = {}): Response {
  return json(status, field ? { success: false, error, code, field } : { success: false, error, code }, headers);
}
