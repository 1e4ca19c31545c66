// Server-rendered HTML for the home, stats and not-found pages. Text comes from the translation
// files; the client scripts fill in data. No inline script or style: the CSP forbids both.
import { LANGUAGES, type Language } from "../../src/lang.ts";
import { MESSAGES, format, type MessageKey } from "../i18n/index.ts";
import { esc, jsonForScript } from "./html.ts";

/** URLs of the built assets a page links to. */
export type PageAssets = { css: string; home: string; stats: string; dashboard: string; icon: string };

type Page = "home" | "stats" | "dashboard" | "none";

type LayoutOptions = {
  lang: Language;
  title: string;
  page: Page;
  id?: string;
  body: string;
  assets: PageAssets;
  /** Path of this page in another language, for the language switch. */
  pathFor: (lang: Language) => string;
};

function t(lang: Language, key: MessageKey, vars?: Record<string, string | number>): string {
  return esc(format(MESSAGES[lang][key], vars));
}

function languageMenu(lang: Language, pathFor: (l: Language) => string): string {
  const items = LANGUAGES.map((l) => {
    const current = l === lang ? ' aria-current="true"' : "";
    return `<li><a href="${esc(pathFor(l))}" hreflang="${l}" lang="${l}"${current}>${esc(MESSAGES[l].language_name)}</a></li>`;
  }).join("");
  return `<details class="lang-menu"><summary><span class="globe" aria-hidden="true"></span><span class="sr-only">${t(lang, "nav_language")}: </span>${t(lang, "language_name")}</summary><ul>${items}</ul></details>`;
}

function layout(o: LayoutOptions): string {
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
</head>
<body data-page="${o.page}" data-lang="${o.lang}"${dataId}>
<a class="skip-link" href="#main">${t(o.lang, "skip_to_content")}</a>
<header class="topbar"><div class="wrap topbar-inner">
<a class="brand" href="/${o.lang}/"><img class="brand-mark" src="${esc(o.assets.icon)}" alt="" width="28" height="28">${t(o.lang, "app_name")}</a>
${languageMenu(o.lang, o.pathFor)}
</div></header>
<main id="main" class="wrap">
${o.body}
</main>
<footer class="footer wrap"><p>${t(o.lang, "footer")}</p></footer>
</body>
</html>
`;
}

/** The home page: the form that creates a short link, and the (hidden) result card. */
export function renderHome(lang: Language, assets: PageAssets): string {
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
</form>
<section id="result" class="card result" hidden aria-labelledby="result-title">
<h2 id="result-title" tabindex="-1">${t(lang, "result_title")}</h2>
<div class="result-grid">
<div class="result-links">
<dl class="copy-list">
<div class="copy-item"><dt id="short-url-label">${t(lang, "result_short")}</dt><dd><span id="short-url" class="copy-value"></span><button type="button" class="btn btn-small" data-copy="short-url" aria-describedby="short-url-label">${t(lang, "copy")}</button></dd></div>
<div class="copy-item"><dt id="stats-url-label">${t(lang, "result_stats")}</dt><dd><span id="stats-url" class="copy-value"></span><button type="button" class="btn btn-small" data-copy="stats-url" aria-describedby="stats-url-label">${t(lang, "copy")}</button></dd></div>
</dl>
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
</section>`;
  return layout({ lang, title: MESSAGES[lang].home_title, page: "home", body, assets, pathFor: (l) => `/${l}/` });
}

function breakdownCard(lang: Language, key: string, title: MessageKey): string {
  return `<section class="card breakdown" aria-labelledby="bd-${key}-title">
<h2 id="bd-${key}-title">${t(lang, title)}</h2>
<ol class="bars" id="bd-${key}"></ol>
<p class="empty" id="bd-${key}-empty" hidden>${t(lang, "no_data")}</p>
</section>`;
}

