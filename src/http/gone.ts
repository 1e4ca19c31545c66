// The 410 answer for a link that no longer redirects, in the visitor's language. Rare next to a
// redirect, so the page is rendered once per language and reason, then served from memory.

import { pickLanguage } from "../lang.ts";
import type { GoneReason } from "../links/link.ts";
import { renderGone } from "../../web/server/pages.ts";
import { ENTRIES } from "./web-assets.generated.ts";
import { HTML_HEADERS } from "./web.ts";

const pages = new Map<string, string>();

export function gonePage(reason: GoneReason, acceptLanguage: string | null): Response {
  const lang = pickLanguage(acceptLanguage);
  const key = `${lang}/${reason}`;
  let page = pages.get(key);
  if (page === undefined) pages.set(key, (page = renderGone(lang, reason, ENTRIES)));
  // no-store: the link may work again (enabled, limit raised), and every visit must reach us then.
  return new Response(page, {
    status: 410,
    headers: { ...HTML_HEADERS, "Content-Language": lang, Vary: "Accept-Language", "Cache-Control": "no-store" },
  });
}
