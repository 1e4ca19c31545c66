// Visits-by-date bar chart drawn by uPlot, in the page locale, colored from the CSS theme and
// rebuilt when the color scheme changes; resizes with its card.
import uPlot from "uplot";
import { formatNumber, lang, t } from "./common.ts";

export type DayCount = { date: string; count: number };

const dayFormat = new Intl.DateTimeFormat(lang, { month: "short", day: "numeric", timeZone: "UTC" });
const fullDayFormat = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" });
const HEIGHT = 240;

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** What the readout shows while no day is hovered: the whole range and its total. */
type Idle = { range: string; total: string };

function options(width: number, idle: () => Idle): uPlot.Options {
  const accent = cssVar("--accent");
  const muted = cssVar("--muted");
  const border = cssVar("--border");
  const font = `12px ${cssVar("--font") || "sans-serif"}`;
  return {
    width,
    height: HEIGHT,
    // Dates are UTC days; show them as such whatever the reader's time zone.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), "Etc/UTC"),
    // Half a day of padding each side, so the first and last bars are whole.
    scales: { x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
    legend: { show: true, live: true },
    cursor: { y: false, points: { show: false }, drag: { x: false, y: false } },
    series: [
      // Nothing hovered: the range and its total, never a dash that reads like missing data.
      { label: t("chart_date"), value: (_u, v) => (v == null ? idle().range : fullDayFormat.format(new Date(v * 1e3))) },
      {
        label: t("chart_clicks"),
        stroke: accent,
        fill: accent + "cc",
        width: 0,
        points: { show: false },
        paths: uPlot.paths.bars!({ size: [0.72, 28], gap: 1 }),
        value: (_u, v) => (v == null ? idle().total : formatNumber(v)),
      },
    ],
    axes: [
      {
        stroke: muted,
        font,
        space: 64,
        grid: { show: false },
        ticks: { stroke: border, size: 4 },
        values: (_u, splits) => splits.map((s) => dayFormat.format(new Date(s * 1e3))),
      },
      {
        stroke: muted,
        font,
        size: 48,
        incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 1e6],
        grid: { stroke: border, width: 1 },
        ticks: { show: false },
        values: (_u, splits) => splits.map((s) => formatNumber(s)),
      },
    ],
  };
}

const DAY_MS = 86_400_000;

/** Every day from..to with its count (the API starts at the link's creation; a range may start earlier). */
export function fillDays(days: readonly DayCount[], from: string, to: string): DayCount[] {
  const counts = new Map(days.map((d) => [d.date, d.count]));
  const out: DayCount[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end && out.length < 3700; t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    out.push({ date, count: counts.get(date) ?? 0 });
  }
  return out;
}

/** A chart bound to a container element; update() replaces its data. */
export class VisitsChart {
  private plot: uPlot | null = null;
  private data: uPlot.AlignedData = [[], []];
  private idle: Idle = { range: "", total: "" };

  constructor(private readonly container: HTMLElement) {
    new ResizeObserver(() => this.plot?.setSize({ width: this.width(), height: HEIGHT })).observe(container);
    matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => this.rebuild());
  }

  private width(): number {
    return Math.max(200, this.container.clientWidth);
  }

  private rebuild(): void {
    this.plot?.destroy();
    this.plot = new uPlot(options(this.width(), () => this.idle), this.data, this.container);
  }

  /** Shows the counts of every day from `from` to `to` (YYYY-MM-DD, UTC), zero where the API has none. */
  update(apiDays: readonly DayCount[], from: string, to: string): void {
    const days = fillDays(apiDays, from, to);
    const xs = days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1e3);
    const ys = days.map((d) => d.count);
    const total = ys.reduce((a, b) => a + b, 0);
    const range = xs.length > 0 ? fullDayFormat.formatRange(new Date(xs[0]! * 1e3), new Date(xs[xs.length - 1]! * 1e3)) : "";
    // Set before the data: uPlot redraws the readout from it when nothing is hovered.
    this.idle = { range, total: formatNumber(total) };
    this.data = [xs, ys];
    if (this.plot) this.plot.setData(this.data);
    else this.rebuild();
    const span = range ? ` (${range})` : "";
    this.container.setAttribute("aria-label", `${t("chart_title")}: ${formatNumber(total)} ${t("chart_clicks")}${span}`);
  }
}
