// The links' routes (docs/api.md: The management API): the create, the collection, one link.

import { t } from "elysia";
import { LINK_STATUSES } from "../../links/link.ts";
import { LIST_SORTS } from "../../links/list.ts";
import { MAX_PAGE } from "../link-query.ts";
import * as S from "../../api/schemas.ts";
import { CODES, errors, id, q, text, type Operation } from "./operation.ts";

export const CREATE_LINK: Operation = {
  method: "post", path: "/api/create", operationId: "createLink", auth: "optional",
  summary: "Create a short link (no key needed unless --create-access key; with a key the link is the key's and not rate limited)",
  body: { "multipart/form-data": S.CreateForm, "application/x-www-form-urlencoded": S.CreateForm, "application/json": S.CreateJson },
  responses: {
    201: { description: "created", json: S.Created },
    ...errors([400, 401, 403, 409, 413, 415, 429, 503], "url_*, alias_*, expires_*, max_clicks_invalid, tags_invalid, url_blocked, domain_unknown or bad_request; every field problem is in errors; 403 domain_forbidden: a domain restricted to others"),
  },
};

/** One domain's links, by its name (docs/api.md: Links on several domains). */
const domainFilter = q("domain", "only the links of the domain with this name (400 domain_unknown for a name the service has not); absent: every domain's");

export const LINK_COLLECTION: Operation[] = [
  {
    method: "get", path: "/api/links", operationId: "listLinks", auth: "required",
    summary: "The links a key may see, a page at a time (newest first by default)",
    parameters: [
      q("q", "a substring of the id or the destination (ASCII letters in any case)"),
      q("tag", "only links with this tag"),
      q("status", "only links in this status", t.Union(LINK_STATUSES.map((s) => t.Literal(s)))),
      q("sort", "createdAt (default), totalClicks or lastClickAt", t.Union(LIST_SORTS.map((s) => t.Literal(s)))),
      q("order", "desc (default) or asc", t.Union([t.Literal("asc"), t.Literal("desc")])),
      q("limit", `links per page, 1 to ${MAX_PAGE} (default 50)`, t.Integer({ minimum: 1, maximum: MAX_PAGE })),
      q("cursor", "the nextCursor of the previous page"),
      q("include", "daily: add each link's clicks per day of the last 30", t.Literal("daily")),
      q("owner", "an admin's filter: the links of the user or the key (of nobody's) with this name"),
      domainFilter,
    ],
    responses: { 200: { description: "a page of links", json: S.LinkPage }, ...errors([400, 401, 403, 421, 429, 503], "bad_request naming the parameter") },
  },
  {
    method: "get", path: "/api/links/export", operationId: "exportLinks", auth: "required",
    summary: "Every link the key may see (or the ids given), with its totals, as CSV or JSON",
    parameters: [q("format", "csv (default) or json", t.Union([t.Literal("csv"), t.Literal("json")])), q("ids", "comma-separated ids (alias@domain for another domain's link), at most 200"),
      domainFilter,
    ],
    responses: {
      200: { description: "a download (Content-Disposition: attachment)", content: { "text/csv": text, "application/json": S.ExportJson } },
      ...errors([400, 401, 403, 421, 429, 503]),
    },
  },
  {
    method: "post", path: "/api/links/import", operationId: "importLinks", auth: "required",
    summary: "Create each row like a create would; at most 10,000 rows and 4 MiB",
    body: { "text/csv": text, "application/json": S.ImportRows },
    responses: {
      200: { description: "every row's outcome (row: the number of the data record)", json: S.ImportOutcome },
      ...errors([400, 401, 403, 413, 415, 421, 429]),
      503: { description: `${CODES[503]}; data: the rows' outcome so far and stoppedAtRow`, json: S.ImportStopped },
    },
  },
];

/** Which domain's link the path's id names (docs/api.md: Links on several domains). */
const onDomain = q("domain", "the name of the link's domain; absent: the default domain (400 domain_unknown for a name the service has not)");

export const LINK_BY_ID: Operation[] = [
  {
    method: "get", path: "/api/links/{id}", operationId: "getLink", auth: "required",
    summary: "One link", parameters: [id("the link's id; another key's link is a 404 to a create key"), onDomain],
    responses: { 200: { description: "the link", json: S.LinkResponse }, ...errors([400, 401, 403, 404, 421, 429, 503]) },
  },
  {
    method: "patch", path: "/api/links/{id}", operationId: "updateLink", auth: "required",
    summary: "Change a link's destination, expiry, click limit, state or tags; the next click uses them",
    parameters: [id("the link's id"), onDomain],
    body: { "application/json": S.LinkChanges },
    responses: { 200: { description: "the changed link", json: S.LinkResponse }, ...errors([400, 401, 403, 404, 413, 415, 421, 429, 503], "the field at fault, as for a create") },
  },
  {
    method: "delete", path: "/api/links/{id}", operationId: "deleteLink", auth: "required",
    summary: "Delete a link, its visits and rollups; the id is retired for ever",
    parameters: [id("the link's id"), onDomain],
    responses: { 200: { description: "deleted", json: S.Deleted }, ...errors([400, 401, 403, 404, 421, 429, 503]) },
  },
];
