// Statistics of one link: which days, hours and visits a request covers (planStats), and the API's
// figures from the rows an engine read for that plan (assembleStats). Engines read rollups, so the
// cost follows the number of distinct days and values, not the number of visits (the recent visits
// come from the newest raw batches).

import type { Link } from "../links/link.ts";
import type { LinkSet } from "../links/list.ts";
import { addDays, dayOf, daysBetween } from "../util/day.ts";
import { hourOf } from "../visits/rollup.ts";
import { then, type MaybePromise } from "../util/maybe.ts";
import type { StoredVisit } from "../visits/visit-batch.ts";
import type { DateCount, HourCount, LinkStats, NameCount, UtmCount } from "../api/types.ts";
import { clickFigures, knownVisitors, previousFigures, previousRange, type DayRow } from "./previous.ts";
import { readSum } from "./aggregate.ts";

export type { NameCount, DateCount, HourCount, UtmCount, RecentVisit, LinkStats } from "../api/types.ts";

export type StatsFilter = {
  /** first UTC day included, YYYY-MM-DD; null = the link's creation day */
  from: string | null;
  /** last UTC day included; null = today */
  to: string | null;
  excludeBots: boolean;
};

export const RECENT_VISITS = 50;
/** Breakdown lists keep their largest entries; the long tail of referrers would otherwise be unbounded. */
export const MAX_BREAKDOWN_ENTRIES = 100;
/** visitsByDate without `from` starts at most this many days back. */
export const DEFAULT_DAYS = 365;
export const HOURS = 48;
const HOUR_MS = 3_600_000;

export type StatsReader = {
  read(link: Link, filter: StatsFilter, now: number): MaybePromise<LinkStats>;
  /** The statistics of several links summed (docs/statistics.md: Tags and domains); src/stats/aggregate.ts. */
  readSum(links: LinkSet, filter: StatsFilter, now: number): Promise<LinkStats>;
};

/**
 * The port each engine implements (src/db/<engine>/stats.ts): the rows a plan asks for of a set of
 * links (by their seqs; one link is a set of one), every count summed over the set by the database
 * (src/db/shared/stats-set-sql.ts), all read in one snapshot, so that a batch of visits written
 * meanwhile is in every figure or in none.
 */
export type StatsSource = (linkSeqs: readonly number[], plan: StatsPlan) => MaybePromise<StatsRows>;

export function createStatsReader(source: StatsSource): StatsReader {
  return {
    read(link, filter, now) {
      const plan = planStats(link, filter, now);
      return then(source([link.seq], plan), (rows) => assembleStats(plan, rows));
    },
    readSum: (links, filter, now) => readSum(source, links, filter, now),
  };
}

/** What a link's stats read: the days of the range, the hours of its end, the recent visits' span. */
export type StatsPlan = {
  /** first and last UTC day of the range (YYYY-MM-DD) */
  from: string;
  to: string;
  /** the first day shown in visitsByDate: the range's start, not before the link's creation */
  shownFrom: string;
  /**
   * the days of the same length just before `from` (docs/statistics.md: The previous period): the
   * engines read the daily rows from `previous.from` to `to`, both periods in one query
   */
  previous: { from: string; to: string };
  excludeBots: boolean;
  /** 1 subtracts bot clicks in the queries (`total - bots * minus`), 0 keeps them */
  minus: 0 | 1;
  /** the first and last hour of visitsByHour (ms, hour starts), or null when the range has none */
  hours: { start: number; end: number } | null;
  recent: { fromTs: number; toTs: number };
};

/** The rows an engine reads for a plan; counts already without bots when the plan says so. */
export type StatsRows = {
  /**
   * previous.from..to; `total`: the day's clicks, bots included whatever the filter; `imported`: of
   * those, the ones an import wrote (they carry no visitor)
   */
  days: DayRow[];
  hours: { hour: string; count: number; uniques: number }[];
  browser: NameCount[];
  os: NameCount[];
  device: NameCount[];
  country: NameCount[];
  referrer: NameCount[];
  /** which rule and variant clicks took, and the visitors a fallback took (rollup.ts ROUTE_DIMENSIONS) */
  rule: NameCount[];
  variant: NameCount[];
  fallback: NameCount[];
  /**
   * Link-preview agents' fetches of the link's card, per agent: never without bots, whatever the
   * plan says (every agent is a bot, and the bot filter is about clicks, which these are not); the
   * folded OTHER row (other.ts) left out.
   */
  preview: NameCount[];
  /** every preview of the range, OTHER's and those past the list's length included, bots never left out */
  previewTotal: number;
  /** '' for an absent UTM parameter; the folded OTHER row left out */
  utm: { source: string; medium: string; campaign: string; count: number }[];
  /** the clicks of every UTM combination, OTHER's included */
  utmTotal: number;
  recent: StoredVisit[];
};

