// Server-rendered HTML for the home, stats and not-found pages. Text comes from the translation
// files; the client scripts fill in data. No inline script or style: the CSP forbids both.
import type { SignInFailure } from "../../src/auth/oidc.ts";
import { LANGUAGES, type Language } from "../../src/lang.ts";
import { MESSAGES, format, type MessageKey } from "../i18n/index.ts";
import { iconMarkup } from "../client/icons.ts";
import { EVENT_TYPES, eventKey } from "../client/dashboard/webhook-api.ts";
import { esc, jsonForScript } from "./html.ts";

/** URLs of the built assets a page links to. */
export type PageAssets = { css: string; home: string; stats: string; dashboard: string; icon: string; flags: string };

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

/** A message with `{command}` set as code: the message is escaped, the command is ours. */
function withCommand(lang: Language, key: MessageKey, command: string): string {
  return t(lang, key).replace("{command}", `<code>${esc(command)}</code>`);
}

function dialogHead(lang: Language, id: string, title: string): string {
  return `<header class="dialog-head"><h2 id="${id}-title">${title}</h2><button type="button" class="icon-btn" data-close aria-label="${t(lang, "close")}">${iconMarkup("close")}</button></header>`;
}

/** A labelled input (`attrs`: its own attributes) with its hint and its error line under it. */
function inputField(lang: Language, id: string, label: MessageKey, hint: MessageKey, attrs: string): string {
  return `<div class="field">
<label for="${id}">${t(lang, label)}</label>
<input id="${id}" ${attrs} aria-describedby="${id}-hint ${id}-error">
<p class="hint" id="${id}-hint">${t(lang, hint)}</p>
<p class="field-error" id="${id}-error" hidden></p>
</div>`;
}

/** A checkbox with its label beside it, and a hint under both. */
function checkField(lang: Language, id: string, label: MessageKey, hint: MessageKey): string {
  return `<div class="field">
<label class="check"><input type="checkbox" id="${id}" aria-describedby="${id}-hint ${id}-error"><span>${t(lang, label)}</span></label>
<p class="hint" id="${id}-hint">${t(lang, hint)}</p>
<p class="field-error" id="${id}-error" hidden></p>
</div>`;
}

/**
 * The link's behaviour, folded away so the simple case stays simple: redirect code, start, fallback,
 * password, crawling, a split of its own destination, and the rules (dashboard/behaviour-fields.ts
 * and rules-editor.ts build the rule cards and split rows).
 */
function behaviourSection(lang: Language): string {
  const redirect = ([302, 301, 307, 308] as const).map((code) => `<option value="${code}">${t(lang, `redirect_${code}`)}</option>`).join("");
  const browsers = ["Chrome", "Firefox", "Safari", "Edge", "Opera", "Samsung Internet"].map((name) => `<option value="${name}"></option>`).join("");
  return `<details class="advanced" id="lf-advanced">
<summary><span class="advanced-title">${t(lang, "behaviour_title")}</span><span class="advanced-what">${t(lang, "behaviour_what")}</span></summary>
<div class="advanced-body">
<div class="field-row">
<div class="field">
<label for="lf-redirect">${t(lang, "field_redirect")}</label>
<select id="lf-redirect" name="redirect_type" aria-describedby="lf-redirect-hint lf-redirect-warning lf-redirect-error">${redirect}</select>
<p class="hint" id="lf-redirect-hint">${t(lang, "field_redirect_hint")}</p>
<p class="field-warning" id="lf-redirect-warning" aria-live="polite"></p>
<p class="field-error" id="lf-redirect-error" hidden></p>
</div>
${inputField(lang, "lf-valid-from", "field_valid_from", "field_valid_from_hint", 'name="valid_from" type="datetime-local"')}
</div>
${inputField(lang, "lf-fallback", "field_fallback", "field_fallback_hint", 'name="fallback_url" type="url" inputmode="url" maxlength="2048" spellcheck="false" autocomplete="off" placeholder="https://"')}
<div class="field">
<label for="lf-password" id="lf-password-label">${t(lang, "field_password")}</label>
<input id="lf-password" name="password" type="password" maxlength="200" autocomplete="new-password" spellcheck="false" aria-describedby="lf-password-hint lf-password-error">
<p class="hint" id="lf-password-hint">${t(lang, "field_password_hint")}</p>
<p class="field-error" id="lf-password-error" hidden></p>
<div class="password-set" id="lf-password-set" hidden>
<p>${t(lang, "password_set")}</p>
<label class="check"><input type="checkbox" id="lf-password-remove"><span>${t(lang, "password_remove")}</span></label>
</div>
</div>
${checkField(lang, "lf-crawlable", "field_crawlable", "field_crawlable_hint")}
<section class="behaviour-part" aria-labelledby="lf-split-title">
<h3 id="lf-split-title">${t(lang, "split_title")}</h3>
<label class="check"><input type="checkbox" id="lf-split" aria-describedby="lf-split-hint"><span>${t(lang, "split_own")}</span></label>
<p class="hint" id="lf-split-hint">${t(lang, "split_hint")}</p>
<div id="lf-split-editor"></div>
</section>
<section class="behaviour-part" aria-labelledby="lf-rules-title">
<h3 id="lf-rules-title">${t(lang, "rules_title")}</h3>
<p class="hint" id="lf-rules-hint">${t(lang, "rules_hint")}</p>
<ol class="rule-list" id="lf-rules" aria-labelledby="lf-rules-title"></ol>
<p class="form-error" id="lf-rules-error" hidden></p>
<button type="button" class="btn btn-small btn-add" id="lf-rule-add">${iconMarkup("plus")}${t(lang, "rule_add")}</button>
<p class="sr-only" id="lf-rules-status" role="status"></p>
<datalist id="browser-options">${browsers}</datalist>
</section>
</div>
</details>`;
}

