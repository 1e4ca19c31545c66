// The page a click on a link into an app gets (src/http/open-app.ts): a big link into the app, and
// "Continue in the browser" to the link's web fallback when it has one. No script: see open-app.ts.
import type { Language } from "../../src/lang.ts";
import { MESSAGES } from "../i18n/index.ts";
import { esc } from "./html.ts";
import { layout, t, type PageAssets } from "./pages.ts";

/** `location`: the app's URL (any scheme --allow-schemes allows); `browser`: an http(s) page, or null. */
export function renderOpenApp(lang: Language, location: string, browser: string | null, assets: PageAssets): string {
  const onward = browser === null ? "" : `<a class="btn btn-secondary" href="${esc(browser)}" rel="noreferrer">${t(lang, "open_app_browser")}</a>`;
  const body = `<section class="card notfound">
<h1>${t(lang, "open_app_title")}</h1>
<p>${t(lang, "open_app_text")}</p>
<p class="notfound-actions"><a class="btn btn-primary" href="${esc(location)}" rel="noreferrer">${t(lang, "open_app_open")}</a>${onward}</p>
<p><code>${esc(location)}</code></p>
</section>`;
  return layout({ lang, title: MESSAGES[lang].open_app_title, page: "none", body, assets, pathFor: (l) => `/${l}/` });
}
