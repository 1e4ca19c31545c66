// Server-rendered HTML: the layout every page shares, the home page and the message pages (not
// found, gone, signed in, password). The stats page is in stats-page.ts, the dashboard in
// dashboard-page.ts. Text comes from the translation files; the client scripts fill in data.
// No inline script or style: the CSP forbids both.
import type { SignInFailure } from "../../src/auth/oidc.ts";
import { LANGUAGES, type Language } from "../../src/lang.ts";
import { MESSAGES, format, type MessageKey } from "../i18n/index.ts";
import { iconMarkup } from "../client/icons.ts";
import { esc, jsonForScript } from "./html.ts";

export { renderDashboard } from "./dashboard-page.ts";

/** URLs of the built assets a page links to. */
export type PageAssets = { css: string; home: string; stats: string; dashboard: string; icon: string; flags: string; aggregate: string };

type Page = "home" | "stats" | "dashboard" | "none" | "aggregate";

type LayoutOptions = {
  lang: Language;
  title: string;
  page: Page;
  id?: string;
  body: string;
  assets: PageAssets;
  /** Path of this page in another language, for the language switch. */
  pathFor: (lang: Language) => string;
  /** More of <head> (a refresh to go on) */
  head?: string;
};

export function t(lang: Language, key: MessageKey, vars?: Record<string, string | number>): string {
  return esc(format(MESSAGES[lang][key], vars));
}

function languageMenu(lang: Language, pathFor: (l: Language) => string): string {
  const items = LANGUAGES.map((l) => {
    const current = l === lang ? ' aria-current="true"' : "";
    return `<li><a href="${esc(pathFor(l))}" hreflang="${l}" lang="${l}"${current}>${esc(MESSAGES[l].language_name)}</a></li>`;
  }).join("");
  return `<details class="lang-menu"><summary><span class="globe" aria-hidden="true"></span><span class="sr-only">${t(lang, "nav_language")}: </span><span class="lang-current">${t(lang, "language_name")}</span></summary><ul>${items}</ul></details>`;
}

export function layout(o: LayoutOptions): string {
  const script = o.page === "none" ? "" : `<script type="module" src="${esc(o.assets[o.page])}"></script>`;
  const messages = o.page === "none" ? "" : `<script type="application/json" id="i18n">${jsonForScript(MESSAGES[o.lang])}</script>`;
  const alternates = LANGUAGES.map((l) => `<link rel="alternate" hreflang="${l}" href="${esc(o.pathFor(l))}">`).join("");
  const dataId = o.id === undefined ? "" : ` data-id="${esc(o.id)}"`;
  return `<!doctype html>
<html lang="${o.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${esc(o.title)} · ${t(o.lang, "app_name")}</title>
<link rel="icon" href="${esc(o.assets.icon)}" type="image/svg+xml">
<link rel="stylesheet" href="${esc(o.assets.css)}">
${alternates}
${script}
${messages}
${o.head ?? ""}
</head>
<body data-page="${o.page}" data-lang="${o.lang}"${dataId}>
<a class="skip-link" href="#main">${t(o.lang, "skip_to_content")}</a>
<header class="topbar"><div class="wrap topbar-inner">
<a class="brand" href="/${o.lang}/"><img class="brand-mark" src="${esc(o.assets.icon)}" alt="" width="28" height="28">${t(o.lang, "app_name")}</a>
<div class="topbar-end">
<a class="topnav-link" href="/${o.lang}/links"${o.page === "dashboard" ? ' aria-current="page"' : ""}>${t(o.lang, "nav_links")}</a>
${languageMenu(o.lang, o.pathFor)}
</div>
</div></header>
<main id="main" class="wrap">
${o.body}
</main>
<footer class="footer wrap"><p>${t(o.lang, "footer")}</p></footer>
</body>
</html>
`;
}

/**
 * The home page: the form that creates a short link, and the (hidden) result card. `statsPublic`:
 * --stats-access public, which the card says (anyone with the short link can read its statistics).
 */
