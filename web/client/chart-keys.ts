// The chart's tip and keyboard: a bar's date, clicks and unique visitors in a tip over it, on hover
// and from the keyboard. The chart is one tab stop (not one per bar: 90 days would be 90 stops);
// focused, the left and right arrow keys move from bar to bar, Home and End to the first and last,
// and a polite live region reads each bar out, so the figures reach a screen reader too.
import type uPlot from "uplot";
import { el, t } from "./common.ts";

/** A bar's date and figures, as shown. */
export type BarText = { when: string; clicks: string; unique: string };

export class ChartKeys {
  private plot: uPlot | null = null;
  /** The bar chosen from the keyboard; null while the chart is not focused. */
  private chosen: number | null = null;
  private bars = 0;
  private readonly tip = el("div", "chart-tip");

  constructor(
    private readonly container: HTMLElement,
    private readonly readout: HTMLElement,
    private readonly describe: (idx: number) => BarText | null,
  ) {
    this.tip.hidden = true;
    this.tip.setAttribute("aria-hidden", "true"); // the live region says the same to a screen reader
    container.addEventListener("keydown", (e) => this.onKey(e));
    // Tabbing in starts on the last bar (today, or this hour), unless the pointer chose one already.
    container.addEventListener("focus", () => {
      if (this.plot?.cursor.idx == null && this.bars > 0) this.choose(this.bars - 1);
    });
    container.addEventListener("blur", () => {
      this.chosen = null;
      this.plot?.setCursor({ left: -10, top: -10 });
    });
  }

  /** A new plot (a rebuild): the tip goes inside its overlay, so it sits over the bars. */
  attach(plot: uPlot): void {
    this.plot = plot;
    plot.over.append(this.tip);
  }

  /** New data (a poll, a new range): a bar chosen from the keyboard stays chosen, at the same place. */
  dataChanged(bars: number): void {
    this.bars = bars;
    if (this.chosen !== null && document.activeElement === this.container && bars > 0) this.choose(Math.min(this.chosen, bars - 1), false);
  }

  /** uPlot's setCursor hook: the tip follows the hovered (or chosen) bar, and hides when there is none. */
  cursorMoved(u: uPlot): void {
    const idx = u.cursor.idx;
    const text = idx == null ? null : this.describe(idx);
    if (idx == null || text === null) {
      this.tip.hidden = true;
      return;
    }
    const title = el("strong", "", text.when);
    const clicks = el("span", "", `${t("chart_clicks")}: ${text.clicks}`);
    const unique = el("span", "", `${t("chart_unique")}: ${text.unique}`);
    this.tip.replaceChildren(title, clicks, unique);
    this.tip.hidden = false;
    const x = u.valToPos(u.data[0][idx]!, "x");
    const y = u.valToPos((u.data[1]?.[idx] as number | null | undefined) ?? 0, "y");
    // Over the bar, kept inside the plot at both ends.
    const half = this.tip.offsetWidth / 2;
    const width = u.over.clientWidth;
    this.tip.style.left = `${Math.min(Math.max(x, half), Math.max(half, width - half))}px`;
    this.tip.style.top = `${Math.max(y, this.tip.offsetHeight + 4)}px`;
  }

  private onKey(e: KeyboardEvent): void {
    if (this.bars === 0) return;
    const at = this.chosen ?? this.plot?.cursor.idx ?? this.bars - 1;
    const next = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: this.bars - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    this.choose(Math.min(Math.max(next, 0), this.bars - 1));
  }

  /** Moves the cursor to bar idx (the tip and the legend follow) and reads it out when `announce`. */
  private choose(idx: number, announce = true): void {
    const u = this.plot;
    const x = u?.data[0][idx];
    if (!u || x === undefined) return;
    this.chosen = idx;
    u.setCursor({ left: u.valToPos(x, "x"), top: u.valToPos((u.data[1]?.[idx] as number | null | undefined) ?? 0, "y") });
    const text = this.describe(idx);
    if (announce && text) this.readout.textContent = `${text.when}: ${text.clicks} ${t("chart_clicks")}, ${text.unique} ${t("chart_unique")}`;
  }
}
