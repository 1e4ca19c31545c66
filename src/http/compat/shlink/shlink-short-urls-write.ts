// Shlink's short-URL writes (docs/shlink-api.md: Short URLs): POST /short-urls (JSON, or the form
// the GNOME extension posts to /rest/v2/short-urls), GET /short-urls/shorten and PATCH
// /short-urls/:shortCode, in our field names (contract D4: validSince↔validFrom,
// validUntil↔expiresAt, maxVisits↔maxClicks). What we cannot honour is refused naming the field,
// never dropped: a client must not believe a link does what it does not.

import type { Link } from "../../../links/link.ts";
import type { Problem } from "../../../ops/outcome.ts";
import { ID_LENGTH } from "../../../links/id.ts";
import { parseInstant } from "../../../links/options.ts";
import { changeLink } from "../../../ops/links/change.ts";
import { create } from "../../../ops/links/create.ts";
import { namedDomain } from "../../../ops/links/domain.ts";
import { visibleLink } from "../../../ops/links/get.ts";
import { reusableLink } from "../../../ops/links/reuse.ts";
import { ownHostsOf } from "../../destination-rules.ts";
import { publicBase } from "../../request-origin.ts";
import { matchesCreate } from "./shlink-find-existing.ts";
import { domainParam, shortUrlKey } from "./shlink-ids.ts";
import { refusal, type ShortUrlIds } from "./shlink-ours.ts";
import { invalidData, shlinkJson } from "./shlink-problem.ts";
import type { ShlinkCall } from "./shlink-route.ts";
import { shortUrlShower, type ShortUrlJson } from "./shlink-short-url.ts";

// A field the SDK leaves out when falsy arrives absent; a form's untouched field arrives "".
const given = (value: unknown) => value !== undefined && value !== null && value !== "";

/** The short code and domain a request names (`?domain=`: absent, DEFAULT or the default's name is the default). */
export function idsOf(call: ShlinkCall): ShortUrlIds {
  return { shortCode: call.params.shortCode!, domain: domainParam(call.query.get("domain"), call.deps.directory) };
}

// Our field names as a refusal's text names them, in Shlink's words: the web client shows `detail`.
const SHLINK_WORDS: readonly [RegExp, string][] = [
  [/\bcustom_url\b/g, "customSlug"], [/\b(?:expires_at|expiresAt)\b/g, "validUntil"], [/\b(?:max_clicks|maxClicks)\b/g, "maxVisits"],
  [/\b(?:valid_from|validFrom)\b/g, "validSince"], [/\burl\b/g, "longUrl"],
];

/** An operation's refusal said with Shlink's field names; a taken slug as Shlink's NonUniqueSlugException says it. */
function inShlinkWords(problem: Problem, slug: string | null): Problem {
  if ((problem.code === "alias_taken" || problem.code === "alias_retired") && slug !== null) return { ...problem, message: `Provided slug "${slug}" is already in use.` };
  return { ...problem, message: SHLINK_WORDS.reduce((text, [ours, theirs]) => text.replace(ours, theirs), problem.message) };
}

/** A boolean as JSON sends it or a form spells it; anything else is invalid-data naming the field. */
function flagOf(value: unknown, field: string): boolean {
  if (value === true || value === "true" || value === "1" || value === 1) return true;
  if (value === false || value === "false" || value === "0" || value === 0) return false;
  throw invalidData(`${field} must be true or false.`, [field]);
}

/** Shlink's tags are a list (a JSON string is refused, as Shlink's ArrayInput does; a form's one value is a list of one: shlink-body.ts). */
function checkTags(value: unknown): void {
  if (value !== undefined && value !== null && !Array.isArray(value)) throw invalidData("tags must be a list of tags.", ["tags"]);
}

/** forwardQuery: we always pass the visitor's query on (contract D4); false cannot be honoured. */
function checkForwardQuery(value: unknown): void {
  if (value === undefined || value === null || value === "") return;
  if (!flagOf(value, "forwardQuery")) throw invalidData("forwardQuery cannot be false here: every link passes the visitor's query string on to its destination.", ["forwardQuery"]);
}

/** A create's body (Shlink's ShortUrlEdition plus customSlug, pathPrefix, domain, shortCodeLength, findIfExists) as our create's fields. */
function createFields(f: Record<string, unknown>): Record<string, unknown> {
  if (given(f.pathPrefix)) throw invalidData("pathPrefix is not supported: a link's short code is its whole path.", ["pathPrefix"]);
  // Shlink ignores shortCodeLength when a customSlug is given; our generated codes have one length.
  if (given(f.shortCodeLength) && !given(f.customSlug) && Number(f.shortCodeLength) !== ID_LENGTH) {
    throw invalidData(`shortCodeLength can only be ${ID_LENGTH}: generated short codes have that length here.`, ["shortCodeLength"]);
  }
  checkForwardQuery(f.forwardQuery);
  checkTags(f.tags);
  if (given(f.domain) && typeof f.domain !== "string") throw invalidData("domain must be a domain's name.", ["domain"]);
  const fields: Record<string, unknown> = { url: f.longUrl };
  if (given(f.customSlug)) fields.custom_url = f.customSlug;
  if (given(f.domain)) fields.domain = f.domain;
  if (given(f.tags)) fields.tags = f.tags;
  if (given(f.title)) fields.title = f.title;
  if (given(f.validSince)) fields.valid_from = f.validSince;
  if (given(f.validUntil)) fields.expires_at = f.validUntil;
  if (given(f.maxVisits)) fields.max_clicks = f.maxVisits;
  if (given(f.crawlable)) fields.crawlable = flagOf(f.crawlable, "crawlable");
  return fields;
}

