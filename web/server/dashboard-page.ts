// The owner's dashboard, server-rendered: the sign-in card, then the overview, the list of links,
// a row's menu and the dialogs (dashboard-dialogs.ts), which web/client/dashboard.ts fills in.
import type { Language } from "../../src/lang.ts";
import { MESSAGES, type MessageKey } from "../i18n/index.ts";
import { iconMarkup } from "../client/icons.ts";
import { confirmDialog, importDialog, linkDialog, migrateDialog, qrDialog, webhookLogDialog, webhooksDialog, withCommand } from "./dashboard-dialogs.ts";
import { layout, liveMark, t, type PageAssets } from "./pages.ts";
import { domainsDialog } from "./domain-dialog.ts";
import { clientsDialog } from "./clients-dialog.ts";
import { orphansCard } from "./orphans-card.ts";
import { allVisitsItems } from "./visit-export-menu.ts";
import { shareDialog } from "./share-dialog.ts";

/** The owner's dashboard: the sign-in form, and the overview, list and dialogs dashboard.ts fills in. */
export function renderDashboard(lang: Language, assets: PageAssets): string {
  const body = `${signInSection(lang)}
<div id="dashboard" hidden>
${dashboardHead(lang)}
${overviewSection(lang)}
${linkList(lang)}
${rowMenu(lang)}
${linkDialog(lang)}
${qrDialog(lang)}
${shareDialog(lang)}
${confirmDialog(lang)}
${importDialog(lang)}
${migrateDialog(lang)}
${webhooksDialog(lang)}
${webhookLogDialog(lang)}
${domainsDialog(lang)}
${clientsDialog(lang)}
</div>
<div class="toast" id="toast" role="status"></div>
<noscript><p class="form-error">${t(lang, "noscript_dashboard")}</p></noscript>`;
  return layout({ lang, title: MESSAGES[lang].dashboard_title, page: "dashboard", body, assets, pathFor: (l) => `/${l}/links` });
}

/** The sign-in card: a key, or the provider's button when there is one. */
function signInSection(lang: Language): string {
  return `<section class="card signin" id="sign-in" hidden aria-labelledby="sign-in-title">
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
</section>`;
}

/** The title, who is signed in, the live counter and the actions. */
function dashboardHead(lang: Language): string {
  return `<section class="dash-head" aria-labelledby="dashboard-title">
<div class="dash-title">
<h1 id="dashboard-title" tabindex="-1">${t(lang, "dashboard_title")}</h1>
<p class="dash-who"><span id="signed-in-as"></span><button type="button" class="btn-link" id="sign-out">${iconMarkup("signout")}${t(lang, "signout")}</button></p>
${liveMark(lang, "live-counter", `<span class="live-count" id="live-count"></span>`)}
</div>
<div class="dash-actions">
<button type="button" class="btn" id="import-open">${iconMarkup("upload")}${t(lang, "import_open")}</button>
<button type="button" class="btn" id="migrate-open" hidden>${iconMarkup("upload")}${t(lang, "migrate_open")}</button>
<button type="button" class="btn" id="webhooks-open" hidden>${iconMarkup("webhook")}${t(lang, "webhooks_open")}</button>
<button type="button" class="btn" id="domains-open" hidden>${iconMarkup("globe")}${t(lang, "domains_open")}</button>
<button type="button" class="btn" id="clients-open">${iconMarkup("key")}${t(lang, "clients_open")}</button>
<button type="button" class="btn" id="export-open" popovertarget="export-menu" aria-haspopup="menu">${iconMarkup("download")}${t(lang, "export_open")}</button>
<button type="button" class="btn btn-primary" id="new-link">${iconMarkup("plus")}${t(lang, "new_link")}</button>
</div>
<div id="export-menu" class="menu" popover role="menu" aria-label="${t(lang, "export_open")}">
<a role="menuitem" href="/api/links/export?format=csv" download>${t(lang, "export_csv_all")}</a>
<a role="menuitem" href="/api/links/export?format=json" download>${t(lang, "export_json_all")}</a>
${allVisitsItems(lang)}
</div>
</section>`;
}

/** The overview's figures and the top links. */
function overviewSection(lang: Language): string {
  const kpi = (id: string, key: MessageKey, extra = "") => `<div class="card kpi"><h3>${t(lang, key)}</h3><p class="kpi-value" id="${id}">–</p>${extra}</div>`;
  return `<section class="overview" aria-labelledby="overview-title">
<h2 id="overview-title" class="sr-only">${t(lang, "overview_title")}</h2>
<div class="filter overview-domain" id="ov-domain-field" hidden><label for="ov-domain">${t(lang, "overview_domain")}</label><select id="ov-domain" name="domain"></select></div>
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
${orphansCard(lang)}
</section>`;
}

