// The dashboard's dialogs, server-rendered and hidden until dashboard.ts opens them: create/edit,
// QR code, confirm, import, migrate from another shortener, webhooks and a webhook's log.
import type { Language } from "../../src/lang.ts";
import type { MessageKey } from "../i18n/index.ts";
import { iconMarkup } from "../client/icons.ts";
import { EVENT_TYPES, eventKey } from "../client/dashboard/webhook-api.ts";
import { esc } from "./html.ts";
import { qrPanel } from "./qr-panel.ts";
import { t } from "./pages.ts";

/** A message with `{command}` set as code: the message is escaped, the command is ours. */
export function withCommand(lang: Language, key: MessageKey, command: string): string {
  return t(lang, key).replace("{command}", `<code>${esc(command)}</code>`);
}

export function dialogHead(lang: Language, id: string, title: string): string {
  return `<header class="dialog-head"><h2 id="${id}-title">${title}</h2><button type="button" class="icon-btn" data-close aria-label="${t(lang, "close")}">${iconMarkup("close")}</button></header>`;
}

/** A labelled input (`attrs`: its own attributes) with its hint and its error line under it. */
export function inputField(lang: Language, id: string, label: MessageKey, hint: MessageKey, attrs: string): string {
  return `<div class="field">
<label for="${id}">${t(lang, label)}</label>
<input id="${id}" ${attrs} aria-describedby="${id}-hint ${id}-error">
<p class="hint" id="${id}-hint">${t(lang, hint)}</p>
<p class="field-error" id="${id}-error" hidden></p>
</div>`;
}

/** A checkbox with its label beside it, and a hint under both. */
export function checkField(lang: Language, id: string, label: MessageKey, hint: MessageKey): string {
  return `<div class="field">
<label class="check"><input type="checkbox" id="${id}" aria-describedby="${id}-hint ${id}-error"><span>${t(lang, label)}</span></label>
<p class="hint" id="${id}-hint">${t(lang, hint)}</p>
<p class="field-error" id="${id}-error" hidden></p>
</div>`;
}

/**
 * The link's behaviour, folded away so the simple case stays simple: redirect code, start, fallback,
 * where phones go (iosUrl/androidUrl: first OS rules, shown among the rules too), password, crawling, a split of its own destination, and the rules (dashboard/behaviour-fields.ts
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
<div class="field-row">
${inputField(lang, "lf-ios", "field_ios_url", "field_ios_url_hint", 'name="ios_url" type="url" inputmode="url" maxlength="2048" spellcheck="false" autocomplete="off" placeholder="https://"')}
${inputField(lang, "lf-android", "field_android_url", "field_android_url_hint", 'name="android_url" type="url" inputmode="url" maxlength="2048" spellcheck="false" autocomplete="off" placeholder="https://"')}
</div>
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

/**
 * The card chat apps and social sites show for the link (docs/sharing.md: Preview cards), folded away,
 * with a preview dashboard/card-preview.ts keeps up to date. The image is never loaded here (CSP
 * img-src 'self'): its address stands in its place.
 */
function cardSection(lang: Language): string {
  return `<details class="advanced" id="lf-card">
<summary><span class="advanced-title">${t(lang, "card_section")}</span><span class="advanced-what">${t(lang, "card_what")}</span></summary>
<div class="advanced-body card-editor">
${inputField(lang, "lf-card-title", "field_card_title", "field_card_title_hint", 'name="card_title" type="text" maxlength="200" autocomplete="off"')}
${inputField(lang, "lf-card-description", "field_card_description", "field_card_description_hint", 'name="card_description" type="text" maxlength="500" autocomplete="off"')}
${inputField(lang, "lf-card-image", "field_card_image", "field_card_image_hint", 'name="card_image" type="url" inputmode="url" maxlength="2048" spellcheck="false" autocomplete="off" placeholder="https://"')}
<section class="card-preview-box" aria-labelledby="lf-card-preview-title">
<h3 id="lf-card-preview-title">${t(lang, "card_preview")}</h3>
<p class="hint" id="lf-card-none">${t(lang, "card_preview_none")}</p>
<div class="card-preview" id="lf-card-preview" hidden>
<div class="card-preview-image" id="lf-card-image-box" hidden><span class="card-preview-image-note">${t(lang, "card_image_not_loaded")}</span><code id="lf-card-image-url"></code></div>
<div class="card-preview-text"><span class="card-preview-site" id="lf-card-site"></span><strong class="card-preview-title" id="lf-card-heading"></strong><span class="card-preview-description" id="lf-card-text"></span></div>
</div>
</section>
</div>
</details>`;
}

