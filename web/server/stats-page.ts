// The stats page's server-rendered skeleton; web/client/stats.ts fetches /api/stats and fills it.
// Text comes from the translation files; no inline script or style (the CSP forbids both).
import type { Language } from "../../src/lang.ts";
import { MESSAGES, format, type MessageKey } from "../i18n/index.ts";
import { iconMarkup } from "../client/icons.ts";
import { esc } from "./html.ts";
import { qrPanel } from "./qr-panel.ts";
import { visitExportMenu } from "./visit-export-menu.ts";
import { layout, liveMark, t, type PageAssets } from "./pages.ts";

/** The default range, 30 days, unless the link is younger: then its whole life (docs/web-ui.md: Web UI). */
export const DEFAULT_RANGE_DAYS = 30;

export type StatsPageOptions = {
  /** a link with a password, for someone who may not see where it leads (docs/security.md: Security) */
  destinationHidden: boolean;
  /** ms since the epoch: a link younger than DEFAULT_RANGE_DAYS opens on "all", its days since creation */
  createdAt: number;
  /** the link's short URL on its domain (null: the page's own origin, as the client knows it) */
  shortUrl: string | null;
  /** the ?domain= the page was asked with: kept by its API calls and its language links */
  domain: string | null;
  /** --stats-access public: the page says that anyone with the short link can read it */
  statsPublic: boolean;
  now: number;
  /** a share link's page (docs/statistics.md: Sharing statistics): its data come with the token, and it says it is shared */
  sharedToken?: string;
};

/** A breakdown's card; `routed`: one only a link with rules, a split or a fallback has, hidden until it has data. */
function breakdownCard(lang: Language, key: string, title: MessageKey, routed?: { note?: MessageKey }): string {
  const note = routed?.note ? `\n<p class="hint card-note">${t(lang, routed.note)}</p>` : "";
  return `<section class="card breakdown" id="bd-${key}-card" aria-labelledby="bd-${key}-title"${routed ? " hidden" : ""}>
<h2 id="bd-${key}-title">${t(lang, title)}</h2>${note}
<ol class="bars" id="bd-${key}"></ol>
<p class="empty" id="bd-${key}-empty" hidden>${t(lang, "no_data")}</p>
</section>`;
}

/** What stands in for a password-protected link's destination (stats.ts shows the same). */
function protectedNote(lang: Language): string {
  return `<span class="protected-note">${iconMarkup("lock")}<span>${t(lang, "stats_protected")}</span></span>`;
}

/** The UTC days from `then` to `now` (0: the same day). */
function daysSince(then: number, now: number): number {
  return Math.floor(now / 86_400_000) - Math.floor(then / 86_400_000);
}

/** The range, the bots switch and the update time (the tag and domain pages share it: aggregate-page.ts). */
export function toolbar(lang: Language, young: boolean): string {
  const initial = young ? "all" : "30d";
  const ranges = (["24h", "7d", "30d", "90d", "all", "custom"] as const)
    .map((r) => `<label class="seg"><input type="radio" name="range" value="${r}"${r === initial ? " checked" : ""}><span>${t(lang, `range_${r}`)}</span></label>`)
    .join("");
  return `<section class="toolbar" id="stats-toolbar" aria-label="${t(lang, "range_label")}">
<fieldset class="segmented"><legend class="sr-only">${t(lang, "range_label")}</legend>${ranges}</fieldset>
<form class="custom-range" id="custom-range" hidden>
<label>${t(lang, "range_from")} <input type="date" id="range-from" required></label>
<label>${t(lang, "range_to")} <input type="date" id="range-to" required></label>
<button type="submit" class="btn btn-small">${t(lang, "range_apply")}</button>
</form>
<label class="switch"><input type="checkbox" id="exclude-bots" role="switch"><span class="switch-track" aria-hidden="true"></span><span>${t(lang, "exclude_bots")}</span></label>
${visitExportMenu(lang, "link")}
${liveMark(lang, "live", "")}
<p class="updated" id="updated" aria-live="polite">${t(lang, "loading")}</p>
<p class="range-note" id="range-note" hidden>${t(lang, "range_24h_note")}</p>
</section>`;
}