/** The create/edit dialog: one form, the alias only when creating (dashboard/link-form.ts). */
function linkDialog(lang: Language): string {
  return `<dialog id="link-dialog" class="dialog" aria-labelledby="link-dialog-title">
<form id="link-form" class="dialog-body" novalidate>
${dialogHead(lang, "link-dialog", t(lang, "dialog_new_title"))}
<div class="field">
<label for="lf-url">${t(lang, "field_destination")}</label>
<input id="lf-url" name="url" type="url" inputmode="url" autofocus required maxlength="2048" spellcheck="false" autocomplete="off" placeholder="${t(lang, "field_url_placeholder")}" aria-describedby="lf-url-error">
<p class="field-error" id="lf-url-error" hidden></p>
</div>
<div class="field" id="lf-alias-field">
<label for="lf-alias">${t(lang, "field_alias")}</label>
<div class="affix"><span class="affix-text" id="lf-alias-prefix" aria-hidden="true"></span><input id="lf-alias" name="custom_url" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="30" aria-describedby="lf-alias-hint lf-alias-error"></div>
<p class="hint" id="lf-alias-hint">${t(lang, "field_alias_hint")}</p>
<p class="field-error" id="lf-alias-error" hidden></p>
</div>
<div class="field-row">
${inputField(lang, "lf-expires", "field_expires", "field_expires_hint", 'name="expires_at" type="datetime-local"')}
${inputField(lang, "lf-max", "field_max_clicks", "field_max_clicks_hint", 'name="max_clicks" type="number" min="1" step="1" inputmode="numeric"')}
</div>
${inputField(lang, "lf-tags", "field_tags", "field_tags_hint", 'name="tags" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" list="tag-options"')}
${behaviourSection(lang)}
<p class="form-error" id="lf-error" role="alert" hidden></p>
<footer class="dialog-actions"><button type="button" class="btn" data-close>${t(lang, "cancel")}</button><button type="submit" class="btn btn-primary" id="lf-submit">${t(lang, "create")}</button></footer>
</form>
</dialog>`;
}

function qrDialog(lang: Language): string {
  return `<dialog id="qr-dialog" class="dialog dialog-narrow" aria-labelledby="qr-dialog-title">
<div class="dialog-body">
${dialogHead(lang, "qr-dialog", "")}
<figure class="qr">
<img id="qrd-img" width="176" height="176" alt="">
<figcaption><span class="copy-value" id="qrd-url"></span>
<span class="qr-downloads"><a id="qrd-png" class="btn btn-small" href="#" download="qr.png">${iconMarkup("download")}${t(lang, "download_png")}</a><a id="qrd-svg" class="btn btn-small" href="#" download="qr.svg">${iconMarkup("download")}${t(lang, "download_svg")}</a></span>
</figcaption>
</figure>
<footer class="dialog-actions"><button type="button" class="btn" data-close>${t(lang, "close")}</button></footer>
</div>
</dialog>`;
}

