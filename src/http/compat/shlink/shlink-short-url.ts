// A link as Shlink's ShortUrl (docs/shlink-api.md: Short URLs): Shlink's docs/swagger/definitions/
// ShortUrl.json names every field required; the web client keys its rows by `shortUrl`, so it is
// absolute and on the link's own domain. Shapes only: who may see a link is the operations'.

import type { ShlinkShortUrl } from "@shlinkio/shlink-js-sdk/api-contract";
import { DEFAULT_DOMAIN } from "../../../domains/domain.ts";
import type { Link } from "../../../links/link.ts";
import { linkPlace } from "../../link-json.ts";
import { publicBase } from "../../request-origin.ts";
import { NO_HOST } from "../peer-failure.ts";
import { problemDocument } from "./shlink-problem.ts";
import type { ShlinkCall } from "./shlink-route.ts";
import { atomTime } from "./shlink-time.ts";

/** Shlink's ShortUrl with every field its OpenAPI document requires (the SDK's type leaves some optional). */
export type ShortUrlJson = {
  shortCode: string;
  shortUrl: string;
  longUrl: string;
  dateCreated: string;
  visitsSummary: { total: number; nonBots: number; bots: number };
  tags: string[];
  meta: { validSince: string | null; validUntil: string | null; maxVisits: number | null };
  domain: string | null;
  title: string | null;
  crawlable: boolean;
  forwardQuery: boolean;
  hasRedirectRules: boolean;
};

/**
 * The ShortUrl of a link whose domain's base is `shortBase` (src/http/link-json.ts linkPlace).
 * `forwardQuery` is always true: every link of ours passes the visitor's query on (contract D4).
 * `hasRedirectRules`: rules or an A/B split decide where some visitors go.
 */
export function shortUrlJson(link: Link, shortBase: string): ShortUrlJson {
  const shortUrl = {
    shortCode: link.id,
    shortUrl: `${shortBase}/${link.id}`,
    longUrl: link.url,
    dateCreated: atomTime(link.createdAt),
    visitsSummary: { total: link.totalClicks, nonBots: link.humanClicks, bots: Math.max(0, link.totalClicks - link.humanClicks) },
    tags: link.tags,
    meta: { validSince: atomTime(link.validFrom), validUntil: atomTime(link.expiresAt), maxVisits: link.maxClicks },
    domain: link.domain === DEFAULT_DOMAIN ? null : link.domain,
    title: link.title,
    crawlable: link.crawlable,
    forwardQuery: true,
    hasRedirectRules: (link.rules?.length ?? 0) > 0 || (link.variants?.length ?? 0) > 0,
  } satisfies ShlinkShortUrl;
  return shortUrl;
}

/**
 * How this request shows links: each on its own domain's base (the default's on the request's
 * public base), or a 400 problem document when the request names no host.
 */
export function shortUrlShower(call: Pick<ShlinkCall, "request" | "server" | "deps">): ((link: Link) => ShortUrlJson) | Response {
  const { request, server, deps } = call;
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return problemDocument(400, "urn:shortener:error:bad_request", "bad_request", NO_HOST);
  return (link) => shortUrlJson(link, linkPlace(link.domain, base, deps.directory).base);
}
