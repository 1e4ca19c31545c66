// Response builders shared by the HTTP surfaces: JSON bodies and API errors in one shape.

import type { ErrorCode, ErrorField, FieldProblem } from "../errors.ts";

export type { ErrorCode, ErrorField, FieldProblem } from "../errors.ts";

/** On every answer (app.ts adds it to those not built here): a browser never guesses a JSON or text body to be HTML or script. */
export const NOSNIFF = { "X-Content-Type-Options": "nosniff" } as const;

const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...NOSNIFF };

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

/** 404 for a link id: unknown, deleted, or another key's (never told apart). */
export function linkNotFound(id: string): Response {
  return apiError(404, "not_found", `no link with id "${id.slice(0, 30)}"`, "id");
}

/** 400 when neither --base-url nor the request says under which host the service is reached. */
export function badHost(): Response {
  return apiError(400, "bad_request", "the Host header is missing or not a valid host name");
}

/**
 * 421 for a management or /metrics request whose Host is not this service's (--base-url): a page
 * that rebinds its own DNS name to this machine must not read or change anything through it.
 */
export function misdirected(): Response {
  return apiError(421, "host_mismatch", "the Host header does not name this service (--base-url); send the request to its own address");
}
