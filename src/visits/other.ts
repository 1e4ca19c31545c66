// Statistics stay bounded whatever visitors send. A visitor picks the referrer, the UTM values and
// (through the User-Agent) the browser and system names a click is counted under; each new value
// would be a rollup row of its own. So a link keeps at most MAX_VALUES_PER_DAY distinct values a
// day in each of those dimensions (and as many UTM combinations); the clicks of further values
// that day are added to one "Other" row instead. Counts stay exact: only the names past the limit
// are not kept. Countries and device types need no limit: they come from fixed lists.
//
// Both engines' batch writers call foldOther on a batch's rollups with the values the database
// already holds for the batch's links and days (read in the batch's own transaction).

import type { DimensionRow, Rollups, UtmRow, Dimension } from "./rollup.ts";

export const MAX_VALUES_PER_DAY = 100;
/** The stored name of the folded row: no recorded value can be it (control characters are never recorded). */
export const OTHER = "\u0001other";
/** The dimensions whose values a visitor can invent. */
export const CAPPED_DIMENSIONS: readonly Dimension[] = ["browser", "os", "referrer"];
const CAPPED = new Set<string>(CAPPED_DIMENSIONS);

/** What is stored for the batch's links and days: the names per dimension, the UTM combinations. */
export type StoredValues = {
  dimensions: readonly { link_id: string; dimension: string; day: string; name: string }[];
  utm: readonly { link_id: string; day: string; source: string; medium: string; campaign: string }[];
};

const SEP = "\u0000";
const utmKey = (source: string, medium: string, campaign: string) => source + SEP + medium + SEP + campaign;
const OTHER_UTM = utmKey(OTHER, "", "");

/** The rollups with every value past a day's limit folded into that day's OTHER row. */
export function foldOther(rollups: Rollups, stored: StoredValues): Rollups {
  const known = new Map<string, Set<string>>(); // "link\0dimension\0day" or "link\0utm\0day" → stored values
  const add = (group: string, value: string) => {
    let set = known.get(group);
    if (set === undefined) known.set(group, (set = new Set()));
    set.add(value);
  };
  for (const r of stored.dimensions) add(r.link_id + SEP + r.dimension + SEP + r.day, r.name);
  for (const r of stored.utm) add(r.link_id + SEP + "\u0002utm" + SEP + r.day, utmKey(r.source, r.medium, r.campaign));

  const dimensions = fold(
    rollups.dimensions,
    (r) => (CAPPED.has(r.dimension) ? r.linkId + SEP + r.dimension + SEP + r.day : null),
    (r) => r.name,
    known,
    (first) => ({ ...first, name: OTHER, total: 0, bots: 0 }),
  );
  const utm = fold(
    rollups.utm,
    (r) => r.linkId + SEP + "\u0002utm" + SEP + r.day,
    (r) => utmKey(r.source, r.medium, r.campaign),
    known,
    (first) => ({ ...first, source: OTHER, medium: "", campaign: "", total: 0, bots: 0 }),
  );
  return { ...rollups, dimensions, utm };
}

/**
 * Rows of one kind: those of a group that is not capped, or whose value is stored already, pass;
 * new values take the room left (the largest first), and the rest go to the group's OTHER row.
 */
function fold<R extends DimensionRow | UtmRow>(
  rows: readonly R[],
  groupOf: (r: R) => string | null,
  valueOf: (r: R) => string,
  known: Map<string, Set<string>>,
  otherOf: (first: R) => R,
): R[] {
  const out: R[] = [];
  const fresh = new Map<string, R[]>();
  for (const r of rows) {
    const group = groupOf(r);
    const value = valueOf(r);
    if (group === null || known.get(group)?.has(value)) out.push(r);
    else {
      const list = fresh.get(group);
      if (list === undefined) fresh.set(group, [r]);
      else list.push(r);
    }
  }
  for (const [group, list] of fresh) {
    const stored = known.get(group);
    const storedCount = stored === undefined ? 0 : stored.size - (stored.has(OTHER) || stored.has(OTHER_UTM) ? 1 : 0);
    const room = Math.max(0, MAX_VALUES_PER_DAY - storedCount);
    if (list.length <= room) {
      out.push(...list);
      continue;
    }
    // The largest new values keep their names (ties by value, so that every engine keeps the same).
    list.sort((a, b) => b.total - a.total || (valueOf(a) < valueOf(b) ? -1 : valueOf(a) > valueOf(b) ? 1 : 0));
    out.push(...list.slice(0, room));
    const otherRow = otherOf(list[0]!); // summarize makes no OTHER row: this is the group's only one
    out.push(otherRow);
    for (const r of list.slice(room)) {
      otherRow.total += r.total;
      otherRow.bots += r.bots;
    }
  }
  return out;
}