/** The create/edit dialog: one form, the alias only when creating (dashboard/link-form.ts). */
export function linkDialog(lang: Language): string {
  return `<dialog id="link-dialog" class="dialog" aria-labelledby="link-dialog-title">
<form id="link-form" class="dialog-body" novalidate>
${dialogHead(lang, "link-dialog", t(lang, "dialog_new_title"))}
<div class="field">
<label for="lf-url">${t(lang, "field_destination")}</label>
<input id="lf-url" name="url" type="url" inputmode="url" autofocus required maxlength="2048" spellcheck="false" autocomplete="off" placeholder="${t(lang, "field_url_placeholder")}" aria-describedby="lf-url-error">
<p class="field-error" id="lf-url-error" hidden></p>
</div>
<div class="field" id="lf-domain-field" hidden>
<label for="lf-domain">${t(lang, "field_domain")}</label>
<select id="lf-domain" name="domain" aria-describedby="lf-domain-error"></select>
<p class="field-error" id="lf-domain-error" hidden></p>
</div>
<div class="field" id="lf-alias-field">
<label for="lf-alias">${t(lang, "field_alias")}</label>
<div class="affix"><span class="affix-text" id="lf-alias-prefix" aria-hidden="true"></span><input id="lf-alias" name="custom_url" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="30" aria-describedby="lf-alias-hint lf-alias-error"></div>
<p class="hint" id="lf-alias-hint">${t(lang, "field_alias_hint")}</p>
<p class="field-error" id="lf-alias-error" hidden></p>
</div>
${inputField(lang, "lf-title", "field_title", "field_title_hint", 'name="title" type="text" maxlength="500" autocomplete="off"')}
<div class="field-row">
${inputField(lang, "lf-expires", "field_expires", "field_expires_hint", 'name="expires_at" type="datetime-local"')}
${inputField(lang, "lf-max", "field_max_clicks", "field_max_clicks_hint", 'name="max_clicks" type="number" min="1" step="1" inputmode="numeric"')}
</div>
${inputField(lang, "lf-tags", "field_tags", "field_tags_hint", 'name="tags" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" list="tag-options"')}
${cardSection(lang)}
${behaviourSection(lang)}
<p class="form-error" id="lf-error" role="alert" hidden></p>
<footer class="dialog-actions"><button type="button" class="btn" data-close>${t(lang, "cancel")}</button><button type="submit" class="btn btn-primary" id="lf-submit">${t(lang, "create")}</button></footer>
</form>
</dialog>`;
}

/** A link's QR code as the server draws it, with its options and address (web/server/qr-panel.ts). */
export function qrDialog(lang: Language): string {
  return `<dialog id="qr-dialog" class="dialog dialog-narrow" aria-labelledby="qr-dialog-title">
<div class="dialog-body">
${dialogHead(lang, "qr-dialog", "")}
${qrPanel(lang, "qrd", `<span class="copy-value" id="qrd-short"></span>`)}
<footer class="dialog-actions"><button type="button" class="btn" data-close>${t(lang, "close")}</button></footer>
</div>
</dialog>`;
}

export function confirmDialog(lang: Language): string {
  return `<dialog id="confirm-dialog" class="dialog dialog-narrow" role="alertdialog" aria-labelledby="confirm-dialog-title" aria-describedby="confirm-text">
<div class="dialog-body">
${dialogHead(lang, "confirm-dialog", "")}
<p id="confirm-text"></p>
<ul id="confirm-ids" class="id-list" hidden></ul>
<footer class="dialog-actions"><button type="button" class="btn" data-close autofocus>${t(lang, "cancel")}</button><button type="button" class="btn btn-danger" id="confirm-ok"></button></footer>
</div>
</dialog>`;
}

export function importDialog(lang: Language): string {
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
export function migrateDialog(lang: Language): string {
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
export function webhooksDialog(lang: Language): string {
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
export function webhookLogDialog(lang: Language): string {
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