/**
 * One empty state for a link without a single visit: its short URL, its QR code, and whether it
 * redirects now. A share's page has no QR code (the code follows the statistics' access, not the
 * token), so its lead does not offer one and speaks to a reader, not to the link's owner.
 */
function emptyState(lang: Language, shared: boolean): string {
  return `<section class="card empty-state" id="stats-empty" hidden aria-labelledby="empty-title">
<div class="empty-state-text">
<h2 id="empty-title">${t(lang, "empty_title")}</h2>
<p class="empty-status"><span class="badge" id="empty-status"></span></p>
<p class="empty-lead" id="empty-lead-active" hidden>${t(lang, shared ? "share.empty_lead" : "empty_lead_active")}</p>
<p class="empty-lead" id="empty-lead-inactive" hidden>${t(lang, "empty_lead_inactive")}</p>
<dl class="copy-list"><div class="copy-item"><dt id="empty-short-label">${t(lang, "stats_short")}</dt><dd><span id="empty-short-url" class="copy-value"></span><button type="button" class="btn btn-small" id="empty-copy" aria-describedby="empty-short-label">${t(lang, "copy")}</button></dd></div></dl>
</div>
${shared ? "" : qrPanel(lang, "empty-qr", `<span class="qr-title">${t(lang, "qr_title")}</span>`)}
</section>`;
}

/** The headline figures, each beside the previous period (docs/statistics.md: The previous period), the chart, the breakdowns and the recent visits. */
export function figures(lang: Language): string {
  const th = (k: MessageKey, cls = "") => `<th scope="col"${cls ? ` class="${cls}"` : ""}>${t(lang, k)}</th>`;
  return `<section class="kpis kpis-stats">
<div class="card kpi"><h2>${t(lang, "kpi_total")}</h2><p class="kpi-value" id="kpi-total">–</p><p class="kpi-prev" id="kpi-total-prev" hidden></p></div>
<div class="card kpi"><h2>${t(lang, "kpi_unique")}</h2><p class="kpi-value" id="kpi-unique">–</p><p class="kpi-note" id="kpi-unique-note" hidden></p><p class="kpi-prev" id="kpi-unique-prev" hidden></p></div>
<div class="card kpi"><h2>${t(lang, "kpi_human")}</h2><p class="kpi-value" id="kpi-human">–</p><p class="kpi-prev" id="kpi-human-prev" hidden></p></div>
<div class="card kpi"><h2>${t(lang, "kpi_bots")}</h2><p class="kpi-value" id="kpi-bots">–</p><p class="kpi-prev" id="kpi-bots-prev" hidden></p></div>
</section>
<section class="card chart-card" aria-labelledby="chart-title">
<h2 id="chart-title">${t(lang, "chart_title")}</h2>
<div id="chart" class="chart" tabindex="0" role="application" aria-label="${t(lang, "chart_title")}" aria-describedby="chart-keys"></div>
<p class="sr-only" id="chart-keys">${t(lang, "chart_keys")}</p>
<p class="sr-only" id="chart-readout" aria-live="polite"></p>
</section>
<p class="hint share-note" id="share-note" hidden></p>
<div class="breakdowns">
${breakdownCard(lang, "rule", "breakdown_rule", {})}
${breakdownCard(lang, "variant", "breakdown_variant", {})}
${breakdownCard(lang, "fallback", "breakdown_fallback", { note: "breakdown_fallback_note" })}
${breakdownCard(lang, "preview", "breakdown_preview", { note: "breakdown_preview_note" })}
${breakdownCard(lang, "browser", "breakdown_browser")}
${breakdownCard(lang, "os", "breakdown_os")}
${breakdownCard(lang, "device", "breakdown_device")}
${breakdownCard(lang, "country", "breakdown_country")}
${breakdownCard(lang, "referrer", "breakdown_referrer")}
<section class="card breakdown" aria-labelledby="utm-title">
<h2 id="utm-title">${t(lang, "breakdown_utm")}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="utm-title"><table class="table" id="utm-table"><thead><tr>${th("col_source")}${th("col_medium")}${th("col_campaign")}${th("col_clicks", "num")}</tr></thead><tbody></tbody></table></div>
<p class="empty" id="utm-empty" hidden>${t(lang, "no_data")}</p>
</section>
</div>
<section class="card" aria-labelledby="recent-title">
<h2 id="recent-title">${t(lang, "recent_title")}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="recent-title"><table class="table visits" id="recent-table"><thead><tr>${th("col_time")}${th("col_browser")}${th("col_os")}${th("col_device")}${th("col_country")}${th("col_referrer")}${th("col_type")}<th scope="col" id="col-rule" hidden>${t(lang, "col_rule")}</th><th scope="col" id="col-variant" hidden>${t(lang, "col_variant")}</th></tr></thead><tbody></tbody></table></div>
<p class="empty" id="recent-empty" hidden>${t(lang, "no_data")}</p>
<p class="recent-more"><button type="button" class="btn btn-small" id="recent-more" hidden></button></p>
</section>`;
}

