// A tag's or a domain's statistics page (docs/statistics.md: Tags and domains), and the comparison
// (compare.ts): the page's data-id says which ("tag:<name>", "domain:<name>", "compare"). The tag
// and domain pages fill the stats page's skeleton from /api/stats/tag or /api/stats/domain, read
// with the reader's session; they poll as the stats page does, without a live view.
import { bindRangeControls } from "./range-controls.ts";
import { renderBars, renderUtm, type Kind } from "./breakdowns.ts";
import { sumUnique, uniqueText, VisitsChart } from "./chart.ts";
import { byId, formatNumber, lang, t } from "./common.ts";
import type { ApiErrorBody, HourCount, LinkStats, TagStatsAnswer, DomainStatsAnswer } from "../../src/api/types.ts";
import { RecentVisits } from "./recent-visits.ts";
import { showPrevious } from "./previous.ts";
import { startCompare } from "./compare.ts";

type Answer = { success: true; data: TagStatsAnswer | DomainStatsAnswer } | ApiErrorBody;

const POLL_MS = 30_000;
const HOURS_SHOWN = 24;
const view = document.body.dataset.id ?? "";
const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 });

function utcDay(daysAgo: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - daysAgo);
  return d.toISOString().slice(0, 10);
}

/** The cards (each beside the previous period), and the chart by day over `span` or by hour. */
function showFigures(chart: VisitsChart, s: LinkStats, hours: { all: HourCount[]; humans: HourCount[] } | null, span: { from: string; to: string } | null): void {
  const count = (rows: HourCount[]) => rows.reduce((a, r) => a + r.count, 0);
  const total = hours ? count(hours.all) : s.totalClicks;
  const human = hours ? count(hours.humans) : s.humanClicks;
  byId("kpi-total").textContent = formatNumber(total);
  byId("kpi-unique").textContent = uniqueText(hours ? sumUnique(hours.all) : s.uniqueVisitors);
  byId("kpi-human").textContent = formatNumber(human);
  byId("kpi-bots").textContent = percent.format(total === 0 ? 0 : (total - human) / total);
  showPrevious(hours ? null : s);
  if (hours) chart.showHours(hours.all);
  else {
    const p = span ?? { from: s.visitsByDate[0]?.date ?? utcDay(0), to: s.visitsByDate.at(-1)?.date ?? utcDay(0) };
    chart.showDays(s.visitsByDate, p.from, p.to);
  }
  byId("chart-title").textContent = t(hours ? "chart_title_hours" : "chart_title");
  byId("range-note").hidden = !hours;
}

/** The breakdowns, the campaigns and the recent visits, as the stats page shows them. */
function showBreakdowns(recent: RecentVisits, s: LinkStats): void {
  const lists: [Kind, LinkStats["browserStats"]][] = [
    ["browser", s.browserStats], ["os", s.osStats], ["device", s.deviceStats], ["country", s.countryStats], ["referrer", s.referrerStats],
    ["rule", s.ruleStats], ["variant", s.variantStats], ["fallback", s.fallbackStats], ["preview", s.previewStats],
  ];
  for (const [k, rows] of lists.slice(5)) byId(`bd-${k}-card`).hidden = rows.length === 0;
  for (const [k, rows] of lists) renderBars(byId(`bd-${k}`), byId(`bd-${k}-empty`), k, rows, k === "fallback" || k === "preview" ? null : s.totalClicks);
  renderUtm(byId("utm-table").querySelector("tbody")!, byId("utm-empty"), s.utmStats, s.totalClicks);
  recent.show(s.recentVisits);
}

function startAggregate(kind: "tag" | "domain", name: string): void {
  const chart = new VisitsChart(byId("chart"), byId("chart-readout"));
  const recent = new RecentVisits();
  const excludeBots = byId<HTMLInputElement>("exclude-bots");
  const [fromInput, toInput] = [byId<HTMLInputElement>("range-from"), byId<HTMLInputElement>("range-to")];
  const errorBox = byId("stats-error");
  let custom = { from: utcDay(29), to: utcDay(0) };
  [fromInput.value, toInput.value] = [custom.from, custom.to];
  const selected = () => document.querySelector<HTMLInputElement>('input[name="range"]:checked')?.value ?? "30d";
  const period = (): { from: string; to: string } | null => {
    const range = selected();
    if (range === "24h") return { from: utcDay(1), to: utcDay(0) };
    const days = { "7d": 7, "30d": 30, "90d": 90 }[range];
    return days ? { from: utcDay(days - 1), to: utcDay(0) } : range === "custom" ? custom : null;
  };
  const query = (bots: boolean) => {
    const params = new URLSearchParams({ [kind]: name });
    const p = period();
    if (p) {
      params.set("from", p.from);
      params.set("to", p.to);
    }
    if (bots) params.set("bots", "exclude");
    return params;
  };
  const load = async (bots: boolean): Promise<Answer> => (await fetch(`/api/stats/${kind}?${query(bots)}`, { headers: { Accept: "application/json" } })).json() as Promise<Answer>;

  async function refresh(): Promise<void> {
    const hourly = selected() === "24h";
    try {
      const [json, humans] = await Promise.all([load(excludeBots.checked), hourly && !excludeBots.checked ? load(true) : null]);
      if (!json.success) {
        errorBox.textContent = json.code === "auth_required" ? t("aggregate.sign_in") : json.error || t("err_unknown");
        errorBox.hidden = false;
        byId("stats-full").hidden = true;
        return;
      }
      errorBox.hidden = true;
      byId("stats-full").hidden = false;
      byId("aggregate-links").textContent = t("aggregate.links", { count: formatNumber(json.data.links) });
      const last = (rows: HourCount[]) => rows.slice(-HOURS_SHOWN);
      const all = last(json.data.stats.visitsByHour);
      showFigures(chart, json.data.stats, hourly ? { all, humans: humans?.success ? last(humans.data.stats.visitsByHour) : all } : null, period());
      showBreakdowns(recent, json.data.stats);
      byId("updated").textContent = t("updated_at", { time: new Date().toLocaleTimeString(lang) });
    } catch {
      errorBox.textContent = t("err_network");
      errorBox.hidden = false;
    }
  }

  bindRangeControls({ selected, refresh: () => void refresh(), setCustom: (range) => (custom = range) });
  setInterval(() => {
    if (!document.hidden) void refresh();
  }, POLL_MS);
  void refresh();
}

if (view === "compare") startCompare();
else {
  const at = view.indexOf(":");
  startAggregate(view.slice(0, at) === "domain" ? "domain" : "tag", view.slice(at + 1));
}
