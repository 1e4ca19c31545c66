// The 404 pages: a short link that does not exist, and any other unknown page, styled and in the
// visitor's language like the other visitor pages (docs/web-ui.md: Not-found page). Rendered once
// per language and kind, then served from memory, as the 410 page is (gone.ts).

import { pickLanguage, type Language } from "../lang.ts";
import type { Config } from "../config.ts";
import { mayCreateLinks } from "../auth/policy.ts";
import { renderNotFound, type WayOn } from "../../web/server/pages.ts";
import { ENTRIES } from "./web-assets.generated.ts";
import { HTML_HEADERS } from "./web.ts";
import type { DomainEntry } from "../domains/directory.ts";

export type NotFoundSettings = Pick<Config, "notFoundRedirect" | "rootRedirect" | "createAccess">;

export type NotFoundAnswers = {
  /** An unknown short link: the page, or a redirect to its domain's not-found redirect or --not-found-redirect. */
  link: (request: Request, domain?: DomainEntry | null) => Response;
  /** Any other unknown page (never redirected: --not-found-redirect is about links). */
  page: (request: Request) => Response;
};

/**
 * Where the page sends a visitor on. With --root-redirect, `/` goes where the owner wants visitors:
 * the way on is that. Without it, the public form, unless creating needs a key: a visitor would
 * only be asked to sign in there, so the page offers nothing but the advice to check the address.
 */
export function wayOn(settings: Pick<NotFoundSettings, "rootRedirect" | "createAccess">): WayOn {
  if (settings.rootRedirect !== null) return "home";
  // Whether someone not signed in may create: the policy decides (src/auth/policy.ts).
  return mayCreateLinks(null, settings.createAccess) ? "create" : "none";
}

export function notFoundAnswers(settings: NotFoundSettings): NotFoundAnswers {
  const way = wayOn(settings);
  const pages = new Map<string, string>();
  const answer = (kind: "link" | "page") => (request: Request) => {
    const lang: Language = pickLanguage(request.headers.get("accept-language"));
    const key = `${lang}/${kind}`;
    let page = pages.get(key);
    if (page === undefined) pages.set(key, (page = renderNotFound(lang, kind, ENTRIES, way)));
    // no-store: a link of this name may be made a minute later, and its first visitor must reach it.
    return new Response(page, {
      status: 404,
      headers: { ...HTML_HEADERS, "Content-Language": lang, Vary: "Accept-Language", "Cache-Control": "no-store" },
    });
  };
  const page = answer("link");
  const redirect = settings.notFoundRedirect;
  return {
    link: (request, domain) => {
      const to = domain?.notFoundRedirect ?? redirect;
      return to === null ? page(request) : new Response(null, { status: 302, headers: { Location: to, "Cache-Control": "no-store" } });
    },
    page: answer("page"),
  };
}
