// Creating a link: the rules of the spec and the owner's options applied to submitted fields, then
// one committed insert. Used by POST /api/create and by every row of an import.

import { aliasProblem } from "./alias.ts";
import { checkUrl, intentUrls, MAX_URL_LENGTH, type UrlContext, type UrlProblem } from "./url-rules.ts";
import { AliasRetiredError, AliasTakenError, type LinkStore, type NewLink } from "./store.ts";
import type { Creator, Link } from "./link.ts";
import { parseExpiresAt, parseMaxClicks, parseTags, windowOpen } from "./options.ts";
import { hashBehaviour, parseBehaviour, SNAKE_NAMES, type FieldNames } from "./behaviour.ts";
import { SPEC_NAMES, type CreateNames } from "./field-names.ts";
import type { ErrorCode, FieldProblem } from "../errors.ts";
import { DEFAULT_DOMAIN } from "../domains/domain.ts";
import { parseTitle } from "./title.ts";
import { parseCard } from "./card-fields.ts";
import { namesShortcut, parseShortcuts, withShortcuts } from "./os-shortcuts.ts";

/** The submitted fields, as text (forms, CSV) or JSON values, under the spec's names unless CreateRequest.names says otherwise. */
export type CreateFields = { url?: unknown; custom_url?: unknown; expires_at?: unknown; max_clicks?: unknown; tags?: unknown } & Record<string, unknown>;

/** What a destination is checked against: this service's hosts, --allow-loopback-destinations and --blocklist. */
export type DestinationRules = UrlContext & {
  /** the --blocklist verdict for a destination */
  isBlocked: (url: string) => boolean;
};

export type CreateRequest = DestinationRules & {
  fields: CreateFields;
  /** the name each field went by (a JSON create may use camelCase); the spec's names when absent */
  names?: CreateNames;
  /** who creates it; null for a public create */
  creator: Creator | null;
  /** the stored domain it goes on ('' or absent: the default), chosen and allowed by the caller (src/ops/links/domain.ts) */
  domain?: string;
  now: number;
};

export type CreateResult =
  | { ok: true; link: Link }
  | { ok: false; status: 400; problems: FieldProblem[] }
  | { ok: false; status: 409; problems: [FieldProblem] };

export const URL_MESSAGES: Record<UrlProblem | "url_blocked", string> = {
  url_missing: "url is required",
  url_too_long: `url must be at most ${MAX_URL_LENGTH} characters`,
  url_scheme: "url must be an absolute URL starting with http:// or https://",
  url_invalid: "url is not a valid URL (it needs a host, and no spaces, control or invisible characters, no backslash before the path, no IPv4 address other than as a.b.c.d)",
  url_local: "url points to this machine (localhost, loopback, unspecified or link-local addresses), which each visitor would read as their own",
  url_credentials: "url must not contain a user name or password",
  url_self: "url points to this shortener itself, which would make a redirect loop",
  url_blocked: "url points to a destination this service does not link to",
};

/** The destination rules (spec, self links, blocklist): the URL to store, or the problem. */
export function checkDestination(raw: unknown, rules: DestinationRules): { ok: true; url: string } | { ok: false; code: ErrorCode; error: string } {
  if (raw !== undefined && raw !== null && typeof raw !== "string") return { ok: false, code: "url_invalid", error: "url must be a string" };
  const checked = checkUrl(raw ?? "", rules);
  if (!checked.ok) {
    const error = checked.problem === "url_scheme" && !checked.inIntent ? schemeMessage(rules.allowSchemes) : URL_MESSAGES[checked.problem];
    return { ok: false, code: checked.problem, error: checked.inIntent === undefined ? error : `${INTENT_PARTS[checked.inIntent]}: ${error}` };
  }
  if (rules.isBlocked(checked.url)) return { ok: false, code: "url_blocked", error: URL_MESSAGES.url_blocked };
  // An intent: URL's web page and web fallback are destinations of their own (docs/sharing.md: Links into apps).
  if (intentUrls(checked.url).some((embedded) => rules.isBlocked(embedded))) return { ok: false, code: "url_blocked", error: `${INTENT_PARTS.fallback}: ${URL_MESSAGES.url_blocked}` };
  return checked;
}

/**
 * An http(s) URL checked as a destination whatever --allow-schemes says: for what a browser loads
 * or a server fetches rather than follows (a preview card's image; docs/sharing.md: Links into apps).
 */
export function checkWebDestination(raw: unknown, rules: DestinationRules): ReturnType<typeof checkDestination> {
  return checkDestination(raw, { ...rules, allowSchemes: undefined });
}

const INTENT_PARTS = {
  fallback: "the intent's S.browser_fallback_url or web page (http:// or https://, checked as a destination)",
  data: "the intent's data URI (its scheme= with the //host/path after intent:; http(s) checked as a destination, another scheme one --allow-schemes lists)",
};

/** url_scheme's message, naming the schemes --allow-schemes adds when there are some. */
function schemeMessage(allowed: ReadonlySet<string> | undefined): string {
  if (allowed === undefined || allowed.size === 0) return URL_MESSAGES.url_scheme;
  return `url must be an absolute URL starting with http:// or https://, or with one of the schemes this service allows: ${[...allowed].map((s) => `${s}:`).join(", ")}`;
}

