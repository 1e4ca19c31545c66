// A link the asker made before for exactly this destination (docs/clients.md: Use your existing
// clients): what a peer API hands back instead of a new link when its client asks for one again
// (Kutt's `reuse`, YOURLS's answer to a URL shortened twice). One rule for both surfaces:
// - only the asker's own links, an admin's too: a client is not given a link of someone else,
//   who may change where it leads tomorrow; an anonymous create never reuses;
// - only an active one (a disabled or expired link would answer 410), on the domain asked for;
// - the oldest, as YOURLS gives it; among a few pages of the list's search for the URL.

import { creatorOf, seesEveryLink, type Principal } from "../../auth/policy.ts";
import { checkDestination } from "../../links/create.ts";
import type { Link } from "../../links/link.ts";
import type { Cursor } from "../../links/list.ts";
import { destinationRules, type LinkOpsDeps } from "./deps.ts";
import { listLinks } from "./list.ts";

/** The list's search finds the URL within longer ones too: this many pages of the largest size are looked through. */
const PAGES = 5;
const PAGE = 200;

/**
 * `alias`: only the link of this alias will do (a peer client asked for that code and the URL together).
 * `matches`: what else the link must hold (Shlink's findIfExists matches every field given); absent: any.
 */
export type ReuseInput = { url: unknown; domain: string; ownHosts: readonly string[]; alias?: string; matches?: (link: Link) => boolean };

/** The asker's oldest active link to exactly this URL (as a create would store it) on the stored domain, or null. */
export async function reusableLink(asker: Principal, input: ReuseInput, deps: Pick<LinkOpsDeps, "config" | "blocklist" | "lister" | "dailyCounts" | "log" | "now">): Promise<Link | null> {
  const checked = checkDestination(input.url, destinationRules(input.ownHosts, deps));
  if (!checked.ok) return null; // the create says why
  const creator = creatorOf(asker)!;
  const own = (l: Link) => (creator.keyId !== null ? l.ownerKeyId === creator.keyId : creator.userId !== null && l.ownerUserId === creator.userId);
  // An admin's list holds everyone's links: asked for the asker's own by name, then checked by id.
  const ownerName = seesEveryLink(asker) ? creator.name : null;
  let cursor: Cursor | null = null;
  for (let page = 0; page < PAGES; page++) {
    const query = { ownerName, q: checked.url, tag: null, domain: input.domain, status: "active", sort: "createdAt", order: "asc", limit: PAGE, cursor, daily: false } as const;
    const listed = await listLinks(asker, query, deps);
    if (!listed.ok) return null;
    const same = listed.value.links.find((link) => link.url === checked.url && own(link) && (input.alias === undefined || link.id === input.alias) && (input.matches?.(link) ?? true));
    if (same !== undefined) return same;
    cursor = listed.value.next;
    if (cursor === null) return null;
  }
  return null;
}
