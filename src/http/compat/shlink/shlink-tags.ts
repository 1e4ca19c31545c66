// Shlink's tag routes (docs/shlink-api.md: Tags): the tags of the caller's links, with their counts
// (the web client's tags page and its tag selectors read GET /tags/stats), a rename and a removal
// across every link (admin keys only). Shlink's shapes: docs/swagger/paths/v1_tags.json and
// v2_tags_stats.json, definitions/TagInfo.json and Pagination.json in shlinkio/shlink; the rules
// are the operations' (src/ops/tags).

import type { ShlinkPaginator, ShlinkTagsList, ShlinkTagsStatsList } from "@shlinkio/shlink-js-sdk/api-contract";
import type { Principal } from "../../../auth/policy.ts";
import type { Problem } from "../../../ops/outcome.ts";
import { removeTags, renameTag } from "../../../ops/tags/change.ts";
import { listTags, type TagListInput, type TagSort } from "../../../ops/tags/list.ts";
import { refusal } from "./shlink-ours.ts";
import { invalidData, shlinkJson, ShlinkProblem } from "./shlink-problem.ts";
import type { ShlinkCall, ShlinkRoute } from "./shlink-route.ts";

/** Shlink's orderBy fields of GET /tags/stats (module/Core/src/Tag/Model/OrderableField.php) as our sorts; GET /tags orders by name alone. */
const STATS_SORTS: Readonly<Record<string, TagSort>> = { tag: "tag", shortUrlsCount: "links", visits: "clicks", nonBotVisits: "humanClicks" };

export const TAG_ROUTES: readonly ShlinkRoute[] = [
  { method: "GET", path: "/tags", auth: "key", handle: (call) => tagNames(call) },
  { method: "GET", path: "/tags/stats", auth: "key", handle: (call) => tagStats(call) },
  { method: "PUT", path: "/tags", auth: "key", handle: (call) => rename(call) },
  { method: "DELETE", path: "/tags", auth: "key", handle: (call) => remove(call) },
];

async function tagNames(call: ShlinkCall): Promise<Response> {
  const input = listInput(call.query, { tag: "tag" });
  const listed = await listTags(call.principal!, input, call.deps);
  if (!listed.ok) return refusal(listed.problem);
  const { tags, total } = listed.value;
  return shlinkJson(200, { tags: { data: tags.map((t) => t.tag), pagination: pagination(input, tags.length, total) } } satisfies { tags: ShlinkTagsList & { pagination: ShlinkPaginator } });
}

async function tagStats(call: ShlinkCall): Promise<Response> {
  const input = listInput(call.query, STATS_SORTS);
  const listed = await listTags(call.principal!, input, call.deps);
  if (!listed.ok) return refusal(listed.problem);
  const { tags, total } = listed.value;
  const data = tags.map((t) => ({ tag: t.tag, shortUrlsCount: t.links, visitsSummary: { total: t.clicks, nonBots: t.humanClicks, bots: t.clicks - t.humanClicks } }));
  return shlinkJson(200, { tags: { data, pagination: pagination(input, tags.length, total) } } satisfies { tags: ShlinkTagsStatsList & { pagination: ShlinkPaginator } });
}

async function rename(call: ShlinkCall): Promise<Response> {
  const body = await call.body();
  const { oldName, newName } = body;
  // Shlink's Renaming::fromArray names both when either is missing.
  if (typeof oldName !== "string" || typeof newName !== "string" || oldName === "" || newName === "") {
    throw invalidData("oldName and newName are required, each a tag's name.", ["oldName", "newName"]);
  }
  const renamed = await renameTag(call.principal!, { from: oldName, to: newName }, call.deps);
  if (!renamed.ok) return tagRefusal(renamed.problem, "rename", { oldName, newName });
  return new Response(null, { status: 204 });
}

async function remove(call: ShlinkCall): Promise<Response> {
  // `tags[]=a` as the SDK sends it, `tags[0]=a` as PHP clients (Guzzle) do, or a plain repeated `tags`.
  const tags = [...call.query].filter(([name]) => /^tags(\[\d*\])?$/.test(name)).map(([, value]) => value);
  const removed = await removeTags(call.principal!, { tags }, call.deps);
  if (!removed.ok) return tagRefusal(removed.problem, "delete", null);
  return new Response(null, { status: 204 });
}

/** A tag operation's refusal in Shlink's words (module/Core/src/Exception/Tag*Exception.php, ForbiddenTagOperationException.php). */
function tagRefusal(problem: Problem, verb: "rename" | "delete", names: { oldName: string; newName: string } | null): Response {
  switch (problem.code) {
    case "admin_only":
      throw new ShlinkProblem("forbidden-tag-operation", `You are not allowed to ${verb} tags`);
    case "not_found":
      if (names) throw new ShlinkProblem("tag-not-found", `Tag with name "${names.oldName}" could not be found`, { tag: names.oldName });
      break;
    case "tag_taken":
      if (names) throw new ShlinkProblem("tag-conflict", `You cannot rename tag ${names.oldName} to ${names.newName}, because it already exists`, { ...names });
      break;
    case "tags_invalid":
      throw invalidData(`newName: ${problem.message}`, ["newName"]);
    default:
      break;
  }
  return refusal(problem);
}

/** Shlink's list parameters (module/Core/src/Tag/Model/TagsParams.php): no page or itemsPerPage below 0 means every tag. */
function listInput(query: URLSearchParams, sorts: Readonly<Record<string, TagSort>>): TagListInput {
  const page = whole(query.get("page"), "page") ?? 1;
  const perPage = whole(query.get("itemsPerPage"), "itemsPerPage");
  if (perPage === 0) throw invalidData("itemsPerPage must be at least 1, or -1 for every tag.", ["itemsPerPage"]);
  const limit = perPage === null || perPage < 0 ? null : perPage;
  // "field-DIR"; an unknown field orders by name, as Shlink's OrderableField::toValidField does.
  const [field = "", dir = ""] = (query.get("orderBy") ?? "").split("-");
  const search = query.get("searchTerm");
  return {
    search: search === null || search.trim() === "" ? null : search.trim(),
    sort: sorts[field] ?? "tag",
    order: dir.toUpperCase() === "DESC" ? "desc" : "asc",
    offset: limit === null ? 0 : (Math.max(page, 1) - 1) * limit,
    limit,
  };
}

/** A whole number parameter, null when absent; anything else is Shlink's invalid-data naming it. */
function whole(raw: string | null, name: string): number | null {
  if (raw === null || raw.trim() === "") return null;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw invalidData(`${name} must be a whole number.`, [name]);
  return n;
}

/**
 * Shlink's Pagination (docs/swagger/definitions/Pagination.json); every tag at once is one page of
 * them all (module/Rest/test-api/Action/TagsStatsTest.php: itemsPerPage = totalItems), and there is
 * always a first page, empty or not (Pagerfanta's minimum of one page).
 */
function pagination(input: TagListInput, shown: number, total: number): ShlinkPaginator & { itemsPerPage: number; itemsInCurrentPage: number } {
  const perPage = input.limit ?? total;
  return {
    currentPage: input.limit === null ? 1 : input.offset / input.limit + 1,
    pagesCount: Math.max(1, Math.ceil(total / Math.max(perPage, 1))),
    itemsPerPage: perPage,
    itemsInCurrentPage: shown,
    totalItems: total,
  };
}
