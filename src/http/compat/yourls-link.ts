// What the YOURLS API's actions share (docs/yourls-api.md): the request's context, a link as
// YOURLS shows it (its title, its date), and the link a `shorturl` parameter names.

import { linkKey } from "../../domains/link-key.ts";
import type { Link } from "../../links/link.ts";
import type { LinksDeps } from "../links.ts";
import { linkPlace } from "../link-json.ts";
import type { PeerServer } from "../request-origin.ts";
import type { YourlsAnswer } from "./yourls-output.ts";

export type YourlsDeps = LinksDeps;

export type YourlsContext = {
  request: Request;
  server: PeerServer;
  deps: YourlsDeps;
  /** the public base of this request (--base-url, else its own) */
  base: string;
  /** a link's short URL, on its own domain (src/http/link-json.ts linkPlace) */
  shortUrl: (link: Link) => string;
};

/** An action's answer, with the headers it needs (Retry-After). */
export type YourlsReply = { answer: YourlsAnswer; headers?: Record<string, string> };

export function yourlsContext(request: Request, server: PeerServer, deps: YourlsDeps, base: string): YourlsContext {
  return { request, server, deps, base, shortUrl: (link) => `${linkPlace(link.domain, base, deps.directory).base}/${link.id}` };
}

/** A link's title as YOURLS shows one: the stored title, else the URL (YOURLS stores the URL when it finds no title). */
export function yourlsTitle(link: Link): string {
  return link.title ?? link.url;
}

/** A time as YOURLS's MySQL gives it: `YYYY-MM-DD HH:MM:SS` (UTC here). */
export function yourlsDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

/**
 * The key of the link a `shorturl` parameter names: a full short URL (its host says the domain:
 * one of ours, else the default, as YOURLS strips its own site's address) or a bare keyword.
 */
export function namedLinkKey(shorturl: string, deps: Pick<YourlsDeps, "directory">): { key: string; keyword: string } {
  const trimmed = shorturl.trim();
  if (!/^https?:\/\//i.test(trimmed) || !URL.canParse(trimmed)) return { key: trimmed, keyword: trimmed };
  const url = new URL(trimmed);
  const keyword = decodeURIComponentSafe(url.pathname.replace(/^\/+/, ""));
  const domain = deps.directory.byName(url.hostname);
  return { key: linkKey(domain?.key ?? deps.directory.defaultDomain.key, keyword), keyword };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