/** The stats page skeleton for an existing link; stats.ts fetches /api/stats and fills it. */
export function renderStats(lang: Language, id: string, assets: PageAssets): string {
  const ranges = (["7d", "30d", "90d", "all", "custom"] as const)
    .map((r) => `<label class="seg"><input type="radio" name="range" value="${r}"${r === "30d" ? " checked" : ""}><span>${t(lang, `range_${r}`)}</span></label>`)
    .join("");
  const th = (k: MessageKey) => `<th scope="col">${t(lang, k)}</th>`;
  const body = `<section class="link-head">
<h1>${t(lang, "stats_title", { id })}</h1>
<dl class="link-meta">
<div class="meta-item meta-wide"><dt>${t(lang, "stats_original")}</dt><dd id="original-url" class="break">…</dd></div>
<div class="meta-item"><dt>${t(lang, "stats_short")}</dt><dd class="copy-inline"><span id="short-url" class="break"></span><button type="button" class="btn btn-small" id="copy-short">${t(lang, "copy")}</button></dd></div>
<div class="meta-item"><dt>${t(lang, "stats_created")}</dt><dd id="created-at">…</dd></div>
</dl>
</section>
<section class="toolbar" aria-label="${t(lang, "range_label")}">
<fieldset class="segmented"><legend class="sr-only">${t(lang, "range_label")}</legend>${ranges}</fieldset>
<form class="custom-range" id="custom-range" hidden>
<label>${t(lang, "range_from")} <input type="date" id="range-from" required></label>
<label>${t(lang, "range_to")} <input type="date" id="range-to" required></label>
<button type="submit" class="btn btn-small">${t(lang, "range_apply")}</button>
</form>
<label class="switch"><input type="checkbox" id="exclude-bots" role="switch"><span class="switch-track" aria-hidden="true"></span><span>${t(lang, "exclude_bots")}</span></label>
<p class="updated" id="updated" aria-live="polite">${t(lang, "loading")}</p>
</section>
<p class="form-error" id="stats-error" role="alert" hidden></p>
<section class="kpis">
<div class="card kpi"><h2>${t(lang, "kpi_total")}</h2><p class="kpi-value" id="kpi-total">–</p></div>
<div class="card kpi"><h2>${t(lang, "kpi_human")}</h2><p class="kpi-value" id="kpi-human">–</p></div>
<div class="card kpi"><h2>${t(lang, "kpi_bots")}</h2><p class="kpi-value" id="kpi-bots">–</p></div>
</section>
<section class="card chart-card" aria-labelledby="chart-title">
<h2 id="chart-title">${t(lang, "chart_title")}</h2>
<div id="chart" class="chart" role="img" aria-label="${t(lang, "chart_title")}"></div>
</section>
<div class="breakdowns">
${breakdownCard(lang, "browser", "breakdown_browser")}
${breakdownCard(lang, "os", "breakdown_os")}
${breakdownCard(lang, "device", "breakdown_device")}
${breakdownCard(lang, "country", "breakdown_country")}
${breakdownCard(lang, "referrer", "breakdown_referrer")}
<section class="card breakdown" aria-labelledby="utm-title">
<h2 id="utm-title">${t(lang, "breakdown_utm")}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="utm-title"><table class="table" id="utm-table"><thead><tr>${th("col_source")}${th("col_medium")}${th("col_campaign")}<th scope="col" class="num">${t(lang, "col_clicks")}</th></tr></thead><tbody></tbody></table></div>
<p class="empty" id="utm-empty" hidden>${t(lang, "no_data")}</p>
</section>
</div>
<section class="card" aria-labelledby="recent-title">
<h2 id="recent-title">${t(lang, "recent_title")}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="recent-title"><table class="table" id="recent-table"><thead><tr>${th("col_time")}${th("col_browser")}${th("col_os")}${th("col_device")}${th("col_country")}${th("col_referrer")}${th("col_type")}</tr></thead><tbody></tbody></table></div>
<p class="empty" id="recent-empty" hidden>${t(lang, "no_data")}</p>
</section>
<noscript><p class="form-error">${t(lang, "noscript")}</p></noscript>`;
  return layout({
    lang,
    title: format(MESSAGES[lang].stats_title, { id }),
    page: "stats",
    id,
    body,
    assets,
    pathFor: (l) => `/${l}/stats/${encodeURIComponent(id)}`,
  });
}

/** The owner's dashboard: sign-in form when signed out; dashboard.ts fills in the rest. */
export function renderDashboard(lang: Language, assets: PageAssets): string {
  const body = `<section class="card" id="sign-in" hidden aria-labelledby="sign-in-title">
<h1 id="sign-in-title">${t(lang, "signin_title")}</h1>
<form id="sign-in-form" novalidate>
<div class="field">
<label for="sign-in-key">${t(lang, "signin_key")}</label>
<input id="sign-in-key" name="key" type="password" autocomplete="current-password" spellcheck="false" required aria-describedby="sign-in-error">
<p class="field-error" id="sign-in-error" role="alert" hidden></p>
</div>
<button type="submit" class="btn btn-primary">${t(lang, "signin_submit")}</button>
</form>
</section>
<section id="dashboard" hidden aria-labelledby="dashboard-title">
<h1 id="dashboard-title">${t(lang, "dashboard_title")}</h1>
<p id="signed-in-as"></p>
<button type="button" class="btn" id="sign-out">${t(lang, "signout")}</button>
</section>
<noscript><p class="form-error">${t(lang, "noscript")}</p></noscript>`;
  return layout({ lang, title: MESSAGES[lang].dashboard_title, page: "dashboard", body, assets, pathFor: (l) => `/${l}/links` });
}

/** A plain 404 page: an unknown link's stats, or any other unknown UI path. */
export function renderNotFound(lang: Language, kind: "link" | "page", assets: PageAssets): string {
  return kind === "link" ? renderMessage(lang, "notfound_title", "notfound_text", assets) : renderMessage(lang, "page_notfound_title", "page_notfound_text", assets);
}

/** What a visitor sees instead of a redirect when a link is disabled, expired, blocked or deleted (410). */
export function renderGone(lang: Language, reason: "disabled" | "expired" | "blocked" | "deleted", assets: PageAssets): string {
  return renderMessage(lang, `gone_${reason}_title`, `gone_${reason}_text`, assets);
}

/** A stats page under --stats-access key, for a request that is not signed in (401). */
export function renderStatsPrivate(lang: Language, assets: PageAssets): string {
  return renderMessage(lang, "stats_private_title", "stats_private_text", assets);
}

function renderMessage(lang: Language, title: MessageKey, text: MessageKey, assets: PageAssets): string {
  const body = `<section class="card notfound">
<h1>${t(lang, title)}</h1>
<p>${t(lang, text)}</p>
<p><a class="btn btn-primary" href="/${lang}/">${t(lang, "back_home")}</a></p>
</section>`;
  return layout({ lang, title: MESSAGES[lang][title], page: "none", body, assets, pathFor: (l) => `/${l}/` });
}
