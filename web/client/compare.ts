// The comparison (docs/statistics.md: Comparing): two to four links or tags, one line each on one
// chart by UTC day, in four colours that differ in lightness too and in dash, so that they read
// apart without colour; and a table of each one's figures beside its previous period.
import uPlot from "uplot";
import { byId, el, formatNumber, lang, t } from "./common.ts";
import { uniqueText } from "./chart.ts";
import { previousLines } from "./previous.ts";
import type { ApiErrorBody, CompareAnswer } from "../../src/api/types.ts";

type Answer = { success: true; data: CompareAnswer } | ApiErrorBody;
type Series = CompareAnswer["series"][number];

const DASHES = [[], [8, 4], [2, 4], [10, 4, 2, 4]];
const dayFormat = new Intl.DateTimeFormat(lang, { month: "short", day: "numeric", timeZone: "UTC" });
const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 });

function colour(i: number): string {
  return getComputedStyle(document.documentElement).getPropertyValue(`--compare-${i + 1}`).trim() || "#4f46e5";
}

/** A short stretch of series i's line, in its colour and dash: the legend's and the table's key to the chart. */
function sample(i: number): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "compare-swatch");
  svg.setAttribute("viewBox", "0 0 28 8");
  svg.setAttribute("aria-hidden", "true");
  const line = document.createElementNS(ns, "line");
  for (const [name, value] of [["x1", "1"], ["y1", "4"], ["x2", "27"], ["y2", "4"], ["stroke", colour(i)], ["stroke-width", "3"], ["stroke-dasharray", (DASHES[i] ?? []).join(" ")]]) line.setAttribute(name!, value!);
  svg.append(line);
  return svg;
}

function draw(container: HTMLElement, series: readonly Series[]): void {
  const days = series[0]?.visitsByDate ?? [];
  const data: uPlot.AlignedData = [days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000), ...series.map((s) => s.visitsByDate.map((d) => d.count))];
  const muted = getComputedStyle(document.documentElement).getPropertyValue("--muted").trim();
  container.replaceChildren();
  new uPlot({
    width: Math.max(280, container.clientWidth),
    height: 260,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), "Etc/UTC"),
    // The x range from the data itself, half a day each side: for a single day uPlot would widen a time scale by years.
    scales: { x: { time: true, range: (u, min, max) => [(u.data[0][0] ?? min) - 43_200, (u.data[0].at(-1) ?? max) + 43_200] }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
    legend: { show: true },
    series: [
      { label: t("chart_date"), value: (_u, v) => (v == null ? "" : dayFormat.format(new Date(v * 1e3))) },
      ...series.map((s, i) => ({ label: s.name, stroke: colour(i), width: 2, dash: DASHES[i], points: { show: days.length < 40 } })),
    ],
    // Ticks on whole days only: a tick between two days would name a day twice.
    axes: [{ stroke: muted, space: 64, incrs: [1, 2, 7, 14, 28, 91, 182, 364].map((d) => d * 86_400), values: (_u, splits) => splits.map((v) => dayFormat.format(new Date(v * 1e3))) }, { stroke: muted, size: 48 }],
  }, data, container);
  // uPlot's own markers are squares outlined in the stroke, which read alike at legend size: each
  // series' key is a stretch of its line instead (colour and dash), as in the table.
  container.querySelectorAll<HTMLElement>(".u-series").forEach((row, i) => {
    if (i > 0) row.querySelector(".u-marker")?.replaceWith(sample(i - 1));
  });
}

function table(body: HTMLElement, series: readonly Series[]): void {
  body.replaceChildren(...series.map((s, i) => {
    const tr = el("tr");
    const name = el("th");
    name.scope = "row";
    name.append(sample(i), document.createTextNode(s.name));
    const before = previousLines(s, s.previous);
    // The figure, then the previous period's line under it, as on the stats page's cards.
    const cell = (value: string, prev: string) => {
      const td = el("td", "num");
      td.append(el("span", "compare-figure", value), el("span", "kpi-prev", prev));
      return td;
    };
    tr.append(name, cell(formatNumber(s.totalClicks), before.total), cell(uniqueText(s.uniqueVisitors), before.unique), cell(formatNumber(s.humanClicks), before.human), cell(percent.format(s.botPercentage / 100), before.bots));
    return tr;
  }));
}

export function startCompare(): void {
  const form = byId<HTMLFormElement>("compare-form");
  const names = byId<HTMLInputElement>("compare-names");
  const bots = byId<HTMLInputElement>("exclude-bots");
  const errorBox = byId("stats-error");
  const card = byId("compare-card");
  const asked = new URLSearchParams(location.search);
  const kind = asked.has("tags") ? "tags" : "ids";
  document.querySelector<HTMLInputElement>(`input[name="kind"][value="${kind}"]`)!.checked = true;
  names.value = asked.get(kind) ?? "";
  bots.checked = asked.get("bots") === "exclude";

  async function show(): Promise<void> {
    const which = document.querySelector<HTMLInputElement>('input[name="kind"]:checked')?.value ?? "ids";
    const params = new URLSearchParams({ [which]: names.value.split(",").map((n) => n.trim()).filter(Boolean).join(",") });
    if (bots.checked) params.set("bots", "exclude");
    history.replaceState(null, "", `${location.pathname}?${params}`);
    try {
      const json = (await (await fetch(`/api/stats/compare?${params}`, { headers: { Accept: "application/json" } })).json()) as Answer;
      if (!json.success) {
        errorBox.textContent = json.code === "auth_required" ? t("aggregate.sign_in") : json.error || t("err_unknown");
        [errorBox.hidden, card.hidden] = [false, true];
        return;
      }
      [errorBox.hidden, card.hidden] = [true, false];
      draw(byId("compare-chart"), json.data.series);
      table(byId("compare-table").querySelector("tbody")!, json.data.series);
    } catch {
      errorBox.textContent = t("err_network");
      errorBox.hidden = false;
    }
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void show();
  });
  if (names.value !== "") void show();
}
