// Tags across links (docs/shlink-api.md: Tags): the tags a caller's links carry, with how many links
// and clicks each has, and the two writes that change a tag on every link at once, renaming it and
// taking it off. A tag is nothing but a name on links: one that no link carries does not exist.

import type { MaybePromise } from "../util/maybe.ts";
import type { OwnerFilter } from "./list.ts";

/** One tag on the links an owner filter selects: how many carry it, and their clicks (bots included / humans only). */
export type TagCount = { tag: string; links: number; clicks: number; humanClicks: number };

/** What LinkLister.tags answers: every tag on the links the owner sees, in byte order of the name. */
export type TagCounts = (owner: OwnerFilter) => MaybePromise<TagCount[]>;

/**
 * A rename or a removal across links: the keys of the links it changed (src/domains/link-key.ts),
 * "not_found" for a rename of a tag no link carries, "taken" for a rename onto a tag some link
 * carries already (Shlink's tag-conflict: two tags are not merged by a rename).
 */
export type RetagOutcome = { changed: string[] } | "not_found" | "taken";