/** The list of links: filters, bulk actions, the table and the pager. */
function linkList(lang: Language): string {
  const option = (value: string, key: MessageKey) => `<option value="${value}">${t(lang, key)}</option>`;
  const th = (key: MessageKey, cls: string, sort = "") => `<th scope="col" class="${cls}"${sort ? ` data-sort="${sort}"` : ""}>${t(lang, key)}</th>`;
  return `<section class="card list-card" aria-labelledby="list-title">
<div class="list-head">
<h2 id="list-title" tabindex="-1">${t(lang, "list_title")}</h2>
<p class="list-status" id="list-status" aria-live="polite"></p>
</div>
<form class="filters" id="filters" role="search" aria-label="${t(lang, "filters_label")}">
<div class="filter filter-search"><label for="f-q">${t(lang, "search_label")}</label><span class="search-box">${iconMarkup("search")}<input id="f-q" name="q" type="search" autocomplete="off" spellcheck="false" placeholder="${t(lang, "search_placeholder")}"></span></div>
<div class="filter"><label for="f-tag">${t(lang, "tag_label")}</label><input id="f-tag" name="tag" type="text" list="tag-options" autocomplete="off" autocapitalize="none" spellcheck="false" placeholder="${t(lang, "tag_placeholder")}"></div>
<div class="filter" id="f-owner-field" hidden><label for="f-owner">${t(lang, "filter_owner")}</label><input id="f-owner" name="owner" type="text" list="owner-options" autocomplete="off" autocapitalize="none" spellcheck="false" placeholder="${t(lang, "filter_owner_all")}"></div>
<div class="filter" id="f-domain-field" hidden><label for="f-domain">${t(lang, "domain_label")}</label><select id="f-domain" name="domain"></select></div>
<div class="filter"><label for="f-status">${t(lang, "status_label")}</label><select id="f-status" name="status">${option("", "status_all")}${option("active", "status_active")}${option("disabled", "status_disabled")}${option("expired", "status_expired")}${option("blocked", "status_blocked")}</select></div>
<div class="filter filter-sort"><label for="f-sort">${t(lang, "sort_label")}</label><select id="f-sort" name="sort">${option("createdAt:desc", "sort_created_desc")}${option("createdAt:asc", "sort_created_asc")}${option("totalClicks:desc", "sort_clicks_desc")}${option("totalClicks:asc", "sort_clicks_asc")}${option("lastClickAt:desc", "sort_last_desc")}</select></div>
<button type="button" class="btn btn-small btn-quiet" id="f-clear" hidden>${t(lang, "clear_filters")}</button>
<a class="btn btn-small btn-quiet" id="f-tag-stats" hidden></a>
<a class="btn btn-small btn-quiet" id="compare-link" href="/${lang}/compare">${t(lang, "aggregate.compare_title")}</a>
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
${th("col_link", "col-link")}<th scope="col" class="col-domain" id="col-domain-head" hidden>${t(lang, "col_domain")}</th>${th("col_tags", "col-tags")}${th("col_created", "col-created", "createdAt")}${th("col_clicks", "col-clicks num", "totalClicks")}${th("col_daily", "col-daily")}${th("col_last_click", "col-last", "lastClickAt")}${th("col_status", "col-status")}
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
</section>`;
}

/** One row's menu of actions. */
function rowMenu(lang: Language): string {
  return `<div id="row-menu" class="menu" popover role="menu" aria-label="${t(lang, "col_actions")}">
<button type="button" role="menuitem" data-action="copy">${iconMarkup("copy")}${t(lang, "action_copy")}</button>
<button type="button" role="menuitem" data-action="qr">${iconMarkup("qr")}${t(lang, "action_qr")}</button>
<a role="menuitem" data-action="stats" href="/${lang}/links">${iconMarkup("chart")}${t(lang, "action_stats")}</a>
<button type="button" role="menuitem" data-action="share">${iconMarkup("eye")}${t(lang, "share.action")}</button>
<button type="button" role="menuitem" data-action="edit">${iconMarkup("edit")}${t(lang, "action_edit")}</button>
<button type="button" role="menuitem" data-action="disable">${iconMarkup("pause")}${t(lang, "action_disable")}</button>
<button type="button" role="menuitem" data-action="enable">${iconMarkup("play")}${t(lang, "action_enable")}</button>
<button type="button" role="menuitem" data-action="delete" class="menu-danger">${iconMarkup("trash")}${t(lang, "action_delete")}</button>
</div>`;
}
