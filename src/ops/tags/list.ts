// The tags on the links a principal sees, with how many links and clicks each has (docs/shlink-api.md:
// Tags): an admin's are every link's, anyone else's only their own links' (Shlink's
// AUTHORED_SHORT_URLS keys see the tags of their short URLs alone). Counted by the database; the
// search, order and page are applied here, over the tags (far fewer than the links).

import { ownerFilter, type Principal } from "../../auth/policy.ts";
import type { TagCount } from "../../links/tags.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome } from "../outcome.ts";
import type { LinkOpsDeps } from "../links/deps.ts";

export const TAG_SORTS = ["tag", "links", "clicks", "humanClicks"] as const;
export type TagSort = (typeof TAG_SORTS)[number];

/** `search`: a case-insensitive part of the name; `limit` null: every tag from `offset` on. */
export type TagListInput = { search: string | null; sort: TagSort; order: "asc" | "desc"; offset: number; limit: number | null };

/** One page of the tags, and how many tags the search selects in all. */
export type TagList = { tags: TagCount[]; total: number };

export async function listTags(actor: Principal, input: TagListInput, deps: Pick<LinkOpsDeps, "lister" | "log">): Promise<Outcome<TagList>> {
  const all = await deps.lister.tags(ownerFilter(actor));
  const needle = input.search?.toLowerCase() ?? "";
  const found = needle === "" ? all : all.filter((t) => t.tag.toLowerCase().includes(needle));
  const sign = input.order === "asc" ? 1 : -1;
  // Equal counts in the name's order, whichever way the counts go (as Shlink's TagRepository orders them).
  const by = input.sort;
  const sorted = by === "tag" ? (sign === 1 ? found : [...found].reverse()) : [...found].sort((a, b) => sign * (a[by] - b[by]) || (a.tag < b.tag ? -1 : 1));
  const tags = sorted.slice(input.offset, input.limit === null ? undefined : input.offset + input.limit);
  logAction(deps.log, actor, "tag-list", null, `ok ${tags.length}`);
  return done({ tags, total: found.length });
}
