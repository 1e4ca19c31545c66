// Stats page: loads /api/stats for the link in data-id with the chosen period and bot filter,
// fills the cards, chart and tables, and polls every 10 s while the tab is visible. The live view
// (stats-live.ts) adds each new visit to the totals and the recent visits in between. A link
// without a single visit shows one empty state instead (stats-empty.ts).
import { bindRangeControls } from "./range-controls.ts";
import { renderBars, renderUtm, type Kind } from "./breakdowns.ts";
import { sumUnique, uniqueText, VisitsChart } from "./chart.ts";
import { bindCopyButton, byId, formatNumber, lang, t } from "./common.ts";
import type { ApiErrorBody, DateCount as DayCount, HourCount, LinkStats as Stats, NameCount, RecentVisit as Visit, StatsAnswer } from "../../src/api/types.ts";
import { displayUrl } from "./display-url.ts";
import { iconElement } from "./icons.ts";
import { RecentVisits } from "./recent-visits.ts";
import { EmptyState } from "./stats-empty.ts";
import { showHeading } from "./stats-heading.ts";
import { watchLive } from "./stats-live.ts";
import { offerVisitExport } from "./visit-export.ts";
import { showPrevious } from "./previous.ts";

type StatsResponse = { success: true; data: StatsAnswer } | ApiErrorBody;

const POLL_MS = 10_000;
const id = document.body.dataset.id ?? "";
const chart = new VisitsChart(byId("chart"), byId("chart-readout"));
const recent = new RecentVisits();
const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 });
const createdFormat = new Intl.DateTimeFormat(lang, { dateStyle: "long", timeStyle: "short" });
const clockFormat = new Intl.DateTimeFormat(lang, { timeStyle: "medium" });
const fromInput = byId<HTMLInputElement>("range-from");
const toInput = byId<HTMLInputElement>("range-to");
const excludeBots = byId<HTMLInputElement>("exclude-bots");
const errorBox = byId("stats-error");
/** The link's domain when the page was opened with ?domain= (a link of another domain than this one). */
const domain = new URLSearchParams(location.search).get("domain") ?? "";
/** A share link's page reads through its token, not by id; it has no live view (docs/statistics.md: Sharing statistics). */
const sharedSource = document.querySelector<HTMLMetaElement>('meta[name="stats-source"]')?.content ?? null;
// The server writes the short URL on the link's domain; without one known, this page's origin.
const shortUrl = byId("short-url").textContent || `${location.origin}/${encodeURIComponent(id)}`;

byId("short-url").textContent = shortUrl;
bindCopyButton(byId<HTMLButtonElement>("copy-short"), () => shortUrl);
const emptyState = new EmptyState(shortUrl, id, domain);
/** A visit came while the page was open: the link has visits, whatever a read a moment ago said. */
let visited = false;

/** YYYY-MM-DD of a UTC day `daysAgo` days before today. */
function utcDay(daysAgo: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - daysAgo);
  return d.toISOString().slice(0, 10);
}

let custom = { from: utcDay(29), to: utcDay(0) };
fromInput.value = custom.from;
toInput.value = custom.to;

function selectedRange(): string {
  return document.querySelector<HTMLInputElement>('input[name="range"]:checked')?.value ?? "30d";
}

/** The last 24 hours: the API gives the last 48 of yesterday and today (UTC), hour by hour. */
const HOURS_SHOWN = 24;

/** The chosen period as UTC days; null for "all" (the API then covers the link's whole life). */
function period(): { from: string; to: string } | null {
  const range = selectedRange();
  if (range === "24h") return { from: utcDay(1), to: utcDay(0) };
  const days = { "7d": 7, "30d": 30, "90d": 90 }[range];
  if (days) return { from: utcDay(days - 1), to: utcDay(0) };
  return range === "custom" ? custom : null;
}

function query(bots = excludeBots.checked ? "exclude" : "include"): URLSearchParams {
  const params = new URLSearchParams(sharedSource === null ? { id } : {});
  if (domain !== "") params.set("domain", domain);
  const p = period();
  if (p) {
    params.set("from", p.from);
    params.set("to", p.to);
  }
  if (bots === "exclude") params.set("bots", "exclude");
  return params;
}

/**
 * The chart's days: the chosen period, or for "all" the API's days, from the link's creation (a
 * young link opens on "all": its own days, not a month of empty ones before it existed).
 */