export function renderHome(lang: Language, assets: PageAssets, statsPublic: boolean): string {
  const publicNote = statsPublic ? `\n<p class="public-note" id="result-public">${iconMarkup("eye")}<span>${t(lang, "result_stats_public")}</span></p>` : "";
  const body = `<section class="hero">
<h1>${t(lang, "home_title")}</h1>
<p class="lead">${t(lang, "home_lead")}</p>
</section>
<form id="create-form" class="card create-form" method="post" action="/api/create" enctype="multipart/form-data" novalidate>
<div class="field">
<label for="url">${t(lang, "field_url")}</label>
<input id="url" name="url" type="url" inputmode="url" autocomplete="url" required maxlength="2048" spellcheck="false" placeholder="${t(lang, "field_url_placeholder")}" aria-describedby="url-error">
<p class="field-error" id="url-error" hidden></p>
</div>
<div class="field">
<label for="custom_url">${t(lang, "field_alias")}</label>
<div class="affix"><span class="affix-text" id="alias-prefix" aria-hidden="true"></span><input id="custom_url" name="custom_url" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="30" aria-describedby="custom_url-hint custom_url-error"></div>
<p class="hint" id="custom_url-hint">${t(lang, "field_alias_hint")}</p>
<p class="field-error" id="custom_url-error" hidden></p>
</div>
<p class="form-error" id="form-error" role="alert" hidden></p>
<button type="submit" class="btn btn-primary" id="submit">${t(lang, "submit")}</button>
<div class="signin-needed" id="signin-needed" hidden>
<p>${t(lang, "signin_to_create")}</p>
<a class="btn btn-primary" href="/${lang}/links?next=${encodeURIComponent(`/${lang}/`)}">${t(lang, "signin_to_create_button")}</a>
</div>
</form>
<section id="result" class="card result" hidden aria-labelledby="result-title">
<h2 id="result-title" tabindex="-1">${t(lang, "result_title")}</h2>
<div class="result-grid">
<div class="result-links">
<dl class="copy-list">
<div class="copy-item"><dt id="short-url-label">${t(lang, "result_short")}</dt><dd><span id="short-url" class="copy-value"></span><button type="button" class="btn btn-small" data-copy="short-url" aria-describedby="short-url-label">${t(lang, "copy")}</button></dd></div>
<div class="copy-item"><dt id="stats-url-label">${t(lang, "result_stats")}</dt><dd><span id="stats-url" class="copy-value"></span><button type="button" class="btn btn-small" data-copy="stats-url" aria-describedby="stats-url-label">${t(lang, "copy")}</button></dd></div>
</dl>${publicNote}
<a id="stats-link" class="btn btn-secondary" href="/${lang}/">${t(lang, "open_stats")}</a>
</div>
<figure class="qr">
<img id="qr-img" width="176" height="176" alt="">
<figcaption>
<span class="qr-title">${t(lang, "qr_title")}</span>
<span class="qr-downloads"><a id="qr-png" class="btn btn-small" href="#" download="qr.png">${t(lang, "download_png")}</a><a id="qr-svg" class="btn btn-small" href="#" download="qr.svg">${t(lang, "download_svg")}</a></span>
</figcaption>
</figure>
</div>
</section>
<section id="recent" class="card recent" hidden aria-labelledby="recent-links-title">
<div class="card-head"><h2 id="recent-links-title">${t(lang, "recent_links_title")}</h2><a href="/${lang}/links">${t(lang, "recent_links_all")}</a></div>
<ol class="recent-list" id="recent-links"></ol>
<p class="empty" id="recent-links-empty" hidden>${t(lang, "recent_links_empty")}</p>
</section>`;
  return layout({ lang, title: MESSAGES[lang].home_title, page: "home", body, assets, pathFor: (l) => `/${l}/` });
}

/** The pulsing "Live" mark, shown while a live stream is open; `extra`: more inside it. */
export function liveMark(lang: Language, id: string, extra: string): string {
  return `<p class="live" id="${id}" hidden><span class="live-dot" aria-hidden="true"></span><span class="live-label">${t(lang, "live")}</span>${extra}</p>`;
}

/**
 * Where a 404 page sends a visitor on (docs/web-ui.md: Not-found page): "create" to the public form,
 * "home" to `/` (which --root-redirect sends where the owner wants visitors), "none" where neither
 * helps a visitor (creating needs a key).
 */
export type WayOn = "create" | "home" | "none";

/** A 404 page: an unknown short link or its stats, or any other unknown UI path. */
export function renderNotFound(lang: Language, kind: "link" | "page", assets: PageAssets, way: WayOn = "create"): string {
  const title = kind === "link" ? "notfound_title" : "page_notfound_title";
  const text = kind === "page" ? "page_notfound_text" : way === "create" ? "notfound_text" : "notfound_check_text";
  if (way === "create") return renderMessage(lang, title, text, assets);
  const home = way === "home" ? `<a class="btn btn-primary" href="/">${t(lang, "notfound_home")}</a>` : "";
  return renderMessage(lang, title, text, assets, home, false);
}