export function planStats(link: Pick<Link, "createdAt">, filter: StatsFilter, now: number): StatsPlan {
  const today = dayOf(now);
  const created = dayOf(link.createdAt);
  const from = filter.from ?? maxDay(created, addDays(today, -(DEFAULT_DAYS - 1)));
  const to = filter.to ?? today;
  const shownFrom = maxDay(from, created);
  // The last HOURS hours up to the range's end (now, when it ends today or later), not before its start.
  const end = to >= today ? now - (now % HOUR_MS) : Date.parse(`${to}T23:00:00Z`);
  const start = Math.max(end - (HOURS - 1) * HOUR_MS, Date.parse(`${shownFrom}T00:00:00Z`));
  return {
    from,
    to,
    shownFrom,
    previous: previousRange(from, to),
    excludeBots: filter.excludeBots,
    minus: filter.excludeBots ? 1 : 0,
    hours: start > end ? null : { start, end },
    recent: { fromTs: Date.parse(from + "T00:00:00Z"), toTs: Date.parse(addDays(to, 1) + "T00:00:00Z") },
  };
}

/** The API's stats from the rows an engine read for the plan. */
export function assembleStats(plan: StatsPlan, rows: StatsRows): LinkStats {
  const days = rows.days.filter((d) => d.day >= plan.from);
  const before = rows.days.filter((d) => d.day < plan.from);
  const figures = clickFigures(days, plan.excludeBots);
  const totalClicks = figures.totalClicks;
  const visitors = knownVisitors(days);
  return {
    ...figures,
    uniqueVisitors: visitors.total,
    uniqueVisitorsPartial: visitors.partial,
    recentVisits: rows.recent.map(([ts, browser, os, device, country, referrer, , , , isBot, rule, variant]) => ({
      timestamp: new Date(ts).toISOString(), browser, os, device, country, referrer, isBot: isBot === 1,
      ...(rule === undefined ? {} : variant ? { rule, variant } : { rule }),
    })),
    // Each visit has one value per dimension: what the listed values leave of the total is "Other"
    // (values folded at write time, other.ts, and those past the list's length).
    browserStats: withOther(rows.browser, totalClicks, namedOther),
    osStats: withOther(rows.os, totalClicks, namedOther),
    deviceStats: withOther(rows.device, totalClicks, namedOther),
    countryStats: withOther(rows.country, totalClicks, namedOther),
    referrerStats: withOther(rows.referrer, totalClicks, namedOther),
    visitsByDate: zeroFilled(days, visitors.byDay, plan.shownFrom, plan.to),
    visitsByHour: zeroFilledHours(rows.hours, visitors.byDay, plan.hours),
    utmStats: withOther(
      rows.utm.map((u) => ({ source: u.source || null, medium: u.medium || null, campaign: u.campaign || null, count: u.count })),
      rows.utmTotal,
      (count): UtmCount => ({ source: null, medium: null, campaign: null, count, other: true }),
    ),
    ruleStats: rows.rule,
    variantStats: rows.variant,
    fallbackStats: rows.fallback,
    previewStats: withOther(rows.preview, rows.previewTotal, namedOther),
    previous: previousFigures(plan.previous, before, plan.excludeBots),
  };
}

/** The list, and an "Other" entry (made by `other`) for what it leaves of the total (none when nothing is left). */
function withOther<T extends { count: number }>(listed: T[], total: number, other: (count: number) => T): T[] {
  const rest = total - listed.reduce((n, r) => n + r.count, 0);
  return rest > 0 ? [...listed, other(rest)] : listed;
}

const namedOther = (count: number): NameCount => ({ name: OTHER_NAME, count, other: true });

/** The name of the entry that sums the values not listed. */
export const OTHER_NAME = "Other";

/**
 * Every hour of the plan's window with its count and uniques, zero where nothing was recorded;
 * unique null in a day whose clicks were all imported (hourly rollups keep no imported count).
 */
function zeroFilledHours(rows: StatsRows["hours"], byDay: ReadonlyMap<string, number | null>, window: StatsPlan["hours"]): HourCount[] {
  if (window === null) return [];
  const byHour = new Map(rows.map((r) => [r.hour, r]));
  const out: HourCount[] = [];
  for (let t = window.start; t <= window.end; t += HOUR_MS) {
    const r = byHour.get(hourOf(t));
    const hour = new Date(t).toISOString();
    out.push({ hour, count: r?.count ?? 0, unique: r?.count && byDay.get(hour.slice(0, 10)) === null ? null : (r?.uniques ?? 0) });
  }
  return out;
}

function maxDay(a: string, b: string): string {
  return a > b ? a : b;
}

/** Every day from..to with its count and uniques (`visitors`: as knownVisitors found them), zero where nothing was recorded. */
function zeroFilled(days: StatsRows["days"], visitors: ReadonlyMap<string, number | null>, from: string, to: string): DateCount[] {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const out: DateCount[] = [];
  const n = daysBetween(from, to);
  for (let i = 0; i <= n; i++) {
    const date = addDays(from, i);
    const d = byDay.get(date);
    out.push({ date, count: d?.count ?? 0, unique: visitors.has(date) ? (visitors.get(date) as number | null) : 0 });
  }
  return out;
}
