// The visits chart drawn by uPlot: clicks as bars and unique visitors as a line, by UTC day or, for
// the last 24 hours, by hour in the reader's own time zone; in the page locale, colored from the
// CSS theme and rebuilt when the color scheme changes; resizes with its card.
import uPlot from "uplot";
import { formatNumber, lang, t } from "./common.ts";

import type { DateCount as DayCount, HourCount } from "../../src/api/types.ts";
type Mode = "days" | "hours";

const dayFormat = new Intl.DateTimeFormat(lang, { month: "short", day: "numeric", timeZone: "UTC" });
const fullDayFormat = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" });
// Hours in the reader's time zone: "the last 24 hours" means their day, not UTC's.
const hourFormat = new Intl.DateTimeFormat(lang, { hour: "numeric", minute: "2-digit" });
const fullHourFormat = new Intl.DateTimeFormat(lang, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
const HEIGHT = 240;
const HALF = { days: 43_200, hours: 1_800 }; // half a bar each side, so the first and last are whole

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** What the readout shows while no bar is hovered: the whole range and its totals. */
type Idle = { range: string; total: string; unique: string };

function options(width: number, mode: Mode, idle: () => Idle): uPlot.Options {
  const accent = cssVar("--accent");
  const second = cssVar("--series-2") || accent;
  const muted = cssVar("--muted");
  const border = cssVar("--border");
  const font = `12px ${cssVar("--font") || "sans-serif"}`;
  const when = mode === "days" ? fullDayFormat : fullHourFormat;
  const tick = mode === "days" ? dayFormat : hourFormat;
  return {
    width,
    height: HEIGHT,
    // Days are UTC days, whatever the reader's time zone; hours are shown in the reader's own.
    ...(mode === "days" ? { tzDate: (ts: number) => uPlot.tzDate(new Date(ts * 1e3), "Etc/UTC") } : {}),
    scales: { x: { time: true, range: (_u, min, max) => [min - HALF[mode], max + HALF[mode]] }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
    legend: { show: true, live: true },
    cursor: { y: false, points: { show: false }, drag: { x: false, y: false } },
    series: [
      // Nothing hovered: the range and its totals, never a dash that reads like missing data.
      { label: t(mode === "days" ? "chart_date" : "chart_time"), value: (_u, v) => (v == null ? idle().range : when.format(new Date(v * 1e3))) },
      {
        label: t("chart_clicks"),
        stroke: accent,
        fill: accent + "cc",
        width: 0,
        points: { show: false },
        paths: uPlot.paths.bars!({ size: [0.72, 28], gap: 1 }),
        value: (_u, v) => (v == null ? idle().total : formatNumber(v)),
      },
      {
        label: t("chart_unique"),
        stroke: second,
        width: 2,
        points: { size: 5, fill: second }, // drawn where the points are far enough apart to read
        value: (_u, v) => (v == null ? idle().unique : formatNumber(v)),
      },
    ],
    axes: [
      {
        stroke: muted,
        font,
        space: 64,
        grid: { show: false },
        ticks: { stroke: border, size: 4 },
        values: (_u, splits) => splits.map((s) => tick.format(new Date(s * 1e3))),
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

/** Every day from..to with its counts (the API starts at the link's creation; a range may start earlier). */
export function fillDays(days: readonly DayCount[], from: string, to: string): DayCount[] {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const out: DayCount[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end && out.length < 3700; t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    out.push({ date, count: byDate.get(date)?.count ?? 0, unique: byDate.get(date)?.unique ?? 0 });
  }
  return out;
}

/** A chart bound to a container element; showDays() and showHours() replace its data. */
export class VisitsChart {
  private plot: uPlot | null = null;
  private mode: Mode = "days";
  private data: uPlot.AlignedData = [[], [], []];
  private idle: Idle = { range: "", total: "", unique: "" };

  constructor(private readonly container: HTMLElement) {
    new ResizeObserver(() => this.plot?.setSize({ width: this.width(), height: HEIGHT })).observe(container);
    matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => this.rebuild());
  }

  private width(): number {
    return Math.max(200, this.container.clientWidth);
  }

  private rebuild(): void {
    this.plot?.destroy();
    this.plot = new uPlot(options(this.width(), this.mode, () => this.idle), this.data, this.container);
  }

  /** Shows every day from `from` to `to` (YYYY-MM-DD, UTC), zero where the API has none. */
  showDays(apiDays: readonly DayCount[], from: string, to: string): void {
    const days = fillDays(apiDays, from, to);
    const xs = days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1e3);
    const range = xs.length > 0 ? fullDayFormat.formatRange(new Date(xs[0]! * 1e3), new Date(xs[xs.length - 1]! * 1e3)) : "";
    this.show("days", xs, days, range);
  }

  /** Shows hours (the API's, already zero-filled) in the reader's time zone. */
  showHours(hours: readonly HourCount[]): void {
    const xs = hours.map((h) => Date.parse(h.hour) / 1e3);
    const range = xs.length > 0 ? fullHourFormat.formatRange(new Date(xs[0]! * 1e3), new Date(xs[xs.length - 1]! * 1e3 + 3_599_000)) : "";
    this.show("hours", xs, hours, range);
  }

  private show(mode: Mode, xs: number[], rows: readonly { count: number; unique: number }[], range: string): void {
    const total = rows.reduce((a, r) => a + r.count, 0);
    const unique = rows.reduce((a, r) => a + r.unique, 0);
    // Set before the data: uPlot redraws the readout from it when nothing is hovered.
    this.idle = { range, total: formatNumber(total), unique: formatNumber(unique) };
    this.data = [xs, rows.map((r) => r.count), rows.map((r) => r.unique)];
    if (this.plot && mode === this.mode) this.plot.setData(this.data);
    else {
      this.mode = mode;
      this.rebuild();
    }
    const span = range ? ` (${range})` : "";
    const title = t(mode === "days" ? "chart_title" : "chart_title_hours");
    this.container.setAttribute("aria-label", `${title}: ${formatNumber(total)} ${t("chart_clicks")}, ${formatNumber(unique)} ${t("chart_unique")}${span}`);
  }
}