/** What a visitor sees instead of a redirect when a link is disabled, expired, blocked or deleted (410). */
export function renderGone(lang: Language, reason: "disabled" | "expired" | "blocked" | "deleted", assets: PageAssets): string {
  return renderMessage(lang, `gone_${reason}_title`, `gone_${reason}_text`, assets);
}

/**
 * After the provider: signed in, going on to `next` (a path of this service) by a refresh from this
 * page. A redirect would not do: a navigation that began at the provider's site is cross-site all
 * the way, and the SameSite=Strict session cookie would not go with it to a server-rendered page
 * (a private stats page would ask to sign in again). This page's own refresh is same-site.
 */
export function renderSignedIn(lang: Language, next: string, assets: PageAssets): string {
  const body = `<section class="card notfound">
<h1>${t(lang, "signin_done_title")}</h1>
<p class="notfound-actions"><a class="btn btn-primary" href="${esc(next)}">${t(lang, "signin_continue")}</a></p>
</section>`;
  const head = `<meta http-equiv="refresh" content="0; url=${esc(next)}">`;
  return layout({ lang, title: MESSAGES[lang].signin_done_title, page: "none", body, assets, pathFor: (l) => `/${l}/links`, head });
}

/** Why a sign-in through the identity provider failed, with a way to start again. */
export function renderSignInFailed(lang: Language, reason: SignInFailure, assets: PageAssets): string {
  const again = `<a class="btn btn-primary" href="/${lang}/links">${t(lang, "signin_again")}</a>`;
  return renderMessage(lang, "signin_failed_title", `signin_failed_${reason}`, assets, again);
}

/** A page whose request a proxy's identity header could not sign in (400; docs/sign-in.md: Auth proxy headers). */
export function renderHeaderRefused(lang: Language, assets: PageAssets): string {
  return renderMessage(lang, "signin_failed_title", "signin_failed_header_invalid", assets);
}

/** A stats page under --stats-access key, for a request that is not signed in (401): sign in, then back here. */
export function renderStatsPrivate(lang: Language, id: string, assets: PageAssets): string {
  const next = encodeURIComponent(`/${lang}/stats/${id}`);
  const signIn = `<a class="btn btn-primary" href="/${lang}/links?next=${esc(next)}">${t(lang, "signin_submit")}</a>`;
  return renderMessage(lang, "stats_private_title", "stats_private_text", assets, signIn);
}

/** A protected link whose stored password hash may not be verified (423): its owner must set a new password. */
export function renderPasswordLocked(lang: Language, assets: PageAssets): string {
  return renderMessage(lang, "password_locked_title", "password_locked_text", assets);
}

/** `withForm`: after `action`, a way to the public form ("Shorten a link"). */
function renderMessage(lang: Language, title: MessageKey, text: MessageKey, assets: PageAssets, action = "", withForm = true): string {
  const home = withForm ? `<a class="btn ${action ? "btn-secondary" : "btn-primary"}" href="/${lang}/">${t(lang, "back_home")}</a>` : "";
  const actions = action + home === "" ? "" : `\n<p class="notfound-actions">${action}${home}</p>`;
  const body = `<section class="card notfound">
<h1>${t(lang, title)}</h1>
<p>${t(lang, text)}</p>${actions}
</section>`;
  return layout({ lang, title: MESSAGES[lang][title], page: "none", body, assets, pathFor: (l) => `/${l}/` });
}

/**
 * A password-protected link's page: one field, posted back to the short link itself (with the
 * click's query, which the rules may read). `notice`: what the last attempt earned.
 */
export function renderPassword(lang: Language, action: string, notice: { wrong: true } | { retryAfterSeconds: number } | null, assets: PageAssets): string {
  const message =
    notice === null ? "" : `<p class="form-error" role="alert">${"wrong" in notice ? t(lang, "password_wrong") : t(lang, "password_limited", { seconds: notice.retryAfterSeconds })}</p>`;
  const body = `<section class="card notfound">
<h1>${t(lang, "password_title")}</h1>
<p>${t(lang, "password_text")}</p>
<form method="post" action="${esc(action)}" class="password-form">
<label for="link-password">${t(lang, "password_label")}</label>
<input id="link-password" name="password" type="password" required autocomplete="off" autofocus maxlength="200"${notice !== null ? ' aria-invalid="true"' : ""}>
${message}
<p class="notfound-actions"><button class="btn btn-primary" type="submit">${t(lang, "password_submit")}</button></p>
</form>
</section>`;
  return layout({ lang, title: MESSAGES[lang].password_title, page: "none", body, assets, pathFor: (l) => `/${l}/` });
}