/** The link a create asks for, or an earlier one of the caller's for the same URL (findIfExists); our refusals in Shlink's words. */
async function createdLink(call: ShlinkCall, f: Record<string, unknown>): Promise<Link | Response> {
  const { deps, request, server } = call;
  const principal = call.principal!;
  const fields = createFields(f);
  const ownHosts = ownHostsOf(deps, publicBase(deps.config, server, request, deps.trusted)!, request, server);
  const alias = typeof fields.custom_url === "string" ? fields.custom_url.trim() : undefined;
  if (given(f.findIfExists) && flagOf(f.findIfExists, "findIfExists")) {
    // Only a link holding every field given is the one asked for, as Shlink's (docs/shlink-api.md: Short URLs);
    // with a customSlug, only that link: another code would be a silent change.
    const domain = namedDomain(fields.domain ?? null, deps.directory);
    const matches = matchesCreate(fields, deps.now());
    const found = domain.ok ? await reusableLink(principal, { url: fields.url, domain: domain.value.key, ownHosts, alias, matches }, deps) : null;
    if (found !== null) return found;
  }
  const created = await create(principal, { fields, ownHosts }, deps);
  if (created.ok) return created.value;
  const ids = alias !== undefined ? { shortCode: alias, domain: typeof fields.domain === "string" ? fields.domain : null } : undefined;
  return refusal(inShlinkWords(created.problem, alias ?? null), ids);
}

/** POST /short-urls: 200 with the ShortUrl (Shlink's docs/swagger/paths/v1_short-urls.json answers 200, not 201). */
export async function createShortUrl(call: ShlinkCall): Promise<Response> {
  const show = shortUrlShower(call);
  if (show instanceof Response) return show;
  const link = await createdLink(call, await call.body());
  return link instanceof Response ? link : shlinkJson(200, show(link));
}

/**
 * GET /short-urls/shorten?apiKey&longUrl&format: the ShortUrl, or with format=txt (or, without
 * format, an Accept header whose first type is text/plain) the short URL alone as text/plain,
 * as Shlink's CreateShortUrlContentNegotiationMiddleware.php. Refusals stay problem documents.
 */
export async function shortenUrl(call: ShlinkCall): Promise<Response> {
  const show = shortUrlShower(call);
  if (show instanceof Response) return show;
  const link = await createdLink(call, { longUrl: call.query.get("longUrl") ?? undefined });
  if (link instanceof Response) return link;
  const shortUrl: ShortUrlJson = show(link);
  return wantsText(call) ? new Response(shortUrl.shortUrl, { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" } }) : shlinkJson(200, shortUrl);
}

function wantsText(call: ShlinkCall): boolean {
  const format = call.query.get("format");
  if (format !== null) return format.toLowerCase() === "txt";
  const first = (call.request.headers.get("accept") ?? "").split(",")[0]!.toLowerCase();
  return first.includes("text/plain");
}

/** Whether a sent time names the second a link already has (the web client sends every field back, dates as it showed them). */
function sameSecond(sent: unknown, current: number | null): boolean {
  if (sent === null || sent === undefined) return current === null;
  const at = parseInstant(sent);
  return at !== null && current !== null && Math.floor(at / 1000) === Math.floor(current / 1000);
}

/**
 * A PATCH body (Shlink's ShortUrlEdition) as our PATCH's changes: null clears; keys Shlink's edit
 * does not take are passed over, as Shlink does (the web client sends a stray `domain`). A date
 * sent back unchanged is no change: an expiry already past must not stop a title's edit.
 */
function editChanges(f: Record<string, unknown>, current: Link | null): Record<string, unknown> {
  checkForwardQuery(f.forwardQuery);
  checkTags(f.tags);
  const changes: Record<string, unknown> = {};
  if (f.longUrl !== undefined) changes.url = f.longUrl;
  if (f.title !== undefined) changes.title = f.title;
  if (f.tags !== undefined) changes.tags = f.tags;
  if (f.crawlable !== undefined) changes.crawlable = f.crawlable === null ? false : flagOf(f.crawlable, "crawlable");
  if (f.validSince !== undefined && !(current !== null && sameSecond(f.validSince, current.validFrom))) changes.validFrom = f.validSince;
  if (f.validUntil !== undefined && !(current !== null && sameSecond(f.validUntil, current.expiresAt))) changes.expiresAt = f.validUntil;
  if (f.maxVisits !== undefined) changes.maxClicks = f.maxVisits;
  return changes;
}

/** PATCH /short-urls/:shortCode: 200 with the changed ShortUrl. */
export async function editShortUrl(call: ShlinkCall): Promise<Response> {
  const { deps, request, server } = call;
  const principal = call.principal!;
  const ids = idsOf(call);
  const key = shortUrlKey(ids, deps.directory);
  const show = shortUrlShower(call);
  if (show instanceof Response) return show;
  const f = await call.body();
  // Read only to compare dates; whether the caller may change the link is changeLink's to say.
  const current = await visibleLink(key, principal, deps);
  const changes = editChanges(f, current);
  if (current !== null && Object.keys(changes).length === 0) return shlinkJson(200, show(current));
  const ownHosts = ownHostsOf(deps, publicBase(deps.config, server, request, deps.trusted)!, request, server);
  const changed = await changeLink(principal, { id: key, changes, ownHosts }, deps);
  return changed.ok ? shlinkJson(200, show(changed.value)) : refusal(inShlinkWords(changed.problem, null), ids);
}
