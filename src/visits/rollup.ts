// Sums a batch of visits into rollup rows, so that a burst of clicks becomes one upsert per
// (link, day, value) and (link, hour) rather than one per visit. Visits are counted per profile
// (profiles.ts) first, and the dimensions are summed once per profile, not once per visit.

import { countedApart, type Visit, type VisitProfile, type VisitRoute } from "./visit.ts";
import { dayOf } from "../util/day.ts";
import { profileResolver } from "./profiles.ts";

export const DIMENSIONS = ["browser", "os", "device", "country", "referrer"] as const;
/**
 * Which rule and variant clicks took, and what is counted apart (not clicks): the visitors a
 * fallback URL took and link-preview agents' fetches of a card. Rows of dimension_rollup too.
 */
export const ROUTE_DIMENSIONS = ["rule", "variant", "fallback", "preview"] as const;
export type Dimension = (typeof DIMENSIONS)[number] | (typeof ROUTE_DIMENSIONS)[number];
/** The dimensions a visit profile holds (the country is counted per visit). */
const PROFILE_DIMENSIONS = ["browser", "os", "device", "referrer"] as const;

export type Counts = { total: number; bots: number };
/** Visitors seen for the first time in their day or hour (the writer knows from visitors_seen). */
export type Uniques = { uniques: number; uniqueBots: number };
export type DailyRow = Counts & Uniques & { linkSeq: number; day: string };
export type HourlyRow = Counts & Uniques & { linkSeq: number; hour: string };
export type DimensionRow = Counts & { linkSeq: number; dimension: Dimension; day: string; name: string };
/** '' stands for an absent UTM parameter (see the utm_rollup table). */
export type UtmRow = Counts & { linkSeq: number; day: string; source: string; medium: string; campaign: string };

export type Rollups = { daily: DailyRow[]; hourly: HourlyRow[]; dimensions: DimensionRow[]; utm: UtmRow[] };

/** Per visit of a batch: bit FIRST_IN_DAY and bit FIRST_IN_HOUR when its visitor is new there. */
export type FirstVisits = Uint8Array;
export const FIRST_IN_DAY = 1;
export const FIRST_IN_HOUR = 2;
/**
 * Visits an import brought count no unique visitors: the source's addresses are never read, and
 * the salts of their days are long gone (docs/importing.md: Moving from another shortener).
 */
export const NO_FIRST_VISITS = (visits: number): FirstVisits => new Uint8Array(visits);
/** How a batch came: clicks recorded here, or visits an import brought (marked, no unique visitors). */
export type BatchKind = "recorded" | "imported";
/** A link's clicks in a batch, for the totals kept on its links row. */
export type LinkTotal = { total: number; humans: number; lastTs: number };

// One accumulator per link and day: its counts, its hours, its visits per profile and per country.
type LinkDay = Counts & Uniques & {
  linkSeq: number;
  day: string;
  /** only for links with rules or a split */
  routes: Map<VisitRoute, Counts> | null;
  profiles: Map<VisitProfile, Counts>;
  countries: Map<string, Counts>;
  hours: Map<string, HourlyRow>;
};

const SEP = "\u0000";

/** The rollup rows a batch adds; without `firsts` every visit counts as a new visitor. */
export function summarize(batch: readonly Visit[], firsts: FirstVisits | null = null): Rollups {
  const linkDays = new Map<string, LinkDay>();
  // A batch nearly always falls in one day: a link's accumulator of the day last seen, without a key.
  const current = new Map<number, LinkDay>();
  const day = dayCache();
  const hour = hourCache();
  const profileOf = profileResolver();
  for (let i = 0; i < batch.length; i++) {
    const v = batch[i]!;
    const d = day(v.ts);
    let acc = current.get(v.linkSeq);
    if (acc === undefined || acc.day !== d) {
      const key = v.linkSeq + SEP + d;
      acc = linkDays.get(key);
      if (acc === undefined) linkDays.set(key, (acc = { linkSeq: v.linkSeq, day: d, total: 0, bots: 0, uniques: 0, uniqueBots: 0, routes: null, profiles: new Map(), countries: new Map(), hours: new Map() }));
      current.set(v.linkSeq, acc);
    }
    const bot = v.isBot ? 1 : 0;
    const first = firsts === null ? FIRST_IN_DAY | FIRST_IN_HOUR : firsts[i]!;
    acc.total++;
    acc.bots += bot;
    if (first & FIRST_IN_DAY) {
      acc.uniques++;
      acc.uniqueBots += bot;
    }
    const h = hour(v.ts);
    let inHour = acc.hours.get(h);
    if (inHour === undefined) acc.hours.set(h, (inHour = { linkSeq: v.linkSeq, hour: h, total: 0, bots: 0, uniques: 0, uniqueBots: 0 }));
    inHour.total++;
    inHour.bots += bot;
    if (first & FIRST_IN_HOUR) {
      inHour.uniques++;
      inHour.uniqueBots += bot;
    }
    count(acc.profiles, profileOf(v), bot);
    count(acc.countries, v.country, bot);
    if (v.route != null) count((acc.routes ??= new Map()), v.route, bot);
  }

  const out: Rollups = { daily: [], hourly: [], dimensions: [], utm: [] };
  for (const acc of linkDays.values()) {
    out.daily.push({ linkSeq: acc.linkSeq, day: acc.day, total: acc.total, bots: acc.bots, uniques: acc.uniques, uniqueBots: acc.uniqueBots });
    out.hourly.push(...acc.hours.values());
    const values: Record<(typeof DIMENSIONS)[number], Map<string, Counts>> = { browser: new Map(), os: new Map(), device: new Map(), country: acc.countries, referrer: new Map() };
    const utm = new Map<string, UtmRow>();
    for (const [p, c] of acc.profiles) {
      for (const dimension of PROFILE_DIMENSIONS) add(values[dimension], p[dimension], c);
      if (p.utmSource !== null || p.utmMedium !== null || p.utmCampaign !== null) {
        const source = p.utmSource ?? "";
        const medium = p.utmMedium ?? "";
        const campaign = p.utmCampaign ?? "";
        const utmKey = source + SEP + medium + SEP + campaign;
        let row = utm.get(utmKey);
        if (row === undefined) utm.set(utmKey, (row = { linkSeq: acc.linkSeq, day: acc.day, source, medium, campaign, total: 0, bots: 0 }));
        row.total += c.total;
        row.bots += c.bots;
      }
    }
    for (const dimension of DIMENSIONS) {
      for (const [name, c] of values[dimension]) out.dimensions.push({ linkSeq: acc.linkSeq, dimension, day: acc.day, name, total: c.total, bots: c.bots });
    }
    if (acc.routes !== null) {
      const rules = new Map<string, Counts>();
      const variants = new Map<string, Counts>();
      for (const [r, c] of acc.routes) {
        add(rules, r.rule, c);
        if (r.variant !== "") add(variants, r.variant, c);
      }
      for (const [name, c] of rules) out.dimensions.push({ linkSeq: acc.linkSeq, dimension: "rule", day: acc.day, name, total: c.total, bots: c.bots });
      for (const [name, c] of variants) out.dimensions.push({ linkSeq: acc.linkSeq, dimension: "variant", day: acc.day, name, total: c.total, bots: c.bots });
    }
    out.utm.push(...utm.values());
  }
  return out;
}

