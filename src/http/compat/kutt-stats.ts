// GET /api/v2/links/<id>/stats (docs/kutt-api.md: Statistics): Kutt's stats object (its
// server/queries/visit.queries.js find) built from our statistics operation. Kutt counts no bot
// visit, so neither does this; its periods are sliding (the last 24 hours, 7, 30 days, 12 months),
// ours are UTC days and hours: each `views` array is filled from our days (hours for lastDay), and
// each period's breakdowns cover its whole UTC days (lastDay: yesterday and today).

import { getLink } from "../../ops/links/get.ts";
import { readLinkStats } from "../../ops/stats/read.ts";
import type { LinkStats, NameCount } from "../../stats/link-stats.ts";
import { addDays, dayOf, daysBetween } from "../../util/day.ts";
import { linkPlace } from "../link-json.ts";
import { publicBase, type PeerServer } from "../request-origin.ts";
import { NO_HOST } from "./peer-failure.ts";
import { json } from "../responses.ts";
import { kuttError, kuttLink, kuttProblem, LINK_NOT_FOUND } from "./kutt-json.ts";
import { addressedKey } from "./kutt-links.ts";
import { kuttPrincipal, type KuttDeps } from "./kutt-request.ts";

const HOUR_MS = 3_600_000;
/** Kutt's browsers and systems (its utils.getInitStats): every one is listed, 0 when unseen. */
const BROWSERS = ["chrome", "edge", "firefox", "ie", "opera", "safari"] as const;
const SYSTEMS = ["android", "ios", "linux", "macos", "windows"] as const;
const BROWSER_ALIASES: Readonly<Record<string, string>> = { "internet explorer": "ie", "microsoft edge": "edge" };

type NameValue = { name: string; value: number };
type Period = { stats: { browser: NameValue[]; os: NameValue[]; country: NameValue[]; referrer: NameValue[] }; views: number[]; total: number };

/** Our counts by Kutt's names: those it knows, the rest as "other"; largest first, as Kutt sorts them. */
function kuttFamilies(counts: readonly NameCount[], known: readonly string[], aliases: Readonly<Record<string, string>> = {}): NameValue[] {
  const sums = new Map<string, number>([...known, "other"].map((name) => [name, 0]));
  for (const { name, count } of counts) {
    const lower = name.toLowerCase();
    const kutt = aliases[lower] ?? (known.includes(lower) ? lower : "other");
    sums.set(kutt, sums.get(kutt)! + count);
  }
  return [...sums].map(([name, value]) => ({ name, value })).sort((a, b) => b.value - a.value);
}

/** Countries and referrers as we name them (ISO codes, hosts), largest first. */
function named(counts: readonly NameCount[]): NameValue[] {
  return counts.map(({ name, count }) => ({ name, value: count })).sort((a, b) => b.value - a.value);
}

/** One period of Kutt's: its breakdowns from our reading of its days, its views as placed, their sum. */
function period(stats: LinkStats, views: number[]): Period {
  return {
    stats: {
      browser: kuttFamilies(stats.browserStats, BROWSERS, BROWSER_ALIASES),
      os: kuttFamilies(stats.osStats, SYSTEMS),
      country: named(stats.countryStats),
      referrer: named(stats.referrerStats),
    },
    views,
    total: views.reduce((a, b) => a + b, 0),
  };
}

/** `size` slots filled from dated counts; `age` says how many slots back from the newest an entry is. */
function slots<T extends { count: number }>(size: number, entries: readonly T[], age: (entry: T) => number): number[] {
  const views = new Array<number>(size).fill(0);
  for (const entry of entries) {
    const back = age(entry);
    if (back >= 0 && back < size) views[size - 1 - back]! += entry.count;
  }
  return views;
}

/** Calendar months from a day to today (0: this month). */
function monthsBack(day: string, today: string): number {
  const months = (d: string) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7));
  return months(today) - months(day);
}

export async function kuttStats(request: Request, id: string, server: PeerServer, deps: KuttDeps): Promise<Response> {
  const auth = await kuttPrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const key = await addressedKey(id, deps);
  if (key instanceof Response) return key;
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return kuttError(400, NO_HOST);
  // Kutt shows a link's statistics to its owner and to admins only, whatever --stats-access says.
  const found = await getLink(auth.principal, { id: key }, deps);
  if (!found.ok) return kuttProblem(found.problem);
  const now = deps.now();
  const today = dayOf(now);
  const read = (days: number) => readLinkStats({ key, filter: { from: addDays(today, -(days - 1)), to: null, excludeBots: true } }, async () => auth.principal, deps);
  const [day, week, month, year] = await Promise.all([read(2), read(7), read(30), read(365)]);
  if (typeof day === "string" || typeof week === "string" || typeof month === "string" || typeof year === "string") return kuttError(404, LINK_NOT_FOUND);
  const thisHour = now - (now % HOUR_MS);
  const byDay = (entry: { date: string }) => daysBetween(entry.date, today);
  return json(200, {
    lastYear: period(year.stats, slots(12, year.stats.visitsByDate, (e) => monthsBack(e.date, today))),
    lastDay: period(day.stats, slots(24, day.stats.visitsByHour, (e) => Math.round((thisHour - Date.parse(e.hour)) / HOUR_MS))),
    lastMonth: period(month.stats, slots(30, month.stats.visitsByDate, byDay)),
    lastWeek: period(week.stats, slots(7, week.stats.visitsByDate, byDay)),
    updatedAt: new Date(now).toISOString(),
    ...kuttLink(found.value, linkPlace(found.value.domain, base, deps.directory).base),
  });
}