function confirmDialog(lang: Language): string {
  return `<dialog id="confirm-dialog" class="dialog dialog-narrow" role="alertdialog" aria-labelledby="confirm-dialog-title" aria-describedby="confirm-text">
<div class="dialog-body">
${dialogHead(lang, "confirm-dialog", "")}
<p id="confirm-text"></p>
<ul id="confirm-ids" class="id-list" hidden></ul>
<footer class="dialog-actions"><button type="button" class="btn" data-close autofocus>${t(lang, "cancel")}</button><button type="button" class="btn btn-danger" id="confirm-ok"></button></footer>
</div>
</dialog>`;
}

function importDialog(lang: Language): string {
  const th = (k: MessageKey, cls = "") => `<th scope="col"${cls ? ` class="${cls}"` : ""}>${t(lang, k)}</th>`;
  return `<dialog id="import-dialog" class="dialog" aria-labelledby="import-dialog-title">
<form id="import-form" class="dialog-body" novalidate>
${dialogHead(lang, "import-dialog", t(lang, "import_title"))}
<p class="dialog-text">${t(lang, "import_text")}</p>
<div class="field">
<label for="import-file">${t(lang, "import_file")}</label>
<input id="import-file" name="file" type="file" autofocus accept=".csv,text/csv,.json,application/json" aria-describedby="import-error">
<p class="field-error" id="import-error" role="alert" hidden></p>
</div>
<section id="import-result" class="import-result" hidden aria-labelledby="import-summary">
<p id="import-summary" class="import-summary" tabindex="-1"></p>
<div class="table-wrap import-table" tabindex="0" role="region" aria-labelledby="import-summary"><table class="table"><thead><tr>${th("import_col_row", "num")}${th("import_col_result")}</tr></thead><tbody id="import-rows"></tbody></table></div>
</section>
<footer class="dialog-actions"><button type="button" class="btn" data-close>${t(lang, "close")}</button><button type="submit" class="btn btn-primary" id="import-submit">${iconMarkup("upload")}${t(lang, "import_submit")}</button></footer>
</form>
</dialog>`;
}

/**
 * Moving from another shortener (admins): the source and what it needs, then the progress and
 * the result as `shortener import` prints them. A field shows for the sources in its data-for.
 */
function migrateDialog(lang: Language): string {
  const field = (id: string, label: MessageKey, sources: string, input: string) =>
    `<div class="field" data-for="${sources}"><label for="${id}">${t(lang, label)}</label>${input}</div>`;
  const text = (id: string, name: string, extra = "") => `<input id="${id}" name="${name}" autocomplete="off" spellcheck="false"${extra}>`;
  const option = (value: string, label: string) => `<option value="${value}">${label}</option>`;
  return `<dialog id="migrate-dialog" class="dialog" aria-labelledby="migrate-dialog-title">
<form id="migrate-form" class="dialog-body" novalidate>
${dialogHead(lang, "migrate-dialog", t(lang, "migrate_title"))}
<p class="dialog-text">${t(lang, "migrate_text")}</p>
<div class="field"><label for="migrate-from">${t(lang, "migrate_from")}</label><select id="migrate-from" name="from">${option("shlink", "Shlink")}${option("yourls", "YOURLS")}${option("kutt", "Kutt")}${option("bitly", "Bitly")}${option("csv", "CSV")}</select></div>
${field("migrate-url", "migrate_url", "shlink kutt", text("migrate-url", "url", ' type="url" placeholder="https://"'))}
${field("migrate-api-key", "migrate_api_key", "shlink kutt", text("migrate-api-key", "apiKey", ' type="password"'))}
${field("migrate-source-db", "migrate_source_db", "yourls", text("migrate-source-db", "sourceDb", ' type="password" placeholder="mysql://yourls:…@127.0.0.1:3306/yourls"'))}
${field("migrate-prefix", "migrate_prefix", "yourls", text("migrate-prefix", "prefix", ' placeholder="yourls_"'))}
${field("migrate-token", "migrate_token", "bitly", text("migrate-token", "token", ' type="password"'))}
${field("migrate-group", "migrate_group", "bitly", text("migrate-group", "group"))}
${field("migrate-file", "migrate_file", "csv", `<input id="migrate-file" name="file" type="file" accept=".csv,text/csv">`)}
${field("migrate-map", "migrate_map", "csv", text("migrate-map", "map", ' placeholder="long=Destination,alias=Keyword"'))}
<div class="field"><label for="migrate-conflict">${t(lang, "migrate_conflict")}</label><select id="migrate-conflict" name="onConflict">${option("fail", t(lang, "migrate_conflict_fail"))}${option("skip", t(lang, "migrate_conflict_skip"))}${option("rename", t(lang, "migrate_conflict_rename"))}</select></div>
<div class="field checks"><label><input type="checkbox" id="migrate-visits" checked> ${t(lang, "migrate_visits")}</label><label><input type="checkbox" id="migrate-dry-run"> ${t(lang, "migrate_dry_run")}</label></div>
<p class="field-error" id="migrate-error" role="alert" hidden></p>
<section id="migrate-progress" class="import-result" hidden>
<progress id="migrate-bar" max="1"></progress>
<p id="migrate-status" role="status"></p>
<pre id="migrate-lines" class="migrate-lines" tabindex="0" hidden></pre>
</section>
<footer class="dialog-actions"><button type="button" class="btn" data-close>${t(lang, "close")}</button><button type="submit" class="btn btn-primary" id="migrate-submit">${iconMarkup("upload")}${t(lang, "migrate_submit")}</button></footer>
</form>
</dialog>`;
}

