// Our operations' refusals in Shlink's words (docs/shlink-api.md: Errors): a field problem is
// invalid-data naming Shlink's field, a taken alias non-unique-slug, a link nobody may see
// short-url-not-found; a refusal Shlink has no type for keeps our code (urn:shortener:error:<code>).

import type { ErrorField } from "../../../errors.ts";
import type { Problem } from "../../../ops/outcome.ts";
import { STATUS_OF } from "../../problems.ts";
import { ourProblem, ShlinkProblem } from "./shlink-problem.ts";

/** Our request fields under Shlink's names (ShortUrl's create and edit bodies). */
const SHLINK_FIELD: Partial<Record<ErrorField, string>> = {
  url: "longUrl", custom_url: "customSlug", customUrl: "customSlug", expires_at: "validUntil", expiresAt: "validUntil",
  max_clicks: "maxVisits", maxClicks: "maxVisits", valid_from: "validSince", validFrom: "validSince",
  tags: "tags", title: "title", crawlable: "crawlable", domain: "domain", rules: "redirectRules",
};

/** The Shlink name of one of our fields (its own name when Shlink has none). */
export function shlinkField(field: ErrorField): string {
  return SHLINK_FIELD[field] ?? field;
}

/** What identifies a short URL in Shlink's not-found and slug problems. */
export type ShortUrlIds = { shortCode: string; domain: string | null };

/** Our problem as the ShlinkProblem a handler throws, or a document of our own type for the rest. */
export function fromOurProblem(problem: Problem, ids?: ShortUrlIds): ShlinkProblem | Response {
  const idExtra = ids ? { shortCode: ids.shortCode, ...(ids.domain !== null ? { domain: ids.domain } : {}) } : {};
  switch (problem.code) {
    case "not_found":
    case "admin_only":
      if (ids) return new ShlinkProblem("short-url-not-found", `No URL found with short code "${ids.shortCode}"${ids.domain ? ` for domain "${ids.domain}"` : ""}`, idExtra);
      break;
    case "alias_taken":
    case "alias_retired":
      return new ShlinkProblem("non-unique-slug", problem.message, ids ? { customSlug: ids.shortCode, ...(ids.domain !== null ? { domain: ids.domain } : {}) } : {});
    case "domain_unknown":
    case "domain_not_found":
      // Shlink's DomainNotFoundException names the authority asked for.
      return new ShlinkProblem("domain-not-found", problem.message, ids?.domain ? { authority: ids.domain } : {});
    default:
      break;
  }
  const fields = problem.fields?.map((f) => shlinkField(f.field)) ?? (problem.field ? [shlinkField(problem.field)] : []);
  if (fields.length > 0) return new ShlinkProblem("invalid-data", problem.message, { invalidElements: [...new Set(fields)] });
  // Our status for our code: one table for every surface (src/http/problems.ts).
  const answer = ourProblem(STATUS_OF[problem.code], problem.code, problem.message);
  if (problem.retryAfterSeconds !== undefined) answer.headers.set("Retry-After", String(problem.retryAfterSeconds));
  return answer;
}

/** Throws the ShlinkProblem of an operation's refusal, or answers it when it has a type of ours. */
export function refusal(problem: Problem, ids?: ShortUrlIds): Response {
  const mapped = fromOurProblem(problem, ids);
  if (mapped instanceof ShlinkProblem) throw mapped;
  return mapped;
}
