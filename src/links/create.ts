// Creating a link: the rules of the spec applied to submitted fields, then one committed insert.

import { aliasProblem } from "./alias.ts";
import { checkUrl, MAX_URL_LENGTH } from "./url-rules.ts";
import { AliasTakenError, type Link, type LinkStore } from "./store.ts";
import type { ErrorCode, ErrorField } from "../http/responses.ts";

export type CreateRequest = { url: string | undefined; customUrl: string | undefined; ownHosts: readonly string[]; now: number };

export type CreateResult =
  | { ok: true; link: Link }
  | { ok: false; status: 400 | 409 | 503; code: ErrorCode; field?: ErrorField; error: string; cause?: string; lockBusy?: boolean };

const URL_MESSAGES = {
  url_missing: "url is required",
  url_too_long: `url must be at most ${MAX_URL_LENGTH} characters`,
  url_scheme: "url must be an absolute URL starting with http:// or https://",
  url_invalid: "url is not a valid URL (it needs a host and no spaces or control characters)",
  url_credentials: "url must not contain a user name or password",
  url_self: "url points to this shortener itself, which would make a redirect loop",
} as const;

/** Validates and stores a new link. */
export function createLink(store: LinkStore, req: CreateRequest): CreateResult {
  const checked = checkUrl(req.url ?? "", req.ownHosts);
  if (!checked.ok) return { ok: false, status: 400, code: checked.problem, field: "url", error: URL_MESSAGES[checked.problem] };

  // An empty custom_url field is what an untouched HTML form sends: it means "no alias".
  const alias = req.customUrl === undefined || req.customUrl.trim() === "" ? null : req.customUrl.trim();
  if (alias !== null) {
    const problem = aliasProblem(alias);
    if (problem === "alias_invalid") {
      return { ok: false, status: 400, code: problem, field: "custom_url", error: "custom_url must be 3 to 30 characters: letters, digits, hyphens and underscores" };
    }
    if (problem === "alias_reserved") {
      return { ok: false, status: 400, code: problem, field: "custom_url", error: `custom_url "${alias}" is reserved by the service` };
    }
  }
  try {
    return { ok: true, link: store.create(checked.url, alias, req.now) };
  } catch (err) {
    if (err instanceof AliasTakenError) {
      return { ok: false, status: 409, code: "alias_taken", field: "custom_url", error: `custom_url "${alias}" is already taken` };
    }
    if (isStorageFailure(err)) {
      const code = (err as { code?: string }).code ?? "";
      const cause = `${code}: ${err instanceof Error ? err.message : String(err)}`;
      // Another connection holds the write lock: worth another try (src/http/create.ts waits for it).
      const lockBusy = /^SQLITE_(BUSY|LOCKED)/.test(code);
      return { ok: false, status: 503, code: "storage_unavailable", error: "the database cannot store new links right now; try again later", cause, lockBusy };
    }
    throw err;
  }
}

// Disk full, read-only file, I/O error or a lock held too long: the server's trouble, not the client's,
// and temporary, hence 503 rather than 500.
function isStorageFailure(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? "";
  return /^SQLITE_(FULL|READONLY|IOERR|BUSY|LOCKED|CANTOPEN|CORRUPT|NOTADB)/.test(code);
}
