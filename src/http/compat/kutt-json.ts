// What the Kutt surface says (docs/kutt-api.md: The link object, Errors): Kutt's link object and
// its `{ "error": "..." }` errors, our rules' messages in Kutt's field names, and Kutt's duration
// text for expire_in. Shapes only: what a link is and who may see it is decided elsewhere.

import { DEFAULT_DOMAIN } from "../../domains/domain.ts";
import type { Link } from "../../links/link.ts";
import type { Problem } from "../../ops/outcome.ts";
import { isoTime } from "../../util/day.ts";
import { json } from "../responses.ts";
import { STATUS_OF } from "../problems.ts";
import { kuttId } from "./kutt-id.ts";

/** Kutt's link object (its docs/api/api.js `Link`, server/utils/utils.js `sanitize.link`). */
export type KuttLink = {
  id: string;
  address: string;
  description: string | null;
  banned: boolean;
  password: boolean;
  target: string;
  visit_count: number;
  created_at: string;
  updated_at: string;
  expire_in: string | null;
  /** the domain's name; null on the default domain, as Kutt's links without a domain of their own */
  domain: string | null;
  link: string;
};

/**
 * A link as Kutt shows it. `shortBase`: its domain's base (src/http/link-json.ts linkPlace).
 * visit_count counts people only: Kutt records no visit of a bot. We keep no time of the last
 * change, so updated_at is the creation time.
 */
export function kuttLink(link: Link, shortBase: string): KuttLink {
  const created = isoTime(link.createdAt)!;
  return {
    id: kuttId(link.seq),
    address: link.id,
    description: link.title,
    banned: link.blocked,
    password: link.passwordHash !== null,
    target: link.url,
    visit_count: link.humanClicks,
    created_at: created,
    updated_at: created,
    expire_in: isoTime(link.expiresAt),
    domain: link.domain === DEFAULT_DOMAIN ? null : link.domain,
    link: `${shortBase}/${link.id}`,
  };
}

/** Kutt's error: `{ "error": message }` with a 4xx (a 5xx only for our own trouble). */
export function kuttError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json(status, { error: message }, headers);
}

export const LINK_NOT_FOUND = "Link was not found.";
export const UNAUTHORIZED = "API key is not correct.";

// Our field names as Kutt's clients send them: our rules' messages name the field they were sent as.
const KUTT_NAMES: readonly [RegExp, string][] = [
  [/\bcustom_url\b/g, "customurl"],
  [/\burl\b/g, "target"],
  [/\bexpires_at\b/g, "expire_in"],
  [/\bexpiresAt\b/g, "expire_in"],
  [/\btitle\b/g, "description"],
];

export function inKuttWords(message: string): string {
  return KUTT_NAMES.reduce((text, [ours, theirs]) => text.replace(ours, theirs), message);
}

/**
 * An operation's problem as Kutt's error. A taken or retired alias is a 400 (Kutt's clients, the
 * browser extension among them, show the message of a 400 only); the rest keep our status.
 */
export function kuttProblem(problem: Problem): Response {
  const status = problem.code === "alias_taken" || problem.code === "alias_retired" ? 400 : STATUS_OF[problem.code];
  const message = problem.code === "not_found" ? LINK_NOT_FOUND : inKuttWords(problem.message);
  const retry: Record<string, string> = problem.retryAfterSeconds === undefined ? {} : { "Retry-After": String(problem.retryAfterSeconds) };
  return kuttError(status, message, retry);
}

/**
 * Any answer of ours in Kutt's shape: our `{success:false, error}` (a refused key, 421, 503 from
 * the shared helpers) becomes `{error}` with the same status and Retry-After; others pass as they are.
 */
export async function asKutt(response: Response): Promise<Response> {
  if (response.ok || !(response.headers.get("content-type") ?? "").startsWith("application/json")) return response;
  const body = (await response.clone().json().catch(() => null)) as { success?: boolean; error?: unknown; code?: unknown } | null;
  if (body === null || body.success !== false || typeof body.error !== "string") return response;
  const retry = response.headers.get("retry-after");
  const message = body.code === "auth_invalid" || body.code === "auth_required" ? UNAUTHORIZED : body.error;
  return kuttError(response.status, message, retry === null ? {} : { "Retry-After": retry });
}

// Kutt reads expire_in with the `ms` package (server/handlers/validators.handler.js): a number and
// an optional unit, at most 100 characters; no unit is milliseconds; a year is 365.25 days.
const DURATION = /^(-?(?:\d+)?\.?\d+) *(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w|years?|yrs?|y)?$/i;
const UNIT_MS: Readonly<Record<string, number>> = { y: 31_557_600_000, w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 };
/** The last instant an ISO 8601 time of four-digit years names (and later than any expiry anyone means). */
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/** The unit's length in ms (its first letter names it; "ms…" and "msec…" are milliseconds). */
function unitMs(unit: string | undefined): number {
  const u = (unit ?? "ms").toLowerCase();
  if (u.startsWith("ms") || u.startsWith("milli")) return 1;
  return UNIT_MS[u[0]!] ?? 1;
}

/** expire_in as the expiry time (ms), or Kutt's message for it. */
export function expiryOf(text: unknown, now: number): { ok: true; at: number } | { ok: false; error: string } {
  const invalid = { ok: false as const, error: "Expire format is invalid. Valid examples: 1m, 8h, 42 days." };
  if (typeof text !== "string") return invalid;
  const trimmed = text.trim();
  const match = trimmed.length <= 100 ? DURATION.exec(trimmed) : null;
  if (match === null) return invalid;
  const span = Number.parseFloat(match[1]!) * unitMs(match[2]);
  if (!Number.isFinite(span) || span === 0) return invalid;
  if (span < 60_000) return { ok: false, error: "Expire time should be more than 1 minute." };
  const at = now + Math.round(span);
  return at <= LATEST_MS ? { ok: true, at } : invalid;
}

/** Kutt's target: a URL without a scheme gets http:// (its utils.addProtocol); anything else as sent. */
export function withProtocol(target: unknown): unknown {
  return typeof target === "string" && target.trim() !== "" && !/^(\w+:|\/\/)/.test(target.trim()) ? `http://${target.trim()}` : target;
}

/** Kutt's booleans (express-validator isBoolean): true, false, and their texts "true", "false", "1", "0". */
export function kuttBoolean(value: unknown): boolean | null {
  if (value === true || value === "true" || value === "1" || value === 1) return true;
  if (value === false || value === "false" || value === "0" || value === 0) return false;
  return null;
}