/** The stats page skeleton for an existing link; stats.ts fetches /api/stats and fills it. */
export function renderStats(lang: Language, id: string, assets: PageAssets, o: StatsPageOptions): string {
  const young = daysSince(o.createdAt, o.now) < DEFAULT_RANGE_DAYS;
  const publicNote = o.sharedToken !== undefined
    ? `\n<p class="public-note" id="stats-shared">${iconMarkup("eye")}<span>${t(lang, "share.page_note")}</span></p>`
    : o.statsPublic ? `\n<p class="public-note" id="stats-public">${iconMarkup("eye")}<span>${t(lang, "stats_public_note")}</span></p>` : "";
  const body = `<section class="link-head">
<h1 id="stats-heading">${t(lang, "stats_title", { id })}</h1>
<p class="link-for" id="stats-for" hidden></p>${publicNote}
<dl class="link-meta">
<div class="meta-item meta-wide"><dt>${t(lang, "stats_original")}</dt><dd id="original-url" class="break">${o.destinationHidden ? protectedNote(lang) : "…"}</dd></div>
<div class="meta-item" id="short-url-item"><dt>${t(lang, "stats_short")}</dt><dd class="copy-inline"><span id="short-url" class="break">${o.shortUrl === null ? "" : esc(o.shortUrl)}</span><button type="button" class="btn btn-small" id="copy-short">${t(lang, "copy")}</button></dd></div>
<div class="meta-item"><dt>${t(lang, "stats_created")}</dt><dd id="created-at">…</dd></div>
<div class="meta-item"><dt>${t(lang, "status_label")}</dt><dd><span class="badge" id="link-status">…</span></dd></div>
</dl>
</section>
<p class="form-error" id="stats-error" role="alert" hidden></p>
${emptyState(lang, o.sharedToken !== undefined)}
<div id="stats-full">
${toolbar(lang, young)}
${figures(lang)}
</div>
<noscript><p class="form-error">${t(lang, "noscript")}</p></noscript>`;
  return layout({
    lang,
    title: format(MESSAGES[lang].stats_title, { id }),
    page: "stats",
    id,
    body,
    assets,
    pathFor: (l) => (o.sharedToken !== undefined ? `/${l}/stats/shared/${encodeURIComponent(o.sharedToken)}` : `/${l}/stats/${encodeURIComponent(id)}${o.domain === null ? "" : `?${new URLSearchParams({ domain: o.domain })}`}`),
    // Where the flags are (one SVG per country, loaded as the page shows it): no request leaves this host.
    // A share's page reads its figures through the token (web/client/stats.ts), with no live view.
    head: `<meta name="flags" content="${esc(assets.flags)}">${o.sharedToken === undefined ? "" : `\n<meta name="stats-source" content="/api/stats/shared/${esc(encodeURIComponent(o.sharedToken))}">`}`,
  });
}