function chartSpan(days: readonly DayCount[]): { from: string; to: string } {
  const p = period();
  if (p) return p;
  return { from: days[0]?.date ?? utcDay(0), to: days[days.length - 1]?.date ?? utcDay(0) };
}

/**
 * The totals the cards show: the period's, or in the 24-hour view the sum of its hours. `unique`
 * null: not known (every click imported); `partial`: imported clicks are not in it.
 */
type Totals = { total: number; unique: number | null; partial: boolean; human: number };

/** The API's recent visits (RECENT_VISITS in src/stats/link-stats.ts): the list keeps this length. */
const RECENT_KEPT = 50;

/** What the cards and the recent visits show now, for the live view to add to. */
let shown: { totals: Totals; visits: Visit[] } | null = null;

function showTotals(totals: Totals): void {
  byId("kpi-total").textContent = formatNumber(totals.total);
  byId("kpi-unique").textContent = uniqueText(totals.unique);
  // Imported clicks carry no visitor (docs/importing.md): the card says what its figure leaves out.
  const note = byId("kpi-unique-note");
  note.hidden = totals.unique !== null && !totals.partial;
  note.textContent = t(totals.unique === null ? "kpi_unique_unknown" : "kpi_unique_partial");
  byId("kpi-human").textContent = formatNumber(totals.human);
  byId("kpi-bots").textContent = percent.format(totals.total === 0 ? 0 : (totals.total - totals.human) / totals.total);
}

/** The live view heard of a visit; true when the page shows the empty state, which a read now replaces by the figures. */
function leftEmpty(): boolean {
  visited = true;
  if (byId("stats-empty").hidden) return false;
  void refresh();
  return true;
}

/** A visit the live view reports: counted and listed as the next reload would, if the view shows now. */
function addVisit(visit: Visit): void {
  if (leftEmpty()) return;
  const p = period();
  if (!shown || (p !== null && p.to < utcDay(0)) || (visit.isBot && excludeBots.checked)) return;
  const was = shown.totals;
  // Unique visitors stay: whether this visitor came before today is the server's to say.
  shown.totals = { ...was, total: was.total + 1, human: was.human + (visit.isBot ? 0 : 1) };
  shown.visits = [visit, ...shown.visits].slice(0, RECENT_KEPT);
  showTotals(shown.totals);
  recent.show(shown.visits);
}

/** Clicks the live view counted without listing them (a link clicked faster than it lists). */
function addCounts(clicks: number, humans: number): void {
  if (leftEmpty()) return;
  const p = period();
  if (!shown || (p !== null && p.to < utcDay(0))) return;
  const was = shown.totals;
  const counted = excludeBots.checked ? humans : clicks;
  shown.totals = { ...was, total: was.total + counted, human: was.human + humans };
  showTotals(shown.totals);
}

/** The destination; a password-protected link's is not sent to who may not see it: a notice stands in (docs/security.md: Security). */
function showDestination(link: StatsAnswer["link"]): void {
  const dd = byId("original-url");
  if (link.passwordProtected && link.originalUrl === "") {
    const note = document.createElement("span");
    note.className = "protected-note";
    const text = document.createElement("span");
    text.textContent = t("stats_protected");
    note.append(iconElement("lock"), text);
    dd.replaceChildren(note);
  } else dd.textContent = displayUrl(link.originalUrl);
}

