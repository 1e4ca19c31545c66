// The previous period (docs/statistics.md: The previous period): the days of the same length just
// before a range's first day, and the headline figures of a list of daily rollup rows, one rule for
// a range and the one before it, for a link, a tag and a domain alike.

import type { PreviousPeriod } from "../api/types.ts";
import { addDays, daysBetween } from "../util/day.ts";

/** A daily rollup row as the engines read it (StatsRows["days"] in link-stats.ts). */
export type DayRow = { day: string; count: number; bots: number; uniques: number; imported: number; total: number };

/** The days just before `from`, as many as from..to holds. */
export function previousRange(from: string, to: string): { from: string; to: string } {
  const length = daysBetween(from, to) + 1;
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/**
 * Clicks, humans and bot share of some days; counts already without bots when `excludeBots` (the
 * engines subtract them in their queries, so the bot column is then not counted again).
 */
export function clickFigures(days: readonly DayRow[], excludeBots: boolean): { totalClicks: number; humanClicks: number; botPercentage: number } {
  let totalClicks = 0;
  let botClicks = 0;
  for (const d of days) {
    totalClicks += d.count;
    botClicks += d.bots;
  }
  if (excludeBots) botClicks = 0;
  return {
    totalClicks,
    humanClicks: totalClicks - botClicks,
    botPercentage: totalClicks === 0 ? 0 : Math.round((botClicks / totalClicks) * 10000) / 100,
  };
}

/**
 * The unique visitors each day with clicks has, null for a day whose clicks were all imported
 * (imported visits carry no visitor key: docs/importing.md: Moving from another shortener); the
 * range's sum of the known ones, null when none is known; partial when some counted clicks were
 * imported. An imported click is told apart with bots included: a day with imported bots and
 * recorded people counts as mixed whatever the filter (the rollups keep no imported-bot count).
 */
export function knownVisitors(days: readonly DayRow[]): { byDay: Map<string, number | null>; total: number | null; partial: boolean } {
  const byDay = new Map<string, number | null>();
  let total = 0;
  let known = false;
  let partial = false;
  for (const d of days) {
    if (d.count === 0) continue;
    const unknown = d.imported > 0 && d.total - d.imported === 0;
    byDay.set(d.day, unknown ? null : d.uniques);
    if (d.imported > 0) partial = true;
    if (unknown) continue;
    known = true;
    total += d.uniques;
  }
  return { byDay, total: known ? total : partial ? null : 0, partial: known && partial };
}

/** The previous period's headline figures from its days' rows. */
export function previousFigures(range: { from: string; to: string }, days: readonly DayRow[], excludeBots: boolean): PreviousPeriod {
  return { from: range.from, to: range.to, ...clickFigures(days, excludeBots), uniqueVisitors: knownVisitors(days).total };
}