/**
 * Webhooks (admins): the list dashboard/webhooks.ts fills, the form that adds one, and the box that
 * shows the new webhook's signing secret the one time the API gives it.
 */
function webhooksDialog(lang: Language): string {
  const events = EVENT_TYPES.map(
    (type, i) =>
      `<label><input type="checkbox" name="event" value="${type}"${i === 0 ? ' aria-describedby="wf-events-error"' : ""}> ${t(lang, eventKey(type))} <code>${type}</code></label>`,
  ).join("");
  const optional = (id: string, label: MessageKey, attrs: string) =>
    `<div class="field"><label for="${id}">${t(lang, label)}</label><input id="${id}" ${attrs} type="text" autocomplete="off" autocapitalize="none" spellcheck="false" aria-describedby="wf-filter-hint ${id}-error"><p class="field-error" id="${id}-error" hidden></p></div>`;
  return `<dialog id="webhooks-dialog" class="dialog dialog-wide" aria-labelledby="webhooks-dialog-title">
<div class="dialog-body">
${dialogHead(lang, "webhooks-dialog", t(lang, "webhooks_title"))}
<p class="dialog-text">${t(lang, "webhooks_text")}</p>
<p class="form-error" id="webhooks-error" role="alert" hidden></p>
<section class="webhook-secret" id="webhook-secret" hidden aria-labelledby="webhook-secret-title">
<h3 id="webhook-secret-title" tabindex="-1">${t(lang, "webhook_secret_title")}</h3>
<p class="notice" id="webhook-secret-note">${t(lang, "webhook_secret_once")}</p>
<p class="copy-inline"><code id="webhook-secret-value" class="secret-value"></code><button type="button" class="btn btn-small" id="webhook-secret-copy" aria-describedby="webhook-secret-title">${iconMarkup("copy")}${t(lang, "copy")}</button></p>
</section>
<form id="webhook-form" class="webhook-form" hidden novalidate aria-labelledby="webhook-form-title">
<h3 id="webhook-form-title">${t(lang, "webhook_form_title")}</h3>
${inputField(lang, "wf-url", "webhook_url", "webhook_url_hint", 'name="url" type="url" inputmode="url" maxlength="2048" spellcheck="false" autocomplete="off" placeholder="https://"')}
<fieldset class="field checks webhook-event-checks" id="wf-events" aria-describedby="wf-events-error"><legend>${t(lang, "webhook_events")}</legend>${events}</fieldset>
<p class="field-error" id="wf-events-error" hidden></p>
<div class="field-row">
${optional("wf-link", "webhook_link", 'name="linkId" maxlength="64"')}
${optional("wf-tag", "webhook_tag", 'name="tag" list="tag-options"')}
</div>
<p class="hint" id="wf-filter-hint">${t(lang, "webhook_filter_hint")}</p>
<p class="form-error" id="wf-error" role="alert" hidden></p>
<div class="dialog-actions"><button type="button" class="btn" id="wf-cancel">${t(lang, "cancel")}</button><button type="submit" class="btn btn-primary" id="wf-submit">${t(lang, "webhook_create")}</button></div>
</form>
<ul class="webhook-list" id="webhook-list" aria-labelledby="webhooks-dialog-title"></ul>
<p class="empty" id="webhooks-empty" hidden>${t(lang, "webhooks_empty")}</p>
<footer class="dialog-actions"><button type="button" class="btn" data-close>${t(lang, "close")}</button><button type="button" class="btn btn-primary" id="webhook-add">${iconMarkup("plus")}${t(lang, "webhook_add")}</button></footer>
</div>
</dialog>`;
}

