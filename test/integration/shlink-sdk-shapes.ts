// Every answer shape of Shlink's SDK (@shlinkio/shlink-js-sdk 3.2.1, SDK src/api-contract/types.ts),
// written out as JSON kinds; `satisfies ShapeOf<…>` makes the typecheck prove each one names every
// field of the SDK's type with its kind (test/support/shlink-shapes.ts). Read by shlink-sdk.test.ts.
import type {
  ShlinkDeleteVisitsResult,
  ShlinkDomainRedirects,
  ShlinkDomainsList,
  ShlinkHealth,
  ShlinkPaginator,
  ShlinkOrphanVisit,
  ShlinkRedirectRulesList,
  ShlinkRegularVisit,
  ShlinkShortUrl,
  ShlinkShortUrlsList,
  ShlinkTagsList,
  ShlinkTagsStatsList,
  ShlinkVisitsOverview,
  ShlinkVisitsSummary,
} from "@shlinkio/shlink-js-sdk/api-contract";
import type { ProblemDetailsError } from "@shlinkio/shlink-js-sdk/api-contract";
import type { ShapeOf } from "../support/shlink-shapes.ts";

const summary = { total: "number", nonBots: "number", bots: "number" } as const satisfies ShapeOf<ShlinkVisitsSummary>;
const pagination = { currentPage: "number", pagesCount: "number", totalItems: "number" } as const satisfies ShapeOf<ShlinkPaginator>;

export const HEALTH = { status: "string", version: "string" } as const satisfies ShapeOf<ShlinkHealth>;

export const SHORT_URL = {
  shortCode: "string",
  domain: "string|null",
  shortUrl: "string",
  longUrl: "string",
  dateCreated: "string",
  visitsSummary: summary,
  meta: { validSince: "string|null", validUntil: "string|null", maxVisits: "number|null" },
  tags: ["string"],
  title: "string|null",
  crawlable: "boolean",
  forwardQuery: "boolean",
  hasRedirectRules: "boolean",
} as const satisfies ShapeOf<ShlinkShortUrl>;

export const SHORT_URLS_LIST = { data: [SHORT_URL], pagination } as const satisfies ShapeOf<ShlinkShortUrlsList>;

const location = {
  countryCode: "string|null",
  countryName: "string|null",
  regionName: "string|null",
  cityName: "string|null",
  latitude: "number|null",
  longitude: "number|null",
  timezone: "string|null",
  isEmpty: "boolean",
} as const;

export const VISIT = {
  referer: "string",
  date: "string",
  userAgent: "string",
  visitLocation: { nullable: location },
  potentialBot: "boolean",
  visitedUrl: "string",
  redirectUrl: "string|null",
} as const satisfies ShapeOf<ShlinkRegularVisit>;

/** A visit to no link: a Visit with its type (Shlink docs/swagger/definitions/OrphanVisit.json). */
export const ORPHAN_VISIT = { ...VISIT, type: "string" } as const satisfies ShapeOf<ShlinkOrphanVisit>;

/** ShlinkVisitsList's rows are ShlinkVisit (regular or orphan); a link's, a tag's and a domain's are regular visits. */
export const VISITS_LIST = { data: [VISIT], pagination } as const;

export const VISITS_OVERVIEW = { nonOrphanVisits: summary, orphanVisits: summary } as const satisfies ShapeOf<ShlinkVisitsOverview>;

export const DELETED_VISITS = { deletedVisits: "number" } as const satisfies ShapeOf<ShlinkDeleteVisitsResult>;

export const TAGS_LIST = { data: ["string"] } as const satisfies ShapeOf<ShlinkTagsList>;

export const TAGS_STATS = {
  data: [{ tag: "string", shortUrlsCount: "number", visitsSummary: summary }],
} as const satisfies ShapeOf<ShlinkTagsStatsList>;

export const DOMAIN_REDIRECTS = {
  baseUrlRedirect: "string|null",
  regular404Redirect: "string|null",
  invalidShortUrlRedirect: "string|null",
} as const satisfies ShapeOf<ShlinkDomainRedirects>;

export const DOMAINS_LIST = {
  data: [{ domain: "string", isDefault: "boolean", redirects: DOMAIN_REDIRECTS }],
  defaultRedirects: DOMAIN_REDIRECTS,
} as const satisfies ShapeOf<ShlinkDomainsList>;

export const REDIRECT_RULES = {
  defaultLongUrl: "string",
  redirectRules: [{ longUrl: "string", priority: "number", conditions: [{ type: "string", matchKey: "string|null", matchValue: "string|null" }] }],
} as const satisfies ShapeOf<ShlinkRedirectRulesList>;

/** The four fields the web component needs to treat an error as a problem (WC src/api-contract/utils.ts isProblemDetails). */
export const PROBLEM = { type: "string", detail: "string", title: "string", status: "number" } as const satisfies ShapeOf<
  Pick<ProblemDetailsError, "type" | "detail" | "title" | "status">
>;
