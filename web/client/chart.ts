// The visits chart drawn by uPlot: clicks as bars and unique visitors as a mark on each day (no line
// between days: a line would invent values between them), by UTC day or, for the last 24 hours,
// by hour in the reader's own time zone; in the page locale, colored from the CSS theme and
// rebuilt when the color scheme changes; resizes with its card. A bar's figures show in a tip on
// hover, and from the keyboard (chart-keys.ts).
import uPlot from "uplot";
import { formatNumber, lang, t } from "./common.ts";
import { ChartKeys } from "./chart-keys.ts";

import type { DateCount as DayCount, HourCount } from "../../src/api/types.ts";
type Mode = "days" | "hours";
/** A bar's figures; `unique` null where every click was imported (not known). */
type Row = { count: number; unique: number | null };

const dayFormat = new Intl.DateTimeFormat(lang, { month: "short", day: "numeric", timeZone: "UTC" });
const fullDayFormat = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" });
// Hours in the reader's time zone: "the last 24 hours" means their day, not UTC's.
const hourFormat = new Intl.DateTimeFormat(lang, { hour: "numeric", minute: "2-digit" });
const fullHourFormat = new Intl.DateTimeFormat(lang, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
const HEIGHT = 240;
const HALF = { days: 43_200, hours: 1_800 }; // half a bar each side, so the first and last are whole
// Ticks on whole days (or hours) only: a tick between two bars would name a day twice.
const TICK_STEPS = {
  days: [1, 2, 7, 14, 28, 91, 182, 364].map((d) => d * 86_400),
  hours: [1, 2, 3, 6, 12, 24].map((h) => h * 3_600),
};

/** Unique visitors as shown: "—" where they are not known (imported clicks carry no visitor). */
export function uniqueText(unique: number | null): string {
  return unique === null ? "—" : formatNumber(unique);
}

/** The unique visitors of several bars: the known ones summed, null when none is known but some clicked. */
export function sumUnique(rows: readonly Row[]): number | null {
  const clicked = rows.filter((r) => r.count > 0);
  const known = clicked.filter((r) => r.unique !== null);
  return clicked.length > 0 && known.length === 0 ? null : known.reduce((a, r) => a + r.unique!, 0);
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** What the readout shows while no bar is hovered: the whole range and its totals. */
type Idle = { range: string; total: string; unique: string };

type Source = { idle: () => Idle; rows: () => readonly Row[]; when: (x: number) => string; onCursor: (u: uPlot) => void };

function options(width: number, mode: Mode, src: Source): uPlot.Options {
  const accent = cssVar("--accent");
  const second = cssVar("--series-2") || accent;
  const muted = cssVar("--muted");
  const border = cssVar("--border");
  const font = `12px ${cssVar("--font") || "sans-serif"}`;
  const tick = mode === "days" ? dayFormat : hourFormat;
  const row = (idx: number) => src.rows()[idx] ?? { count: 0, unique: 0 };
  return {
    width,
    height: HEIGHT,
    // Days are UTC days, whatever the reader's time zone; hours are shown in the reader's own.
    ...(mode === "days" ? { tzDate: (ts: number) => uPlot.tzDate(new Date(ts * 1e3), "Etc/UTC") } : {}),
    // The x range from the data itself: for a single bar (a link made today) uPlot would widen a
    // time scale by 86,400 of its units, which for seconds is some 1,000 days.
    scales: { x: { time: true, range: (u, min, max) => [(u.data[0][0] ?? min) - HALF[mode], (u.data[0].at(-1) ?? max) + HALF[mode]] }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
    legend: { show: true, live: true },
    // Every series reads the hovered bar's own index (a day without a mark is still that day).
    cursor: { y: false, points: { show: false }, drag: { x: false, y: false }, dataIdx: (_u, _s, idx) => idx },
    hooks: { setCursor: [src.onCursor] },
    series: [
      // Nothing hovered: the range and its totals, never a dash that reads like missing data.
      { label: t(mode === "days" ? "chart_date" : "chart_time"), value: (_u, v, _s, idx) => (idx == null || v == null ? src.idle().range : src.when(v)) },
      {
        label: t("chart_clicks"),
        stroke: accent,
        fill: accent + "cc",
        width: 0,
        points: { show: false },
        paths: uPlot.paths.bars!({ size: [0.72, 28], gap: 1 }),
        value: (_u, _v, _s, idx) => (idx == null ? src.idle().total : formatNumber(row(idx).count)),
      },
      {
        label: t("chart_unique"),
        stroke: second,
        // Marks only: no path between days (the data has a mark only where a bar has visitors).
        paths: () => null,
        // A dot ringed in the card's color, so it reads on top of a bar of the same height.
        points: { show: true, size: 10, width: 2, stroke: cssVar("--surface") || "#fff", fill: second },
        value: (_u, _v, _s, idx) => (idx == null ? src.idle().unique : uniqueText(row(idx).unique)),
      },
    ],
    axes: [
      {
        stroke: muted,
        font,
        space: 64,
        incrs: TICK_STEPS[mode],
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
    const day = byDate.get(date);
    out.push({ date, count: day?.count ?? 0, unique: day ? day.unique : 0 });
  }
  return out;
}

/** A chart bound to a container element; showDays() and showHours() replace its data. */
export class VisitsChart {
  private plot: uPlot | null = null;
  private mode: Mode = "days";
  private data: uPlot.AlignedData = [[], [], []];
  private rows: readonly Row[] = [];
  private idle: Idle = { range: "", total: "", unique: "" };
  private readonly keys: ChartKeys;

  constructor(private readonly container: HTMLElement, readout: HTMLElement) {
    this.keys = new ChartKeys(container, readout, (idx) => this.describe(idx));
    new ResizeObserver(() => this.plot?.setSize({ width: this.width(), height: HEIGHT })).observe(container);
    matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => this.rebuild());
  }

  private width(): number {
    return Math.max(200, this.container.clientWidth);
  }

  private when(x: number): string {
    return (this.mode === "days" ? fullDayFormat : fullHourFormat).format(new Date(x * 1e3));
  }

  /** A bar's date and figures, for the tip and for a screen reader. */
  private describe(idx: number): { when: string; clicks: string; unique: string } | null {
    const x = this.data[0][idx];
    const row = this.rows[idx];
    if (x === undefined || row === undefined) return null;
    return { when: this.when(x), clicks: formatNumber(row.count), unique: uniqueText(row.unique) };
  }

  private rebuild(): void {
    this.plot?.destroy();
    const source: Source = { idle: () => this.idle, rows: () => this.rows, when: (x) => this.when(x), onCursor: (u) => this.keys.cursorMoved(u) };
    this.plot = new uPlot(options(this.width(), this.mode, source), this.data, this.container);
    this.keys.attach(this.plot);
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

  private show(mode: Mode, xs: number[], rows: readonly Row[], range: string): void {
    const total = rows.reduce((a, r) => a + r.count, 0);
    const unique = uniqueText(sumUnique(rows));
    // Set before the data: uPlot redraws the readout from them when nothing is hovered.
    this.idle = { range, total: formatNumber(total), unique };
    this.rows = rows;
    // A mark where a bar has visitors; none on days without (or not known): nothing to mark there.
    this.data = [xs, rows.map((r) => r.count), rows.map((r) => (r.unique ? r.unique : null))];
    if (this.plot && mode === this.mode) this.plot.setData(this.data);
    else {
      this.mode = mode;
      this.rebuild();
    }
    this.keys.dataChanged(xs.length);
    const span = range ? ` (${range})` : "";
    const title = t(mode === "days" ? "chart_title" : "chart_title_hours");
    this.container.setAttribute("aria-label", `${title}: ${formatNumber(total)} ${t("chart_clicks")}, ${unique} ${t("chart_unique")}${span}`);
  }
}