function render(link: StatsAnswer["link"], s: Stats, hourly: { all: HourCount[]; humans: HourCount[] } | null): void {
  showHeading(link.title);
  showDestination(link);
  const created = byId("created-at");
  created.textContent = createdFormat.format(new Date(link.createdAt));
  created.title = link.createdAt;
  // Visitors sent to the fallback and previews are not clicks, but they are visits: such a link is not empty.
  const fellBack = [...s.fallbackStats, ...s.previewStats].some((f) => f.count > 0);
  emptyState.show(link, link.totalClicks === 0 && s.totalClicks === 0 && !fellBack && !visited);
  let totals: Totals = { total: s.totalClicks, unique: s.uniqueVisitors, partial: s.uniqueVisitorsPartial, human: s.humanClicks };
  if (hourly) {
    const count = (rows: HourCount[]) => rows.reduce((a, r) => a + r.count, 0);
    const unique = sumUnique(hourly.all);
    const partial = unique !== null && hourly.all.some((h) => h.count > 0 && h.unique === null);
    totals = { total: count(hourly.all), unique, partial: partial || s.uniqueVisitorsPartial, human: count(hourly.humans) };
    chart.showHours(hourly.all);
  } else {
    const span = chartSpan(s.visitsByDate);
    chart.showDays(s.visitsByDate, span.from, span.to);
  }
  byId("chart-title").textContent = t(hourly ? "chart_title_hours" : "chart_title");
  byId("range-note").hidden = !hourly;
  shown = { totals, visits: s.recentVisits };
  showTotals(totals);
  showPrevious(hourly ? null : s);
  const lists: [Kind, NameCount[]][] = [
    ["browser", s.browserStats],
    ["os", s.osStats],
    ["device", s.deviceStats],
    ["country", s.countryStats],
    ["referrer", s.referrerStats],
  ];
  // Rules, split, fallback and previews exist only for links that have them: their cards show only then.
  const routed: [Kind, NameCount[]][] = [
    ["rule", s.ruleStats],
    ["variant", s.variantStats],
    ["fallback", s.fallbackStats],
    ["preview", s.previewStats],
  ];
  for (const [kind, rows] of routed) byId(`bd-${kind}-card`).hidden = rows.length === 0;
  // Shares are of the period's clicks (those the lists cover); a fallback's visitors and previews are not clicks.
  for (const [kind, rows] of [...lists, ...routed]) renderBars(byId(`bd-${kind}`), byId(`bd-${kind}-empty`), kind, rows, kind === "fallback" || kind === "preview" ? null : s.totalClicks);
  renderUtm(byId("utm-table").querySelector("tbody")!, byId("utm-empty"), s.utmStats, s.totalClicks);
  const shareNote = byId("share-note");
  shareNote.hidden = s.totalClicks === 0;
  shareNote.textContent = t("breakdown_share_note", { count: formatNumber(s.totalClicks) });
  recent.show(s.recentVisits);
}

let controller: AbortController | null = null;

async function load(params: URLSearchParams, signal: AbortSignal): Promise<StatsResponse> {
  const res = await fetch(`${sharedSource ?? "/api/stats"}?${params}`, { signal, headers: { Accept: "application/json" } });
  return (await res.json()) as StatsResponse;
}

/** Fetches and renders; a newer call aborts an older one still in flight. */
async function refresh(): Promise<void> {
  controller?.abort();
  const mine = (controller = new AbortController());
  const hours = selectedRange() === "24h";
  try {
    // The 24-hour view counts human clicks from the hours too, which takes the bot-free hours
    // (unless bots are left out already, when every count is human).
    const [json, humans] = await Promise.all([
      load(query(), mine.signal),
      hours && !excludeBots.checked ? load(query("exclude"), mine.signal) : null,
    ]);
    if (!json.success) {
      errorBox.textContent = json.code === "not_found" ? t("err_not_found") : json.error || t("err_unknown");
      errorBox.hidden = false;
      return;
    }
    errorBox.hidden = true;
    const last = (rows: HourCount[]) => rows.slice(-HOURS_SHOWN);
    const all = last(json.data.stats.visitsByHour);
    const hourly = hours ? { all, humans: humans?.success ? last(humans.data.stats.visitsByHour) : all } : null;
    render(json.data.link, json.data.stats, hourly);
    byId("updated").textContent = t("updated_at", { time: clockFormat.format(new Date()) });
  } catch (err) {
    if ((err as Error).name === "AbortError") return;
    errorBox.textContent = t("err_network");
    errorBox.hidden = false;
  }
}

bindRangeControls({ selected: selectedRange, refresh: () => void refresh(), setCustom: (range) => (custom = range) });

// Poll while visible; catch up at once when the tab comes back.
setInterval(() => {
  if (!document.hidden) void refresh();
}, POLL_MS);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) void refresh();
});
void refresh();
// Back after a break in the stream: what came meanwhile is read again.
if (sharedSource === null) {
  watchLive(id, domain, { onVisit: addVisit, onMore: addCounts, onReconnected: () => void refresh() });
  // Export visits, for whoever may manage the link (docs/statistics.md: Exporting visits).
  void offerVisitExport(id, domain, () => query());
}
