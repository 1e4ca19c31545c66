// Shlink's errors: `application/problem+json` with its type URIs (docs/shlink-api.md: Errors). The
// web client treats a body as a problem only when it has type, title, detail and status, and shows
// `detail` (shlink-web-component src/api-contract/utils.ts isProblemDetails).

import type { ErrorType, ProblemDetailsError } from "@shlinkio/shlink-js-sdk/api-contract";

/** Shlink's error types this surface sends, with their status and title (Shlink's module/Core/src/Exception). */
export const SHLINK_TYPES = {
  "invalid-data": { status: 400, title: "Invalid data" },
  "non-unique-slug": { status: 400, title: "Invalid custom slug" },
  "short-url-not-found": { status: 404, title: "Short URL not found" },
  "domain-not-found": { status: 404, title: "Domain not found" },
  "tag-not-found": { status: 404, title: "Tag not found" },
  "tag-conflict": { status: 409, title: "Tag conflict" },
  "forbidden-tag-operation": { status: 403, title: "Forbidden tag operation" },
  "mercure-not-configured": { status: 501, title: "Mercure integration not configured" },
  "missing-authentication": { status: 401, title: "Invalid authorization" },
  "invalid-api-key": { status: 401, title: "Invalid API key" },
  "not-found": { status: 404, title: "Not Found" },
} as const;

export type ShlinkType = keyof typeof SHLINK_TYPES;

// Every type sent is one the SDK's clients know (shlink-js-sdk src/api-contract/errors.ts): the typecheck proves it.
type SdkErrorType = (typeof ErrorType)[keyof typeof ErrorType];
const KNOWN_TO_THE_SDK: `https://shlink.io/api/error/${ShlinkType}` extends SdkErrorType ? true : never = true;
void KNOWN_TO_THE_SDK;

/** A refusal a handler throws; the router answers it as a problem document. */
export class ShlinkProblem extends Error {
  constructor(
    readonly type: ShlinkType,
    readonly detail: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(detail);
  }
}

/** A refusal of a type of ours (413, 421, 429, 503…) a helper throws; the router answers its document. */
export class OurRefusal extends Error {
  constructor(readonly response: Response) {
    super(`refused with ${response.status}`);
  }
}

/** The problem document of one of our codes Shlink has no type for: `urn:shortener:error:<code>`, titled by the code. */
export function ourProblem(status: number, code: string, detail: string): Response {
  return problemDocument(status, `urn:shortener:error:${code}`, code, detail);
}

/** `invalid-data` naming Shlink's field names, the refusal of every bad input. */
export function invalidData(detail: string, invalidElements: readonly string[]): ShlinkProblem {
  return new ShlinkProblem("invalid-data", detail, { invalidElements });
}

/** The problem document of a Shlink type. */
export function shlinkProblem(type: ShlinkType, detail: string, extra: Readonly<Record<string, unknown>> = {}): Response {
  const { status, title } = SHLINK_TYPES[type];
  return problemDocument(status, `https://shlink.io/api/error/${type}`, title, detail, extra);
}

/** A problem document of any type (ours for refusals Shlink has no type for: 413, 429, 421, 503). */
export function problemDocument(status: number, type: string, title: string, detail: string, extra: Readonly<Record<string, unknown>> = {}): Response {
  return new Response(JSON.stringify({ ...extra, type, title, detail, status } satisfies ProblemDetailsError), {
    status,
    headers: { "Content-Type": "application/problem+json", "X-Content-Type-Options": "nosniff" },
  });
}

/** A JSON answer of the Shlink surface. */
export function shlinkJson(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff" } });
}

/**
 * One of our own API's refusals (a 421 from the host guard, a 429 of the failed-key limit, a 403 of
 * a disabled user) as a problem document, so that the web client can show it; a Shlink answer
 * passes unchanged. Our codes keep their names in a type of our own: Shlink has none that means them.
 */
export async function asShlinkProblem(response: Response): Promise<Response> {
  if (response.ok || !(response.headers.get("content-type") ?? "").startsWith("application/json")) return response;
  const body = (await response.clone().json().catch(() => null)) as { error?: unknown; code?: unknown } | null;
  if (body === null || typeof body.code !== "string") return response;
  const problem = ourProblem(response.status, body.code, typeof body.error === "string" ? body.error : body.code);
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) problem.headers.set(name, value);
  }
  return problem;
}

/** What a refusal's headers tell a client, kept when it becomes a problem document: when to retry, which request the log names. */
const KEPT_HEADERS = ["Retry-After", "X-Request-Id", "Allow"];
