// GET /short-urls's query in our list's terms (docs/shlink-api.md: Short URLs). Shlink's parameters
// are those of its docs/swagger/paths/v1_short-urls.json and module/Core/src/ShortUrl/Model/
// ShortUrlsParams.php; each bad value is invalid-data naming the parameter, never a guess.

import { seesEveryLink, type Principal } from "../../../auth/policy.ts";
import { DEFAULT_DOMAIN } from "../../../domains/domain.ts";
import type { DomainDirectory } from "../../../domains/directory.ts";
import { MAX_FILTER_TAGS, type ListOrder, type ListSort, type PeerSort, type TagsFilter } from "../../../links/list.ts";
import { parseInstant } from "../../../links/options.ts";
import { MAX_URL_LENGTH } from "../../../links/url-rules.ts";
import type { CountInput } from "../../../ops/links/list.ts";
import { invalidData } from "./shlink-problem.ts";

/** Shlink's page size when none is asked (ShortUrlsParams::DEFAULT_ITEMS_PER_PAGE). */
export const DEFAULT_ITEMS_PER_PAGE = 10;
/**
 * The largest page we answer: `itemsPerPage=-1` (Shlink's "all") and anything larger is this many,
 * said in `pagination.itemsPerPage` with the pages it makes, so a client that pages gets the rest.
 */
export const MAX_ITEMS_PER_PAGE = 1000;

/** Shlink's orderBy fields (its OrderableField enum) as our list's sorts. */
const SORTS: Readonly<Record<string, ListSort | PeerSort>> = {
  longUrl: "url", shortCode: "alias", dateCreated: "createdAt", title: "title", visits: "totalClicks", nonBotVisits: "humanClicks",
};

export type ShortUrlsAsk = {
  page: number;
  itemsPerPage: number;
  filter: CountInput;
  sort: ListSort | PeerSort;
  order: ListOrder;
  /** the `domain` asked for is none of ours: nothing matches (Shlink filters by the name and finds none) */
  nothing: boolean;
};

/** The list a Shlink client asks for, or throws invalid-data naming the first bad parameter. */
export function shortUrlsAsk(query: URLSearchParams, principal: Principal, directory: Pick<DomainDirectory, "byName">): ShortUrlsAsk {
  const page = whole(query, "page", 1) ?? 1;
  if (page < 1) throw invalidData("page must be a whole number from 1.", ["page"]);
  const asked = whole(query, "itemsPerPage", -1) ?? DEFAULT_ITEMS_PER_PAGE;
  if (asked === 0) throw invalidData("itemsPerPage must be -1 (all) or a whole number from 1.", ["itemsPerPage"]);
  const itemsPerPage = asked === -1 ? MAX_ITEMS_PER_PAGE : Math.min(asked, MAX_ITEMS_PER_PAGE);
  const [sort, order] = orderOf(query.get("orderBy"));
  const domainName = query.get("domain") || null;
  const entry = domainName === null || domainName === "DEFAULT" ? null : directory.byName(domainName);
  const apiKeyName = query.get("apiKeyName") || null;
  const endDate = instant(query, "endDate");
  const filter: CountInput = {
    // Shlink ignores apiKeyName from a key that is not an admin's (v1_short-urls.json); so do we.
    ownerName: apiKeyName !== null && seesEveryLink(principal) ? apiKeyName : null,
    q: searchTerm(query.get("searchTerm")),
    tag: null,
    status: null,
    domain: domainName === null ? null : domainName === "DEFAULT" ? DEFAULT_DOMAIN : (entry?.key ?? null),
    tags: tagsOf(query, "tags", "tagsMode"),
    excludeTags: tagsOf(query, "excludeTags", "excludeTagsMode"),
    createdFrom: instant(query, "startDate"),
    // Shlink's endDate is inclusive (dateCreated <= endDate); ours is the first instant left out.
    createdBefore: endDate === null ? null : endDate + 1,
    excludeMaxClicksReached: flag(query, "excludeMaxVisitsReached"),
    excludeExpired: flag(query, "excludePastValidUntil"),
  };
  return { page, itemsPerPage, filter, sort, order, nothing: domainName !== null && domainName !== "DEFAULT" && entry === null };
}

/** A whole number parameter from `min`; null when absent or empty. */
function whole(query: URLSearchParams, name: string, min: number): number | null {
  const text = query.get(name)?.trim() ?? "";
  if (text === "") return null;
  const n = /^-?\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(n >= min)) throw invalidData(`${name} must be a whole number${min < 1 ? "" : ` from ${min}`}.`, [name]);
  return n;
}

/** `field-DIR` (Shlink's orderBy, e.g. dateCreated-DESC); none: newest first, as Shlink's default. */
function orderOf(text: string | null): [ListSort | PeerSort, ListOrder] {
  if (text === null || text === "") return ["createdAt", "desc"];
  const [field, dir = "ASC"] = text.split("-");
  const sort = field !== undefined && Object.hasOwn(SORTS, field) ? SORTS[field]! : null;
  const order = dir.toUpperCase() === "ASC" ? "asc" : dir.toUpperCase() === "DESC" ? "desc" : null;
  if (sort === null || order === null || text.split("-").length > 2) {
    throw invalidData(`orderBy must be one of ${Object.keys(SORTS).join(", ")}, with -ASC or -DESC.`, ["orderBy"]);
  }
  return [sort, order];
}

function searchTerm(raw: string | null): string | null {
  const q = raw?.trim() || null;
  if (q === null) return null;
  if (q.length > MAX_URL_LENGTH) throw invalidData(`searchTerm may be at most ${MAX_URL_LENGTH} characters.`, ["searchTerm"]);
  if (/[\u0000-\u001f\u007f]/.test(q) || !q.isWellFormed()) throw invalidData("searchTerm must not contain control characters.", ["searchTerm"]);
  return q;
}

/** `tags[]=a&tags[]=b` (the SDK's spelling) or repeated `tags`, with its mode (any unless told). */
function tagsOf(query: URLSearchParams, name: string, modeName: string): TagsFilter | null {
  const names = [...query.getAll(`${name}[]`), ...query.getAll(name)].map((t) => t.trim()).filter((t) => t !== "");
  const mode = query.get(modeName) || "any";
  if (mode !== "any" && mode !== "all") throw invalidData(`${modeName} must be any or all.`, [modeName]);
  if (names.length > MAX_FILTER_TAGS || names.some((t) => t.length > 100 || !t.isWellFormed())) throw invalidData(`${name} holds more than ${MAX_FILTER_TAGS} tags, or one too long or not text.`, [name]);
  return names.length === 0 ? null : { names: [...new Set(names)], mode };
}

/** An ISO 8601 time with a zone, or a date (midnight UTC); null when absent. The one reading of every Shlink date filter (contract D4). */
export function instant(query: URLSearchParams, name: string): number | null {
  const text = query.get(name)?.trim() ?? "";
  if (text === "") return null;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseInstant(`${text}T00:00:00Z`) : parseInstant(text);
  if (at === null) throw invalidData(`${name} must be an ISO 8601 date, or a time with its offset (2026-11-29T10:00:00+01:00).`, [name]);
  return at;
}

/** Shlink's "true"/"false" flags (the SDK sends them only as "true"). */
function flag(query: URLSearchParams, name: string): boolean {
  const text = (query.get(name) ?? "").trim().toLowerCase();
  if (text === "" || text === "false" || text === "0") return false;
  if (text === "true" || text === "1") return true;
  throw invalidData(`${name} must be true or false.`, [name]);
}
