// A 30-day sparkline: one bar per day, drawn as a small inline SVG with DOM calls (no markup from
// data). The numbers themselves are in the accessible name; the bars are a picture of them.
import { formatNumber, t } from "../common.ts";

const SVG_NS = "http://www.w3.org/2000/svg";

/** `stretch`: fill the width of its box (the overview's), bars widening with it. */
export type SparkSize = { width: number; height: number; stretch?: boolean };

export function sparkline(days: readonly number[], size: SparkSize = { width: 90, height: 24 }): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, "svg");
  const { width, height } = size;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  svg.setAttribute("class", "spark");
  if (size.stretch) svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("role", "img");
  const total = days.reduce((a, b) => a + b, 0);
  svg.setAttribute("aria-label", t("sparkline_label", { count: formatNumber(total) }));
  const max = Math.max(1, ...days);
  const n = Math.max(1, days.length);
  const step = width / n;
  const bar = Math.max(1, step - 1);
  // A baseline so that a quiet month still reads as "no clicks", not as a missing picture.
  const base = document.createElementNS(SVG_NS, "rect");
  base.setAttribute("class", "spark-base");
  base.setAttribute("x", "0");
  base.setAttribute("y", String(height - 1));
  base.setAttribute("width", String(width));
  base.setAttribute("height", "1");
  svg.append(base);
  days.forEach((count, i) => {
    if (count <= 0) return;
    const h = Math.max(2, Math.round((count / max) * (height - 2)));
    const rect = document.createElementNS(SVG_NS, "rect");
    rect.setAttribute("x", (i * step).toFixed(2));
    rect.setAttribute("y", String(height - h));
    rect.setAttribute("width", bar.toFixed(2));
    rect.setAttribute("height", String(h));
    rect.setAttribute("rx", "0.5");
    if (i === n - 1) rect.setAttribute("class", "spark-today");
    svg.append(rect);
  });
  return svg;
}
