// A link's preview card as a small HTML page (docs/sharing.md: Preview cards): what a listed
// link-preview agent (src/visits/preview-agents.ts) is answered instead of the redirect. Open Graph
// and X card tags in <head>, first (WhatsApp and Facebook read only the start of a page); a body with
// one link to the SHORT URL, never the destination: a protected link's destination stays secret.
// No script, no style, nothing loaded (CSP default-src 'none').

import type { Card } from "../links/card.ts";
import { spends } from "../links/click.ts";
import { baseOf } from "../domains/directory.ts";
import { PREVIEW_ROUTE } from "../visits/visit.ts";
import { esc } from "../../web/server/html.ts";
import type { RequestClick } from "./click.ts";
import { record, type RedirectDeps } from "./redirect.ts";
import { publicBase } from "./request-origin.ts";

// noindex twice (header and tag): a crawler that was given the page anyway does not index it.
// no-cache: owners edit cards; agents keep their own copies whatever we say.
// Vary: the same URL answers people with a redirect (redirect.ts answerLink).
const HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": "default-src 'none'",
  "X-Robots-Tag": "noindex",
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-cache",
  Vary: "User-Agent",
};

// C0 and C1 controls and the line and paragraph separators: a card's text is one line (as src/links/title.ts tidies titles).
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** The card page for a preview agent's GET (recorded as a preview, not a click) or HEAD (the same headers, no body, not recorded). */
export function cardAnswer(card: Card, click: RequestClick, deps: RedirectDeps): Response | Promise<Response> {
  const url = shortUrl(click, deps);
  // Built once per cached link and short URL (one, unless the default domain's is the Host's): a Mastodon post makes every
  // receiving server fetch the card within a minute (mastodon/mastodon#21861).
  if (card.page === undefined || card.pageUrl !== url) {
    card.page = cardPage(card, url);
    card.pageUrl = url;
  }
  if (!spends(click)) return new Response(null, { headers: HEADERS });
  const response = new Response(card.page, { headers: HEADERS });
  const caughtUp = record(click, deps, null, PREVIEW_ROUTE);
  // The visit writer is far behind: the preview is queued, its answer waits (as redirect.ts fallback() does).
  return caughtUp === undefined ? response : caughtUp.then(() => response);
}

/**
 * The link's short URL, as the API and the QR code give it (src/http/stats-link.ts linkBase): on a
 * domain of its own, that domain's (`https://<name>/<alias>`); on the default domain, --base-url,
 * else the scheme and host a trusted proxy forwards, else the request's Host.
 */
export function shortUrl(click: RequestClick, deps: Pick<RedirectDeps, "config" | "trusted">): string {
  const domain = click.domain;
  const base = domain !== null && !domain.isDefault ? baseOf(domain) : publicBase(deps.config, click.server, click.request, deps.trusted);
  if (base !== null) return `${base}${click.path()}`;
  // No usable Host (the door let it in as the default host): the URL it was reached by.
  const q = click.url.indexOf("?");
  return q === -1 ? click.url : click.url.slice(0, q);
}

/** The page's HTML: every value escaped, each text one line. */
export function cardPage(card: Card, url: string): string {
  const host = url.slice(url.indexOf("//") + 2, url.indexOf("/", url.indexOf("//") + 2));
  // og:title may not be empty (WhatsApp): without one the card is titled by the short URL itself.
  const title = esc(oneLine(card.title) ?? url.slice(url.indexOf("//") + 2));
  const description = oneLine(card.description);
  const image = oneLine(card.image);
  const href = esc(url);
  const tags = [
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${title}">`,
    description === null ? "" : `<meta property="og:description" content="${esc(description)}">`,
    image === null ? "" : `<meta property="og:image" content="${esc(image)}">`,
    `<meta property="og:url" content="${href}">`,
    `<meta property="og:site_name" content="${esc(host)}">`,
    `<meta name="twitter:card" content="${image === null ? "summary" : "summary_large_image"}">`,
    `<meta name="twitter:title" content="${title}">`,
    description === null ? "" : `<meta name="twitter:description" content="${esc(description)}">`,
    image === null ? "" : `<meta name="twitter:image" content="${esc(image)}">`,
    description === null ? "" : `<meta name="description" content="${esc(description)}">`,
    `<meta name="robots" content="noindex">`,
  ].filter((tag) => tag !== "");
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>\n${tags.join("\n")}\n` +
    `<link rel="canonical" href="${href}">\n</head><body><p><a href="${href}">${title}</a></p></body></html>\n`
  );
}

/** Text as one line, without controls; null when nothing is left. */
function oneLine(text: string | null): string | null {
  if (text === null) return null;
  const line = text.replace(CONTROLS, " ").replace(/\s+/g, " ").trim();
  return line === "" ? null : line;
}