/** One webhook's delivery log, over the webhooks dialog (dashboard/webhook-log.ts fills the rows). */
function webhookLogDialog(lang: Language): string {
  const th = (k: MessageKey, cls = "") => `<th scope="col"${cls ? ` class="${cls}"` : ""}>${t(lang, k)}</th>`;
  return `<dialog id="webhook-log-dialog" class="dialog dialog-wide" aria-labelledby="webhook-log-dialog-title" aria-describedby="webhook-log-text">
<div class="dialog-body">
${dialogHead(lang, "webhook-log-dialog", t(lang, "webhook_log_title"))}
<p class="dialog-text" id="webhook-log-text">${t(lang, "webhook_log_text")} <span class="break" id="webhook-log-url"></span></p>
<p class="form-error" id="webhook-log-error" role="alert" hidden></p>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="webhook-log-dialog-title"><table class="table webhook-log"><thead><tr>${th("col_time")}${th("col_event")}${th("col_state")}${th("col_attempts", "num")}${th("col_response", "num")}${th("col_error")}<th scope="col" class="col-actions"><span class="sr-only">${t(lang, "col_actions")}</span></th></tr></thead><tbody id="webhook-log-rows"></tbody></table></div>
<p class="empty" id="webhook-log-empty" hidden>${t(lang, "webhook_log_empty")}</p>
<footer class="dialog-actions"><button type="button" class="btn" id="webhook-log-more" hidden>${t(lang, "load_more")}</button><button type="button" class="btn" data-close>${t(lang, "close")}</button></footer>
</div>
</dialog>`;
}

