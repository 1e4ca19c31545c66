// Renaming a tag and taking tags off (docs/shlink-api.md: Tags): across every link, so only an admin
// may (a key that sees its own links only would change others'; Shlink refuses its
// AUTHORED_SHORT_URLS keys alike). A new name follows the rule of every tag (src/links/options.ts);
// a rename onto a tag links carry already is refused, not merged (Shlink's tag-conflict). Each
// changed link writes a link.updated event of its tags, as an edit of them does (docs/webhooks.md).

import { isAdmin, type Principal } from "../../auth/policy.ts";
import { TAG_PATTERN } from "../../links/options.ts";
import { logAction } from "../audit.ts";
import { done, refused, type Outcome } from "../outcome.ts";
import type { LinkOpsDeps } from "../links/deps.ts";

/** How many links a rename or a removal changed. */
export type Retagged = { links: number };

export async function renameTag(actor: Principal, input: { from: string; to: string }, deps: Pick<LinkOpsDeps, "links" | "log">): Promise<Outcome<Retagged>> {
  const { from, to } = input;
  const audit = (result: string) => logAction(deps.log, actor, "tag-rename", `${from.slice(0, 30)} -> ${to.slice(0, 30)}`, result);
  if (!isAdmin(actor)) {
    audit("admin_only");
    return refused("admin_only", "only an admin key may rename tags: they are renamed on every link");
  }
  if (!TAG_PATTERN.test(to)) {
    audit("tags_invalid");
    return refused("tags_invalid", "a tag must be 1 to 30 letters, digits, hyphens or underscores", "to");
  }
  // A name no tag can have is on no link.
  const outcome = TAG_PATTERN.test(from) ? await deps.links.retag([from], to) : "not_found";
  if (outcome === "not_found") {
    audit("not_found");
    return refused("not_found", `no link has the tag "${from.slice(0, 30)}"`, "from");
  }
  if (outcome === "taken") {
    audit("tag_taken");
    return refused("tag_taken", `links have the tag "${to}" already: rename it, or take it off, first`, "to");
  }
  audit(`ok ${outcome.changed.length}`);
  return done({ links: outcome.changed.length });
}

/** Takes the tags off every link; a name no link carries is no error (as Shlink's deleteTags). */
export async function removeTags(actor: Principal, input: { tags: readonly string[] }, deps: Pick<LinkOpsDeps, "links" | "log">): Promise<Outcome<Retagged>> {
  const names = [...new Set(input.tags)].filter((t) => TAG_PATTERN.test(t));
  const audit = (result: string) => logAction(deps.log, actor, "tag-delete", names.join(",").slice(0, 200), result);
  if (!isAdmin(actor)) {
    audit("admin_only");
    return refused("admin_only", "only an admin key may delete tags: they are taken off every link");
  }
  const outcome = names.length === 0 ? { changed: [] } : await deps.links.retag(names, null);
  const changed = typeof outcome === "string" ? 0 : outcome.changed.length;
  audit(`ok ${changed}`);
  return done({ links: changed });
}
