// Making a share link (docs/statistics.md: Sharing statistics): by the link's owner or an admin, as
// a change of the link is; the token is answered once and only its hash is kept.

import type { Principal } from "../../auth/policy.ts";
import type { FieldProblem } from "../../errors.ts";
import { unknownField, unknownFieldError } from "../../links/field-names.ts";
import { parseExpiresAt } from "../../links/options.ts";
import { MAX_SHARES_PER_LINK, parseShareLabel, type Share } from "../../stats/shares.ts";
import { logAction } from "../audit.ts";
import { noSuchLink, visibleLink } from "../links/get.ts";
import { done, refused, refusedFields, type Outcome } from "../outcome.ts";
import type { ShareOpsDeps } from "./deps.ts";

/** `id`: the link's key; `body`: the request's JSON value as sent (checked here). */
export type CreateShareInput = { id: string; body: unknown };

export async function createShare(actor: Principal, input: CreateShareInput, deps: ShareOpsDeps): Promise<Outcome<{ token: string; share: Share }>> {
  const link = await visibleLink(input.id, actor, deps);
  if (link === null) {
    logAction(deps.log, actor, "share-create", input.id, "not_found");
    return noSuchLink(input.id);
  }
  const now = deps.now();
  const fields = parseShareFields(input.body, now);
  if (!fields.ok) {
    logAction(deps.log, actor, "share-create", input.id, fields.problem.code);
    return fields;
  }
  if ((await deps.shares.list(link.seq)).length >= MAX_SHARES_PER_LINK) {
    logAction(deps.log, actor, "share-create", input.id, "bad_request");
    return refused("bad_request", `a link has at most ${MAX_SHARES_PER_LINK} share links: revoke one first`);
  }
  let made: { token: string; share: Share };
  try {
    made = await deps.shares.create({ linkSeq: link.seq, ...fields.value }, now);
  } catch (err) {
    logAction(deps.log, actor, "share-create", input.id, "storage_unavailable");
    throw err;
  }
  // The share's id only: the token is never logged.
  logAction(deps.log, actor, "share-create", input.id, `ok share ${made.share.id}`);
  return done(made);
}

/** What a share's body takes: the expiry in a link create's either spelling (src/links/field-names.ts). */
const SHARE_FIELDS = ["label", "expiresAt", "expires_at"] as const;

/**
 * `{label?, expiresAt?}`: a label of at most 100 characters; an expiry in the future, or null for
 * none. A field it does not take is refused, never ignored: a misspelt expiry would be a share that
 * never expires (docs/api.md: Share links).
 */
function parseShareFields(body: unknown, now: number): Outcome<{ label: string; expiresAt: number | null }> {
  if (body === undefined) body = {};
  if (typeof body !== "object" || body === null || Array.isArray(body)) return refused("bad_request", "the body must be a JSON object");
  const record = body as Record<string, unknown>;
  const unknown = unknownField(Object.keys(record), SHARE_FIELDS);
  if (unknown !== null) return refused("bad_request", unknownFieldError(unknown, "a share", SHARE_FIELDS));
  if ("expiresAt" in record && "expires_at" in record) return refused("bad_request", "expires_at and expiresAt are one field: give one of them");
  const rawLabel = record.label;
  const rawExpiry = "expires_at" in record ? record.expires_at : record.expiresAt;
  const problems: FieldProblem[] = [];
  const label = parseShareLabel(rawLabel);
  if (!label.ok) problems.push({ code: "label_invalid", field: "label", error: label.error });
  let expiresAt: number | null = null;
  if (rawExpiry !== undefined && rawExpiry !== null) {
    const parsed = parseExpiresAt(rawExpiry, now);
    if (parsed.ok) expiresAt = parsed.value;
    else problems.push({ code: parsed.problem, field: "expiresAt", error: `expiresAt ${parsed.error}` });
  }
  if (problems.length > 0 || !label.ok) return refusedFields(problems);
  return done({ label: label.value, expiresAt });
}