/** The owner's dashboard: the sign-in form, and the overview, list and dialogs dashboard.ts fills in. */
export function renderDashboard(lang: Language, assets: PageAssets): string {
  const kpi = (id: string, key: MessageKey, extra = "") => `<div class="card kpi"><h3>${t(lang, key)}</h3><p class="kpi-value" id="${id}">–</p>${extra}</div>`;
  const option = (value: string, key: MessageKey) => `<option value="${value}">${t(lang, key)}</option>`;
  const th = (key: MessageKey, cls: string, sort = "") => `<th scope="col" class="${cls}"${sort ? ` data-sort="${sort}"` : ""}>${t(lang, key)}</th>`;
  const body = `<section class="card signin" id="sign-in" hidden aria-labelledby="sign-in-title">
<div class="signin-mark" aria-hidden="true">${iconMarkup("key")}</div>
<h1 id="sign-in-title" tabindex="-1">${t(lang, "signin_title")}</h1>
<p class="signin-lead" id="sign-in-lead-key">${withCommand(lang, "signin_lead", "shortener key create NAME")}</p>
<p class="signin-lead" id="sign-in-lead-oidc" hidden>${t(lang, "signin_lead_oidc")}</p>
<p class="notice" id="sign-in-notice" role="status" hidden></p>
<p class="notice" id="sign-out-provider" hidden><a id="sign-out-provider-link" href="/"></a></p>
<div class="signin-provider" id="sign-in-oidc" hidden>
<a class="btn btn-primary btn-block" id="sign-in-oidc-button" href="/api/session/oidc">${iconMarkup("key")}<span id="sign-in-oidc-label"></span></a>
<p class="signin-or" id="sign-in-or"><span>${t(lang, "signin_or_key")}</span></p>
</div>
<form id="sign-in-form" novalidate>
<div class="field">
<label for="sign-in-key">${t(lang, "signin_key")}</label>
<input id="sign-in-key" name="key" type="password" autocomplete="current-password" spellcheck="false" required aria-describedby="sign-in-error">
<p class="field-error" id="sign-in-error" role="alert" hidden></p>
</div>
<button type="submit" class="btn btn-primary btn-block" id="sign-in-submit">${t(lang, "signin_submit")}</button>
</form>
</section>
<div id="dashboard" hidden>
<section class="dash-head" aria-labelledby="dashboard-title">
<div class="dash-title">
<h1 id="dashboard-title" tabindex="-1">${t(lang, "dashboard_title")}</h1>
<p class="dash-who"><span id="signed-in-as"></span><button type="button" class="btn-link" id="sign-out">${iconMarkup("signout")}${t(lang, "signout")}</button></p>
${liveMark(lang, "live-counter", `<span class="live-count" id="live-count"></span>`)}
</div>
<div class="dash-actions">
<button type="button" class="btn" id="import-open">${iconMarkup("upload")}${t(lang, "import_open")}</button>
<button type="button" class="btn" id="migrate-open" hidden>${iconMarkup("upload")}${t(lang, "migrate_open")}</button>
<button type="button" class="btn" id="webhooks-open" hidden>${iconMarkup("webhook")}${t(lang, "webhooks_open")}</button>
<button type="button" class="btn" id="export-open" popovertarget="export-menu" aria-haspopup="menu">${iconMarkup("download")}${t(lang, "export_open")}</button>
<button type="button" class="btn btn-primary" id="new-link">${iconMarkup("plus")}${t(lang, "new_link")}</button>
</div>
<div id="export-menu" class="menu" popover role="menu" aria-label="${t(lang, "export_open")}">
<a role="menuitem" href="/api/links/export?format=csv" download>${t(lang, "export_csv_all")}</a>
<a role="menuitem" href="/api/links/export?format=json" download>${t(lang, "export_json_all")}</a>
</div>
</section>
<section class="overview" aria-labelledby="overview-title">
<h2 id="overview-title" class="sr-only">${t(lang, "overview_title")}</h2>
<div class="kpis kpis-4">
${kpi("ov-links", "kpi_links")}
${kpi("ov-today", "kpi_today")}
${kpi("ov-7d", "kpi_7d")}
${kpi("ov-30d", "kpi_30d", `<div class="kpi-spark" id="ov-spark"></div>`)}
</div>
<section class="card top" aria-labelledby="top-title">
<h3 id="top-title">${t(lang, "top_title")}</h3>
<ol class="top-list" id="top-links"></ol>
<p class="empty" id="top-empty" hidden>${t(lang, "top_empty")}</p>
</section>
</section>
<section class="card list-card" aria-labelledby="list-title">
<div class="list-head">
<h2 id="list-title" tabindex="-1">${t(lang, "list_title")}</h2>
<p class="list-status" id="list-status" aria-live="polite"></p>
</div>
<form class="filters" id="filters" role="search" aria-label="${t(lang, "filters_label")}">
<div class="filter filter-search"><label for="f-q">${t(lang, "search_label")}</label><span class="search-box">${iconMarkup("search")}<input id="f-q" name="q" type="search" autocomplete="off" spellcheck="false" placeholder="${t(lang, "search_placeholder")}"></span></div>
<div class="filter"><label for="f-tag">${t(lang, "tag_label")}</label><input id="f-tag" name="tag" type="text" list="tag-options" autocomplete="off" autocapitalize="none" spellcheck="false" placeholder="${t(lang, "tag_placeholder")}"></div>
<div class="filter" id="f-owner-field" hidden><label for="f-owner">${t(lang, "filter_owner")}</label><input id="f-owner" name="owner" type="text" list="owner-options" autocomplete="off" autocapitalize="none" spellcheck="false" placeholder="${t(lang, "filter_owner_all")}"></div>
<div class="filter"><label for="f-status">${t(lang, "status_label")}</label><select id="f-status" name="status">${option("", "status_all")}${option("active", "status_active")}${option("disabled", "status_disabled")}${option("expired", "status_expired")}${option("blocked", "status_blocked")}</select></div>
<div class="filter filter-sort"><label for="f-sort">${t(lang, "sort_label")}</label><select id="f-sort" name="sort">${option("createdAt:desc", "sort_created_desc")}${option("createdAt:asc", "sort_created_asc")}${option("totalClicks:desc", "sort_clicks_desc")}${option("totalClicks:asc", "sort_clicks_asc")}${option("lastClickAt:desc", "sort_last_desc")}</select></div>
<button type="button" class="btn btn-small btn-quiet" id="f-clear" hidden>${t(lang, "clear_filters")}</button>
<datalist id="tag-options"></datalist>
<datalist id="owner-options"></datalist>
</form>
<div class="bulk" id="bulk" role="region" aria-label="${t(lang, "bulk_label")}" hidden>
<span class="bulk-count" id="bulk-count" aria-live="polite"></span>
<button type="button" class="btn btn-small" id="bulk-disable">${iconMarkup("pause")}${t(lang, "bulk_disable")}</button>
<button type="button" class="btn btn-small" id="bulk-enable">${iconMarkup("play")}${t(lang, "bulk_enable")}</button>
<a class="btn btn-small" id="bulk-export" href="/api/links/export?format=csv" download>${iconMarkup("download")}${t(lang, "bulk_export")}</a>
<button type="button" class="btn btn-small btn-danger-quiet" id="bulk-delete">${iconMarkup("trash")}${t(lang, "bulk_delete")}</button>
<button type="button" class="btn btn-small btn-quiet" id="bulk-clear">${t(lang, "bulk_clear")}</button>
</div>
<div class="table-wrap links-wrap" id="links-wrap">
<table class="table links" id="links-table" aria-labelledby="list-title" aria-describedby="list-status">
<thead><tr>
<th scope="col" class="col-select"><input type="checkbox" id="select-page"><label for="select-page" class="select-page-label">${t(lang, "select_page")}</label></th>
${th("col_link", "col-link")}${th("col_tags", "col-tags")}${th("col_created", "col-created", "createdAt")}${th("col_clicks", "col-clicks num", "totalClicks")}${th("col_daily", "col-daily")}${th("col_last_click", "col-last", "lastClickAt")}${th("col_status", "col-status")}
<th scope="col" class="col-actions"><span class="sr-only">${t(lang, "col_actions")}</span></th>
</tr></thead>
<tbody id="links-body"></tbody>
</table>
</div>
<div class="list-empty" id="list-empty" hidden><p>${t(lang, "list_empty")}</p></div>
<div class="list-empty" id="list-nomatch" hidden><p>${t(lang, "list_nomatch")}</p></div>
<nav class="pager" id="pager" aria-label="${t(lang, "pager_label")}">
<button type="button" class="btn btn-small" id="page-prev" disabled>${iconMarkup("left")}${t(lang, "prev_page")}</button>
<span class="page-label" id="page-label"></span>
<button type="button" class="btn btn-small" id="page-next" disabled>${t(lang, "next_page")}${iconMarkup("right")}</button>
</nav>
</section>
<div id="row-menu" class="menu" popover role="menu" aria-label="${t(lang, "col_actions")}">
<button type="button" role="menuitem" data-action="copy">${iconMarkup("copy")}${t(lang, "action_copy")}</button>
<button type="button" role="menuitem" data-action="qr">${iconMarkup("qr")}${t(lang, "action_qr")}</button>
<a role="menuitem" data-action="stats" href="/${lang}/links">${iconMarkup("chart")}${t(lang, "action_stats")}</a>
<button type="button" role="menuitem" data-action="edit">${iconMarkup("edit")}${t(lang, "action_edit")}</button>
<button type="button" role="menuitem" data-action="disable">${iconMarkup("pause")}${t(lang, "action_disable")}</button>
<button type="button" role="menuitem" data-action="enable">${iconMarkup("play")}${t(lang, "action_enable")}</button>
<button type="button" role="menuitem" data-action="delete" class="menu-danger">${iconMarkup("trash")}${t(lang, "action_delete")}</button>
</div>
${linkDialog(lang)}
${qrDialog(lang)}
${confirmDialog(lang)}
${importDialog(lang)}
${migrateDialog(lang)}
${webhooksDialog(lang)}
${webhookLogDialog(lang)}
</div>
<div class="toast" id="toast" role="status"></div>
<noscript><p class="form-error">${t(lang, "noscript_dashboard")}</p></noscript>`;
  return layout({ lang, title: MESSAGES[lang].dashboard_title, page: "dashboard", body, assets, pathFor: (l) => `/${l}/links` });
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
