// Sums a batch of visits into rollup rows, so that a burst of clicks becomes one upsert per
// (link, day, value) rather than one per visit.

import type { Visit } from "./visit.ts";
import { dayOf } from "../util/day.ts";

export const DIMENSIONS = ["browser", "os", "device", "country", "referrer"] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export type Counts = { total: number; bots: number };
export type DailyRow = Counts & { linkId: string; day: string };
export type DimensionRow = Counts & { linkId: string; dimension: Dimension; day: string; name: string };
/** '' stands for an absent UTM parameter (see the utm_rollup table). */
export type UtmRow = Counts & { linkId: string; day: string; source: string; medium: string; campaign: string };

export type Rollups = { daily: DailyRow[]; dimensions: DimensionRow[]; utm: UtmRow[] };

const SEP = "\u0000";

/** The rollup rows a batch adds. */
export function summarize(batch: readonly Visit[]): Rollups {
  // First by whole signature: under load most clicks repeat one (same link, browser, country…),
  // so this costs one string key per visit and the expansion below runs once per signature.
  const signatures = new Map<string, { visit: Visit; day: string } & Counts>();
  const day = dayCache();
  for (const v of batch) {
    const d = day(v.ts);
    const key = [v.linkId, d, v.browser, v.os, v.device, v.country, v.referrer, v.utmSource, v.utmMedium, v.utmCampaign].join(SEP);
    const entry = signatures.get(key);
    const bot = v.isBot ? 1 : 0;
    if (entry) {
      entry.total++;
      entry.bots += bot;
    } else signatures.set(key, { visit: v, day: d, total: 1, bots: bot });
  }

  const daily = new Map<string, DailyRow>();
  const dimensions = new Map<string, DimensionRow>();
  const utm = new Map<string, UtmRow>();
  for (const { visit: v, day: d, total, bots } of signatures.values()) {
    bump(daily, v.linkId + SEP + d, () => ({ linkId: v.linkId, day: d, total: 0, bots: 0 }), total, bots);
    for (const dimension of DIMENSIONS) {
      const name = v[dimension];
      bump(dimensions, [v.linkId, dimension, d, name].join(SEP), () => ({ linkId: v.linkId, dimension, day: d, name, total: 0, bots: 0 }), total, bots);
    }
    if (v.utmSource !== null || v.utmMedium !== null || v.utmCampaign !== null) {
      const source = v.utmSource ?? "";
      const medium = v.utmMedium ?? "";
      const campaign = v.utmCampaign ?? "";
      bump(utm, [v.linkId, d, source, medium, campaign].join(SEP), () => ({ linkId: v.linkId, day: d, source, medium, campaign, total: 0, bots: 0 }), total, bots);
    }
  }
  return { daily: [...daily.values()], dimensions: [...dimensions.values()], utm: [...utm.values()] };
}

function bump<T extends Counts>(rows: Map<string, T>, key: string, create: () => T, total: number, bots: number): void {
  let row = rows.get(key);
  if (!row) rows.set(key, (row = create()));
  row.total += total;
  row.bots += bots;
}

// A batch spans at most a few hundred ms, nearly always inside one UTC day: format the day once.
function dayCache(): (ts: number) => string {
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
