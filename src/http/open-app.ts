// A click whose destination is in an app (--allow-schemes: tg:, spotify:, market:, …): a small page
// in the visitor's language with a big link into the app and, when the link has an http(s)
// fallback URL, one to go on in the browser (docs/sharing.md: Links into apps). A page, not a 302:
// iOS Safari strands a visitor whose app is missing on "the address is invalid", and Chrome opens
// an app only from a user gesture, which the tap on this page's link is. No script at all: Chrome
// refuses an app launched from a timer, and Safari's error would replace the page for a visitor
// without the app; the page's link works the same everywhere.
//
// Served only for links into apps, never on the plain click path (redirect.ts: send()).

import type { Destination } from "../links/destination.ts";
import type { RequestClick } from "./click.ts";
import { record, type RedirectDeps } from "./redirect.ts";
import { pickLanguage } from "../lang.ts";
import { renderOpenApp } from "../../web/server/open-app-page.ts";
import { ENTRIES } from "./web-assets.generated.ts";
import { HTML_HEADERS } from "./web.ts";
import { spends } from "../links/click.ts";

/** Nothing runs and nothing loads but the stylesheet and icon; the links are navigations, which CSP does not govern. */
export const OPEN_APP_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page for a click (a GET or the password form's right password) or a HEAD; a click is recorded as a redirect's would be. */
export function openAppAnswer(destination: Destination, location: string, route: string | null, click: RequestClick, deps: RedirectDeps): Response | Promise<Response> {
  const lang = pickLanguage(click.header("accept-language"));
  const page = renderOpenApp(lang, location, destination.browser, ENTRIES);
  // no-store: each visit must reach us to be counted, as a redirect's no-store makes sure.
  const response = new Response(page, {
    status: 200,
    headers: { ...HTML_HEADERS, "Content-Security-Policy": OPEN_APP_CSP, "Content-Language": lang, Vary: "Accept-Language", "Cache-Control": "no-store, max-age=0" },
  });
  // HEAD is what link checkers and previews send first: answered, not a click.
  if (!spends(click)) return response;
  const caughtUp = record(click, deps, destination.utm || click.query.includes("utm_") ? location : null, route);
  // The visit writer is far behind a database that answers: the click is queued, its answer waits (catch-up.ts).
  return caughtUp === undefined ? response : caughtUp.then(() => response);
}
