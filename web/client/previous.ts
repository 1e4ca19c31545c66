// Each headline figure beside the previous period's (docs/statistics.md: The previous period): the
// figure then and the change as ±% ("new" where the previous period had none), under its card.
// The stats page, the tag and domain pages and the comparison's table use it alike.
import type { LinkStats, PreviousPeriod } from "../../src/api/types.ts";
import { byId, formatNumber, lang, t } from "./common.ts";

const change = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0, signDisplay: "exceptZero" });
const points = new Intl.NumberFormat(lang, { maximumFractionDigits: 1, signDisplay: "exceptZero" });
const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 });
const dayFormat = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" });

/** "+12 %" from then to now; "new" from nothing; "" when both are unknown. */
export function changeText(now: number | null, then: number | null): string {
  if (now === null || then === null) return "";
  if (then === 0) return now === 0 ? change.format(0) : t("aggregate.new");
  return change.format((now - then) / then);
}

/** The figures of the previous period as the cards word them, and the change to each. */
export function previousLines(s: Pick<LinkStats, "totalClicks" | "uniqueVisitors" | "humanClicks" | "botPercentage">, p: PreviousPeriod) {
  // The change keeps its words together ("+20 pts" never breaks between its figure and its unit on a phone's card).
  const line = (value: string, delta: string) => (delta === "" ? t("aggregate.previous_line", { value, change: "" }).replace(" ()", "") : t("aggregate.previous_line", { value, change: delta.replaceAll(" ", "\u00a0") }));
  return {
    total: line(formatNumber(p.totalClicks), changeText(s.totalClicks, p.totalClicks)),
    unique: line(p.uniqueVisitors === null ? "—" : formatNumber(p.uniqueVisitors), changeText(s.uniqueVisitors, p.uniqueVisitors)),
    human: line(formatNumber(p.humanClicks), changeText(s.humanClicks, p.humanClicks)),
    // The bot share changes by percentage points, not by a percentage of itself.
    bots: line(percent.format(p.botPercentage / 100), t("aggregate.points", { points: points.format(s.botPercentage - p.botPercentage) })),
  };
}

/** Fills the cards' lines (`kpi-<figure>-prev`); null hides them (the 24-hour view has no previous day range). */
export function showPrevious(s: LinkStats | null): void {
  const lines = s === null ? null : previousLines(s, s.previous);
  for (const key of ["total", "unique", "human", "bots"] as const) {
    const el = byId(`kpi-${key}-prev`);
    el.hidden = lines === null;
    if (lines === null || s === null) continue;
    el.textContent = lines[key];
    el.title = t("aggregate.previous_span", { from: dayFormat.format(new Date(s.previous.from)), to: dayFormat.format(new Date(s.previous.to)) });
  }
}
