// A stored visit as Shlink's Visit (docs/shlink-api.md: Visits; Shlink docs/swagger/definitions/Visit.json,
// the SDK's ShlinkRegularVisit), and the visits query (Shlink docs/swagger/paths/v1_short-urls_{shortCode}_visits.json:
// page, itemsPerPage, startDate, endDate, excludeBots). We keep a visit's names, not its request:
// the User-Agent is made for bowser to read back (shlink-user-agent.ts), the location is the
// country alone, the referrer its host.

import type { ShlinkPaginator } from "@shlinkio/shlink-js-sdk/api-contract";
import { MAX_VISITS_PAGE } from "../../../stats/visit-pages.ts";
import { instant } from "./shlink-list-query.ts";
import { invalidData } from "./shlink-problem.ts";

// The Visit itself and a page's text: shlink-visit-json.ts (pure, the reader thread writes pages with it).
export { shlinkVisit, visitLocation, visitsJson } from "./shlink-visit-json.ts";

/** What a visits query asks: the range (ms, end exclusive), bots or not, and the page. */
export type VisitsParams = { fromTs: number; toTs: number; excludeBots: boolean; page: number; itemsPerPage: number };

function whole(query: URLSearchParams, name: string): number | null {
  const value = query.get(name);
  if (value === null || value === "") return null;
  if (!/^-?\d{1,9}$/.test(value)) throw invalidData(`${name} is not a whole number`, [name]);
  return Number(value);
}

/**
 * The query (docs/shlink-api.md: Visits): itemsPerPage absent, -1 or above 5,000 is 5,000 (a page
 * never holds more; `pagination` tells how many pages there are); endDate takes its whole second.
 */
export function visitsParams(query: URLSearchParams): VisitsParams {
  const page = whole(query, "page") ?? 1;
  if (page < 1) throw invalidData("page starts at 1", ["page"]);
  const asked = whole(query, "itemsPerPage") ?? -1;
  if (asked === 0 || asked < -1) throw invalidData("itemsPerPage is -1 (all) or a positive number", ["itemsPerPage"]);
  const bots = query.get("excludeBots");
  if (bots !== null && bots !== "" && bots !== "true" && bots !== "false") throw invalidData("excludeBots is true or false", ["excludeBots"]);
  const start = instant(query, "startDate");
  const end = instant(query, "endDate");
  return {
    fromTs: start ?? 0,
    toTs: end === null ? Number.MAX_SAFE_INTEGER : Math.floor(end / 1000) * 1000 + 1000,
    excludeBots: bots === "true",
    page,
    itemsPerPage: asked === -1 ? MAX_VISITS_PAGE : Math.min(asked, MAX_VISITS_PAGE),
  };
}

/** Shlink's Pagination (docs/swagger/definitions/Pagination.json; the SDK's ShlinkPaginator reads three of its fields). */
export function pagination(page: number, itemsPerPage: number, inPage: number, total: number): ShlinkPaginator & { itemsPerPage: number; itemsInCurrentPage: number } {
  const paginator = { currentPage: page, pagesCount: Math.ceil(total / itemsPerPage), totalItems: total } satisfies ShlinkPaginator;
  return { ...paginator, itemsPerPage, itemsInCurrentPage: inPage };
}