/** Validates every field (reporting all problems at once) and stores the new link; storage errors are thrown. */
export async function createLink(store: LinkStore, req: CreateRequest): Promise<CreateResult> {
  const checked = await checkCreate(req);
  if (!checked.ok) return checked;
  try {
    return { ok: true, link: await store.create(checked.link, req.now) };
  } catch (err) {
    if (err instanceof AliasTakenError) return aliasRefused(checked.link.alias!, "taken");
    if (err instanceof AliasRetiredError) return aliasRefused(checked.link.alias!, "retired");
    throw err; // storage failures included: the caller retries a busy lock and answers 503 for the rest
  }
}

/** Why an alias could not be used: taken by a link, or a deleted link's. */
export function aliasRefused(alias: string, how: "taken" | "retired"): CreateResult {
  if (how === "taken") return { ok: false, status: 409, problems: [{ code: "alias_taken", field: "custom_url", error: `custom_url "${alias}" is already taken` }] };
  return { ok: false, status: 409, problems: [{ code: "alias_retired", field: "custom_url", error: `custom_url "${alias}" belonged to a deleted link and can never be used again` }] };
}

/**
 * The link a create would store (every field validated, a password hashed), or every problem at
 * once; what createLink writes with store.create, and an import a slice at a time with createAll.
 */
export async function checkCreate(req: CreateRequest): Promise<{ ok: true; link: NewLink } | { ok: false; status: 400; problems: FieldProblem[] }> {
  const f = req.fields;
  const n = req.names ?? SPEC_NAMES;
  const problems: FieldProblem[] = [];
  const url = checkDestination(f[n.url], req);
  if (!url.ok) problems.push({ code: url.code, field: n.url, error: url.error });

  // An empty custom_url field is what an untouched HTML form sends: it means "no alias".
  const given = f[n.custom_url];
  const rawAlias = typeof given === "string" ? given.trim() : given;
  const alias = rawAlias === undefined || rawAlias === null || rawAlias === "" ? null : rawAlias;
  if (alias !== null) {
    const problem = typeof alias === "string" ? aliasProblem(alias) : "alias_invalid";
    if (problem === "alias_invalid") problems.push({ code: problem, field: n.custom_url, error: `${n.custom_url} must be 3 to 30 characters: letters, digits, hyphens and underscores` });
    if (problem === "alias_reserved") problems.push({ code: problem, field: n.custom_url, error: `${n.custom_url} "${alias}" is reserved by the service` });
  }

  let expiresAt: number | null = null;
  if (present(f[n.expires_at])) {
    const parsed = parseExpiresAt(f[n.expires_at], req.now);
    if (parsed.ok) expiresAt = parsed.value;
    else problems.push({ code: parsed.problem, field: n.expires_at, error: `${n.expires_at} ${parsed.error}` });
  }
  let maxClicks: number | null = null;
  if (present(f[n.max_clicks])) {
    const parsed = parseMaxClicks(f[n.max_clicks]);
    if (parsed.ok) maxClicks = parsed.value;
    else problems.push({ code: parsed.problem, field: n.max_clicks, error: `${n.max_clicks} ${parsed.error}` });
  }
  let tags: string[] = [];
  if (present(f[n.tags])) {
    const parsed = parseTags(f[n.tags]);
    if (parsed.ok) tags = parsed.value;
    else problems.push({ code: parsed.problem, field: n.tags, error: `tags: ${parsed.error}` });
  }
  const title = parseTitle(f[n.title], n.title, problems) ?? null;
  // A create's empty field is "none" whatever its spelling (behaviour.ts: parseBehaviour).
  const behaviour = parseBehaviour(f, behaviourNames(n), (raw) => checkDestination(raw, req), problems, true);
  const card = parseCard(f, { cardTitle: n.card_title, cardDescription: n.card_description, cardImage: n.card_image }, (raw) => checkWebDestination(raw, req), problems);
  const shortcutNames = { ios: n.ios_url, android: n.android_url };
  const shortcuts = parseShortcuts(f, shortcutNames, (raw) => checkDestination(raw, req), problems);
  if (namesShortcut(shortcuts)) behaviour.rules = withShortcuts(behaviour.rules ?? null, shortcuts, shortcutNames, problems);
  if (!windowOpen(behaviour.validFrom ?? null, expiresAt)) {
    const from = behaviourNames(n).validFrom;
    problems.push({ code: "valid_from_invalid", field: from, error: `${from} must be before ${n.expires_at}` });
  }
  if (problems.length > 0 || !url.ok) return { ok: false, status: 400, problems };

  const stored = await hashBehaviour(behaviour);
  return { ok: true, link: { ...stored, url: url.url, alias: alias as string | null, domain: req.domain ?? DEFAULT_DOMAIN, ...ownedBy(req.creator), expiresAt, maxClicks, tags, title, ...card } };
}

/** The behaviour fields' names in this request; an import row's password_hash keeps its one name. */
function behaviourNames(n: CreateNames): FieldNames {
  if (n === SPEC_NAMES) return SNAKE_NAMES;
  return { ...SNAKE_NAMES, redirectType: n.redirect_type, validFrom: n.valid_from, fallbackUrl: n.fallback_url };
}

// Forms send an empty field for an untouched input: that is "not given", like an absent one.
function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/** The owner columns of a new link made by this creator. */
export function ownedBy(creator: Creator | null): Pick<NewLink, "ownerKeyId" | "ownerUserId" | "ownerName"> {
  return { ownerKeyId: creator?.keyId ?? null, ownerUserId: creator?.userId ?? null, ownerName: creator?.name ?? null };
}