/**
 * A batch's clicks, and the rows of what is counted apart (visit.ts countedApart): the visitors sent
 * to a fallback URL, per link, day and reason, and link-preview agents' fetches of a card, per link,
 * day and agent (its stats name, the visit's browser: a bot's name, bot-names.ts). Neither is a
 * click, so they are in no total, raw visit, unique visitor, live feed or webhook. Nearly every
 * batch has none and is returned as it is.
 */
export function withoutApart(batch: Visit[]): { clicks: Visit[]; apart: DimensionRow[] } {
  let i = 0;
  while (i < batch.length && !countedApart(batch[i]!.route)) i++;
  if (i === batch.length) return { clicks: batch, apart: [] };
  const clicks: Visit[] = batch.slice(0, i);
  const rows = new Map<string, DimensionRow>();
  const day = dayCache();
  for (; i < batch.length; i++) {
    const v = batch[i]!;
    const route = v.route;
    if (!countedApart(route)) {
      clicks.push(v);
      continue;
    }
    const dimension = route!.preview ? "preview" : "fallback";
    const name = route!.preview ? v.browser : route!.fallback!;
    const d = day(v.ts);
    const key = v.linkSeq + SEP + d + SEP + dimension + SEP + name;
    let row = rows.get(key);
    if (row === undefined) rows.set(key, (row = { linkSeq: v.linkSeq, dimension, day: d, name, total: 0, bots: 0 }));
    row.total++;
    if (v.isBot) row.bots++;
  }
  return { clicks, apart: [...rows.values()] };
}

function count<K>(values: Map<K, Counts>, key: K, bot: number): void {
  const c = values.get(key);
  if (c === undefined) values.set(key, { total: 1, bots: bot });
  else {
    c.total++;
    c.bots += bot;
  }
}

function add(values: Map<string, Counts>, name: string, counts: Counts): void {
  const c = values.get(name);
  if (c === undefined) values.set(name, { total: counts.total, bots: counts.bots });
  else {
    c.total += counts.total;
    c.bots += counts.bots;
  }
}

/** The UTC hour of a timestamp, as rollups key it: YYYY-MM-DDTHH. */
export function hourOf(ts: number): string {
  return new Date(ts).toISOString().slice(0, 13);
}

// Like dayCache, for the hour.
export function hourCache(): (ts: number) => string {
  let start = 0;
  let end = -1;
  let value = "";
  return (ts) => {
    if (ts < start || ts >= end) {
      start = ts - (ts % 3_600_000);
      end = start + 3_600_000;
      value = hourOf(ts);
    }
    return value;
  };
}

// A batch spans at most a few hundred ms, nearly always inside one UTC day: format the day once.
export function dayCache(): (ts: number) => string {
  let start = 0;
  let end = -1;
  let day = "";
  return (ts) => {
    if (ts < start || ts >= end) {
      start = ts - (ts % 86_400_000);
      end = start + 86_400_000;
      day = dayOf(ts);
    }
    return day;
  };
}

/** Per link (by seq): clicks, human clicks and the newest click of a batch. */
export function linkTotals(batch: readonly Visit[]): Map<number, LinkTotal> {
  const out = new Map<number, LinkTotal>();
  for (const v of batch) {
    const t = out.get(v.linkSeq);
    const human = v.isBot ? 0 : 1;
    if (t === undefined) out.set(v.linkSeq, { total: 1, humans: human, lastTs: v.ts });
    else {
      t.total++;
      t.humans += human;
      if (v.ts > t.lastTs) t.lastTs = v.ts;
    }
  }
  return out;
}
